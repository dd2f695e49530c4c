/** SHA-256 as lowercase hex: the standard's test vectors, strings as UTF-8. */
import { sha256Bytes, sha256Hex, toHex } from "../lib/hash.ts";
import { assertEquals } from "./helpers/assert.ts";

Deno.test("sha256Hex: FIPS 180-2 vectors, for bytes and for strings (as UTF-8)", async () => {
  const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  assertEquals(await sha256Hex("abc"), abc);
  assertEquals(await sha256Hex(new TextEncoder().encode("abc")), abc);
  assertEquals(await sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assertEquals(
    await sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  // é is two UTF-8 bytes: the string and its bytes hash alike.
  assertEquals(await sha256Hex("é"), await sha256Hex(new Uint8Array([0xc3, 0xa9])));
});

Deno.test("sha256Bytes is the raw digest of sha256Hex", async () => {
  const digest = await sha256Bytes("abc");
  assertEquals(digest.length, 32);
  assertEquals(toHex(digest), await sha256Hex("abc"));
});

Deno.test("toHex: two lowercase digits per byte, leading zeros kept", () => {
  assertEquals(toHex(new Uint8Array([0, 1, 0x0f, 0x10, 0xab, 0xff])), "00010f10abff");
  assertEquals(toHex(new Uint8Array()), "");
});
