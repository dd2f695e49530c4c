/**
 * SHA-256 as lowercase hex. The one place that hashes. Small inputs (contracts, case ids, request payloads) go
 * through a synchronous FIPS 180-4 implementation, so everything pure above them stays synchronous; a large file
 * (the 15 MB dataset) goes through WebCrypto (`crypto.subtle`), which Deno runs off the main thread while the main
 * thread decodes and parses it (see `loadDataset`). No Node-compatibility module is loaded.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * SHA-256 of bytes or of a string's UTF-8 encoding, as 64 lowercase hex digits (synchronous; for small inputs).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sha256Hex } from "./hash.ts";
 * deepStrictEqual(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * ```
 */
export function sha256Hex(data: Uint8Array | string): string {
  return toHex(sha256Bytes(data));
}

/**
 * SHA-256 digest bytes of bytes or of a string's UTF-8 encoding (synchronous; for small inputs).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sha256Bytes } from "./hash.ts";
 * deepStrictEqual((sha256Bytes("abc")).length, 32);
 * ```
 */
export function sha256Bytes(data: Uint8Array | string): Uint8Array {
  return sha256(typeof data === "string" ? encoder.encode(data) : data);
}

/**
 * SHA-256 of a large byte array through WebCrypto, which hashes off the main thread, as 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sha256Hex, sha256HexAsync } from "./hash.ts";
 * const bytes = new TextEncoder().encode("abc");
 * strictEqual(await sha256HexAsync(bytes), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * strictEqual(await sha256HexAsync(bytes), sha256Hex(bytes));
 * ```
 */
export async function sha256HexAsync(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
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

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

// §5.3.3: the initial hash value.
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const schedule = new Uint32Array(64);

/** FIPS 180-4 SHA-256 of `message`: padding (§5.1.1), then the compression function (§6.2.2) per block. */
function sha256(message: Uint8Array): Uint8Array {
  const length = message.length;
  // The message, a 1 bit, zeros, and the 64-bit bit length, in whole 64-byte blocks.
  const padded = new Uint8Array(((length + 8) >>> 6) * 64 + 64);
  padded.set(message);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  let [h0, h1, h2, h3, h4, h5, h6, h7] = H0;
  const w = schedule;
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15];
      const y = w[t - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let t = 0; t < 64; t++) {
      const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const choose = (e & f) ^ (~e & g);
      const t1 = (h + sum1 + choose + K[t] + w[t]) | 0;
      const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (sum0 + majority) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  [h0, h1, h2, h3, h4, h5, h6, h7].forEach((word, index) => out.setUint32(index * 4, word >>> 0));
  return digest;
}
