/**
 * A response body read within bounds: at most the limit, decoded bytes counted as they arrive, no more room
 * held than the body needs, and the bytes of all bodies in flight shared out by a {@linkcode BodyBudget}.
 *
 * @module
 */

import { firstInvalidUtf8 } from "../../base/mod.ts";
import { ResponseTooLargeError } from "./errors.ts";
import { networkCause } from "./chat_completions.ts";

/**
 * The content coding a request accepts. Deno's fetch decodes gzip in 4 KiB chunks, which the cap counts as they
 * arrive; brotli it would decode into a window of up to 16 MiB per call before a byte could be counted, so it is
 * not asked for, and a body in any coding but gzip is refused unread.
 */
export const ACCEPT_ENCODING = "gzip";

/** The bytes a body may have before its call must reserve room for it: a body that trickles never waits. */
export const UNRESERVED_BODY_BYTES: number = 64 * 1024;

/** Why a body was not read whole, and whether another attempt may read it. */
export interface BodyProblem {
  problem: string;
  retryable: boolean;
}

/** How {@linkcode readBody} reads. */
export interface ReadBodyOptions {
  /** The most bytes the body may have, decoded. */
  limit: number;
  /** Stops the read; its abort is rethrown. */
  signal?: AbortSignal;
  /** Waits until a body past {@linkcode UNRESERVED_BODY_BYTES} may be held whole (its size, else the limit). */
  reserve?: (bytes: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The whole body, or why there is none: past `limit` the body is cancelled rather than read; a coding not asked
 * for is refused unread; bytes that are not UTF-8 are refused (never decoded with replacement characters); a
 * body the connection cut off may come whole on another attempt. An abort of `signal` stops the read and is
 * rethrown.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { readBody } from "./_body.ts";
 * deepStrictEqual(await readBody(new Response("{}"), { limit: 2 }), new TextEncoder().encode("{}"));
 * deepStrictEqual(await readBody(new Response("{ }"), { limit: 2 }), { problem: "response too large (over 2 bytes)", retryable: false });
 * ```
 */
export async function readBody(
  response: Response,
  options: ReadBodyOptions,
): Promise<Uint8Array | BodyProblem> {
  const { limit, signal } = options;
  if (response.body === null) return new Uint8Array();
  const coding = response.headers.get("content-encoding")?.trim().toLowerCase() ?? "identity";
  if (coding !== "identity" && coding !== ACCEPT_ENCODING) {
    await response.body.cancel().catch(() => {});
    return {
      problem: `response is compressed as ${coding.slice(0, 40)}, which was not asked for`,
      retryable: false,
    };
  }
  const reader = response.body.getReader();
  // A cancelled read ends as if the body were done; the signal's state tells it apart.
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  const body = new BodyBuffer(limit, declaredSize(response.headers));
  let reserved = options.reserve === undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      if (!reserved && body.size + value.byteLength > UNRESERVED_BODY_BYTES) {
        await options.reserve!(Math.min(declaredSize(response.headers) ?? limit, limit), signal);
        reserved = true;
      }
      if (!body.append(value)) {
        await reader.cancel().catch(() => {});
        return { problem: new ResponseTooLargeError(limit).message, retryable: false };
      }
    }
  } catch (error) {
    signal?.throwIfAborted();
    return { problem: `response cut off: ${networkCause(error)}`, retryable: true };
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  const bytes = body.bytes();
  if (firstInvalidUtf8(bytes) !== -1) return { problem: "response is not valid UTF-8", retryable: false };
  return bytes;
}

/** The body's size as `content-length` declares it, when that is its decoded size (no `content-encoding`). */
function declaredSize(headers: Headers): number | undefined {
  const declared = Number(headers.get("content-length") ?? NaN);
  const exact = headers.get("content-encoding") === null && Number.isSafeInteger(declared) && declared >= 0;
  return exact ? declared : undefined;
}

/**
 * A body's bytes, copied in as they arrive so that no chunk outlives its read (a decoded gzip chunk is a 4 KiB
 * view of a 64 KiB buffer), grown as they come — to the declared size when there is one — never past the limit.
 */
class BodyBuffer {
  #buffer: Uint8Array;
  #size = 0;

  constructor(readonly limit: number, readonly declared: number | undefined) {
    this.#buffer = new Uint8Array(Math.min(declared ?? UNRESERVED_BODY_BYTES, UNRESERVED_BODY_BYTES, limit));
  }

  /** How many bytes have been received. */
  get size(): number {
    return this.#size;
  }

  /** Adds `chunk`; false when the body would pass the limit (nothing is added then). */
  append(chunk: Uint8Array): boolean {
    const size = this.#size + chunk.byteLength;
    if (size > this.limit) return false;
    if (size > this.#buffer.byteLength) {
      const target = this.declared !== undefined && this.declared >= size
        ? this.declared
        : Math.max(size, 2 * this.#buffer.byteLength);
      const grown = new Uint8Array(Math.min(this.limit, target));
      grown.set(this.#buffer.subarray(0, this.#size));
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.#size);
    this.#size = size;
    return true;
  }

  /** The bytes received, in a buffer of their own size. */
  bytes(): Uint8Array {
    return this.#size === this.#buffer.byteLength ? this.#buffer : this.#buffer.slice(0, this.#size);
  }
}

/**
 * The bytes of response bodies that the calls of one provider may hold at once, shared between them: a call
 * whose body passes {@linkcode UNRESERVED_BODY_BYTES} reserves the body's whole size (or the limit) and releases
 * it when its answer is parsed, so that 64 workers receiving 4 MiB bodies hold the budget, not 64 × 4 MiB several
 * times over. A call waits for room holding none, so no two calls wait on each other; waiting calls are served
 * in arrival order, and an abort (the call's timeout) ends the wait.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { BodyBudget } from "./_body.ts";
 * const budget = new BodyBudget(10);
 * const granted: string[] = [];
 * const releaseFirst = await budget.reserve(8);
 * const second = budget.reserve(5).then((release) => {
 *   granted.push("second");
 *   return release;
 * });
 * granted.push("first released");
 * releaseFirst();
 * (await second)();
 * deepStrictEqual(granted, ["first released", "second"]);
 * ```
 */
export class BodyBudget {
  #free: number;
  #waiting: { bytes: number; grant: () => void }[] = [];

  constructor(readonly total: number) {
    this.#free = total;
  }

  /** Resolves to the release once `bytes` (at most the total) are free; rejects with the signal's reason. */
  reserve(bytes: number, signal?: AbortSignal): Promise<() => void> {
    const wanted = Math.min(bytes, this.total);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        reject(signal!.reason);
        this.#grant();
      };
      const waiter = {
        bytes: wanted,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#free += wanted;
            this.#grant();
          });
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#grant();
    });
  }

  #grant(): void {
    while (this.#waiting.length > 0 && this.#waiting[0].bytes <= this.#free) {
      const waiter = this.#waiting.shift()!;
      this.#free -= waiter.bytes;
      waiter.grant();
    }
  }
}
