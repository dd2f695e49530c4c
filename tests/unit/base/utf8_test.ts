import { decodeStrictUtf8, decodeUtf8, firstInvalidUtf8, utf8Length } from "../../../lib/base/utf8.ts";
import { UnreadableFileError } from "../../../lib/base/errors.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

Deno.test("firstInvalidUtf8 agrees with the fatal TextDecoder on every 1- to 4-byte sequence class", () => {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const valid = (bytes: Uint8Array) => {
    try {
      decoder.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };
  // Every lead byte with a spread of continuation bytes: overlongs, surrogates, > U+10FFFF, truncations.
  const tails = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
  let checked = 0;
  for (let lead = 0; lead < 256; lead++) {
    for (const second of tails) {
      for (const third of [0x80, 0xbf, 0x41]) {
        for (const length of [1, 2, 3, 4]) {
          const bytes = new Uint8Array([lead, second, third, 0x80].slice(0, length));
          assertEquals(firstInvalidUtf8(bytes) < 0, valid(bytes), `bytes ${[...bytes]}`);
          checked++;
        }
      }
    }
  }
  assertEquals(checked, 256 * 10 * 3 * 4);
});

Deno.test("the one decoder keeps a leading BOM and refuses invalid UTF-8, naming the line and byte offset", () => {
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d]);
  assertEquals(decodeStrictUtf8(bom), "\ufeff[]");
  assertEquals(decodeUtf8(bom, "x.json"), "\ufeff[]");
  assertThrows(() => decodeStrictUtf8(new Uint8Array([0xff])), TypeError);
  const error = assertThrows(
    () => decodeUtf8(new Uint8Array([0x0a, 0x0a, 0xc3]), "x.json"),
    UnreadableFileError,
  );
  assertEquals(error.message, "x.json: not valid UTF-8: line 3, byte offset 2");
});

Deno.test("utf8Length agrees with TextEncoder's byte count, lone surrogates included", () => {
  const encoder = new TextEncoder();
  const units = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0xe9];
  let seed = 7;
  for (let round = 0; round < 2000; round++) {
    const text = String.fromCharCode(
      ...Array.from(
        { length: round % 9 },
        () => units[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % units.length],
      ),
    );
    assertEquals(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
  }
});
