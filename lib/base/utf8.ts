/**
 * Strict UTF-8, in one place: one fatal decoder, which keeps a leading byte-order mark so that each format's
 * parser applies the reference's rule for it — `parsePyJson` refuses one (as `json.loads` of text does),
 * `parsePyYaml` skips one (as PyYAML does). Invalid UTF-8 is an error, never a replacement character.
 *
 * @module
 */

import { UnreadableFileError } from "./errors.ts";

/** The byte-order mark as text: what a file's leading `EF BB BF` decodes to. */
export const BOM = "\ufeff";

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 strictly, a leading byte-order mark kept; invalid UTF-8 throws the decoder's `TypeError`.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { decodeStrictUtf8 } from "./utf8.ts";
 * strictEqual(decodeStrictUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), "\ufeffa");
 * throws(() => decodeStrictUtf8(new Uint8Array([0x61, 0xff])), TypeError);
 * ```
 */
export function decodeStrictUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * The byte offset of the first invalid UTF-8 sequence, or -1 when the bytes are valid UTF-8.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { firstInvalidUtf8 } from "./utf8.ts";
 * deepStrictEqual(firstInvalidUtf8(new Uint8Array([0x61, 0xff])), 1);
 * ```
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index];
    if (lead < 0x80) {
      index++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f; // no surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return index;
    if (index + length > bytes.length) return index;
    const second = bytes[index + 1];
    if (second < low || second > high) return index;
    for (let next = 2; next < length; next++) {
      const byte = bytes[index + next];
      if (byte < 0x80 || byte > 0xbf) return index;
    }
    index += length;
  }
  return -1;
}

/**
 * Decodes a file's UTF-8 strictly ({@linkcode decodeStrictUtf8}, a leading BOM kept): an invalid byte is an
 * {@linkcode UnreadableFileError} naming the file, the line and the byte offset.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { UnreadableFileError } from "./errors.ts";
 * import { decodeUtf8 } from "./utf8.ts";
 * strictEqual(decodeUtf8(new TextEncoder().encode("é"), "x.txt"), "é");
 * throws(() => decodeUtf8(new Uint8Array([0x0a, 0xff]), "x.txt"), UnreadableFileError); // x.txt: … line 2, byte offset 1
 * ```
 */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return decodeStrictUtf8(bytes);
  } catch (error) {
    const offset = firstInvalidUtf8(bytes);
    let line = 1;
    for (let index = 0; index < offset; index++) if (bytes[index] === 0x0a) line++;
    throw new UnreadableFileError(
      offset < 0 ? "not valid UTF-8" : `not valid UTF-8: line ${line}, byte offset ${offset}`,
      { path, cause: error },
    );
  }
}
