/**
 * SHA-256 through WebCrypto, as lowercase hex. The one place that hashes, so a move to `@std/crypto`
 * is a one-line change.
 *
 * @module
 */

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
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return toHex(new Uint8Array(digest));
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
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(data)));
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
