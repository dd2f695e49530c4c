/**
 * SHA-256 as lowercase hex or bytes. The one place that hashes, and only through WebCrypto (`crypto.subtle`),
 * which Deno runs off the main thread: a large file (the 15 MB dataset) is hashed while the main thread decodes
 * and parses it (see `loadDataset`). No Node-compatibility module is loaded.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * SHA-256 of bytes or of a string's UTF-8 encoding, as 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sha256Hex } from "./hash.ts";
 * strictEqual(await sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * strictEqual(await sha256Hex(new TextEncoder().encode("abc")), await sha256Hex("abc"));
 * ```
 */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  return toHex(await sha256Bytes(data));
}

/**
 * SHA-256 digest bytes of bytes or of a string's UTF-8 encoding.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sha256Bytes } from "./hash.ts";
 * deepStrictEqual([...(await sha256Bytes("abc")).subarray(0, 4)], [0xba, 0x78, 0x16, 0xbf]);
 * ```
 */
export async function sha256Bytes(data: Uint8Array | string): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/**
 * Lowercase hex of bytes.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { toHex } from "./hash.ts";
 * deepStrictEqual(toHex(new Uint8Array([0, 255])), "00ff");
 * ```
 */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte];
  return out;
}

/**
 * The 32-bit FNV-1a hash of a string's UTF-16 code units (not cryptographic: the selector's duplicate-id check
 * sorts these).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { fnv1a } from "./hash.ts";
 * strictEqual(fnv1a("a"), 3826002220);
 * ```
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return hash >>> 0;
}
