/**
 * SHA-256 as lowercase hex. The one place that hashes. It uses WebCrypto (`crypto.subtle`), which Deno runs off
 * the main thread: no Node-compatibility module is loaded, and the 15 MB dataset is hashed while the main thread
 * decodes and parses it (see `loadDataset`).
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * SHA-256 of bytes or of a string's UTF-8 encoding, as 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sha256Hex } from "./hash.ts";
 * deepStrictEqual(await sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * ```
 */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  return toHex(await sha256Digest(data));
}

/**
 * SHA-256 digest bytes of a string's UTF-8 encoding.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sha256Bytes } from "./hash.ts";
 * deepStrictEqual((await sha256Bytes("abc")).length, 32);
 * ```
 */
export async function sha256Bytes(data: string): Promise<Uint8Array> {
  return await sha256Digest(data);
}

async function sha256Digest(data: Uint8Array | string): Promise<Uint8Array> {
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
