import { assertEquals } from "../../helpers/assert.ts";
import { sha256Bytes, sha256Hex, toHex } from "../../../lib/base/hash.ts";

// FIPS 180-2 Appendix B and the NIST CAVS short/long message vectors.
const VECTORS: [input: string | Uint8Array, digest: string][] = [
  ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
  [
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  ],
  [
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
  ],
  ["a".repeat(1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"],
  [new Uint8Array([0xbd]), "68325720aabd7c82f30f554b313d0570c95accbb7dc4b5aae11204c08ffe732b"],
];

Deno.test("sha256Hex: the FIPS 180 and CAVS known-answer vectors", async () => {
  for (const [input, digest] of VECTORS) assertEquals(await sha256Hex(input), digest);
});

Deno.test("sha256Hex: a view hashes only its own bytes, not its whole buffer", async () => {
  const buffer = new TextEncoder().encode("xxabcxx");
  assertEquals(await sha256Hex(buffer.subarray(2, 5)), await sha256Hex("abc"));
});

Deno.test("sha256Bytes: a string hashes as its UTF-8 encoding", async () => {
  const text = "Ünïcödé 🦌";
  assertEquals(toHex(await sha256Bytes(text)), await sha256Hex(new TextEncoder().encode(text)));
  assertEquals((await sha256Bytes("abc")).length, 32);
});

Deno.test("toHex: two lowercase digits per byte, leading zeros kept", () => {
  assertEquals(toHex(new Uint8Array([0, 1, 0x0f, 0x10, 0xab, 0xff])), "00010f10abff");
  assertEquals(toHex(new Uint8Array()), "");
});

// SHA-256's first round constant and initial hash word, in hex and decimal: their absence means no SHA-256 of our own.
const SHA256_CONSTANTS = /0x428a2f98|1116352408|0x6a09e667|1779033703/i;

Deno.test("lib/ hashes only through WebCrypto: no SHA-256 round constants anywhere in it", async () => {
  const root = new URL("../../../lib/", import.meta.url);
  const found: string[] = [];
  const walk = async (dir: URL, prefix: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const name = `${prefix}${entry.name}`;
      if (entry.isDirectory) await walk(new URL(`${entry.name}/`, dir), `${name}/`);
      else if (SHA256_CONSTANTS.test(await Deno.readTextFile(new URL(entry.name, dir)))) found.push(name);
    }
  };
  await walk(root, "lib/");
  assertEquals(found, []);
});
