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
 * Whether `text` begins with a byte-order mark (each format's reader decides what that means).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { startsWithBom } from "./utf8.ts";
 * strictEqual(startsWithBom("\ufeff{}"), true);
 * strictEqual(startsWithBom("{}"), false);
 * ```
 */
export function startsWithBom(text: string): boolean {
  return text.startsWith(BOM);
}

const searching = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * Decodes bytes only to search them (a child's stderr for why it ended): invalid UTF-8 becomes U+FFFD, so the
 * text must never be printed or stored.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { decodeForSearch } from "./utf8.ts";
 * strictEqual(decodeForSearch(new Uint8Array([0x61, 0xff])).startsWith("a"), true);
 * ```
 */
export function decodeForSearch(bytes: Uint8Array): string {
  return searching.decode(bytes);
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
 * The length of a string as UTF-8, in bytes, without encoding it (a lone surrogate counts as the 3 bytes of
 * U+FFFD, as `TextEncoder` writes it).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { utf8Length } from "./utf8.ts";
 * deepStrictEqual(utf8Length("aé€😀"), 1 + 2 + 3 + 4);
 * ```
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) index++; // a pair: 4 bytes for its 2 units
      bytes += 2;
    } else bytes += 2;
  }
  return bytes;
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
    throw new UnreadableFileError(invalidUtf8Text(bytes), { path, cause: error });
  }
}

/**
 * What is wrong with bytes that are not UTF-8, for a message: `not valid UTF-8: line L, byte offset N` (the
 * first invalid sequence), or `not valid UTF-8` when none is found.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { invalidUtf8Text } from "./utf8.ts";
 * strictEqual(invalidUtf8Text(new Uint8Array([0x61, 0x0a, 0xff])), "not valid UTF-8: line 2, byte offset 2");
 * ```
 */
export function invalidUtf8Text(bytes: Uint8Array): string {
  const offset = firstInvalidUtf8(bytes);
  if (offset < 0) return "not valid UTF-8";
  let line = 1;
  for (let index = 0; index < offset; index++) if (bytes[index] === 0x0a) line++;
  return `not valid UTF-8: line ${line}, byte offset ${offset}`;
}
