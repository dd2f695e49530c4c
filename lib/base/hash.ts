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

/** The block a content digest hashes at a time: a file of any size is hashed in this much memory. */
const DIGEST_BLOCK = 1 << 20;

/**
 * A file's content digest, fed in pieces of any size: the SHA-256 of the SHA-256 of each successive MiB (the
 * publish journal's binding of a file to what was written; WebCrypto hashes one buffer at a time).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ContentDigest, sha256Bytes, sha256Hex } from "./hash.ts";
 * const whole = new ContentDigest();
 * await whole.update(new TextEncoder().encode("abc"));
 * const pieces = new ContentDigest();
 * for (const piece of ["a", "bc"]) await pieces.update(new TextEncoder().encode(piece));
 * strictEqual(await whole.hex(), await pieces.hex());
 * strictEqual(await whole.hex(), await sha256Hex(await sha256Bytes("abc")));
 * ```
 */
export class ContentDigest {
  #block = new Uint8Array(DIGEST_BLOCK);
  #filled = 0;
  #digests: Uint8Array[] = [];

  /** Takes the next bytes of the content. */
  async update(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length;) {
      const taken = Math.min(bytes.length - at, DIGEST_BLOCK - this.#filled);
      this.#block.set(bytes.subarray(at, at + taken), this.#filled);
      this.#filled += taken;
      at += taken;
      if (this.#filled === DIGEST_BLOCK) await this.#flush();
    }
  }

  async #flush(): Promise<void> {
    this.#digests.push(await sha256Bytes(this.#block.subarray(0, this.#filled)));
    this.#filled = 0;
  }

  /** The digest of everything taken, as 64 lowercase hex digits. */
  async hex(): Promise<string> {
    if (this.#filled > 0) await this.#flush();
    const joined = new Uint8Array(this.#digests.length * 32);
    this.#digests.forEach((digest, index) => joined.set(digest, index * 32));
    return await sha256Hex(joined);
  }
}
