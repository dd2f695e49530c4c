/**
 * SHA-256 as lowercase hex. The one place that hashes, so a move to `@std/crypto` is a one-line change. It uses
 * the runtime's built-in `node:crypto` hash: native and synchronous, it hashes the 15 MB dataset faster than
 * WebCrypto without copying it first, and small inputs (offsets, fingerprints) without a thread hop.
 *
 * @module
 */

import { createHash } from "node:crypto";

const encoder = new TextEncoder();

/**
 * SHA-256 of bytes or of a string's UTF-8 encoding, as 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./hash.ts";
 * console.log(await sha256Hex("abc")); // "ba7816bf…15ad"
 * ```
 */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  return await Promise.resolve(createHash("sha256").update(data).digest("hex"));
}

/**
 * SHA-256 digest bytes of a string's UTF-8 encoding.
 *
 * @example
 * ```ts
 * import { sha256Bytes } from "./hash.ts";
 * console.log((await sha256Bytes("abc")).length); // 32
 * ```
 */
export async function sha256Bytes(data: string): Promise<Uint8Array> {
  return await Promise.resolve(new Uint8Array(createHash("sha256").update(encoder.encode(data)).digest()));
}

/**
 * Lowercase hex of bytes.
 *
 * @example
 * ```ts
 * import { toHex } from "./hash.ts";
 * console.log(toHex(new Uint8Array([0, 255]))); // "00ff"
 * ```
 */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}
