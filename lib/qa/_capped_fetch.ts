/**
 * The `fetch` the provider hands the `openai` SDK: it performs the request, reads the whole response body
 * through the cap as strict UTF-8 under the request's abort signal, and gives the SDK a fresh `Response` of
 * those bytes — so the cap, the encoding check and the timeout cover the body, and the SDK parses the rest.
 *
 * @module
 */

import { ProviderError, ResponseTooLargeError } from "../base/errors.ts";
import { decodeStrictUtf8, firstInvalidUtf8 } from "../base/utf8.ts";
import { networkCause } from "./chat_completions.ts";

/** What one exchange's fetch saw of an error status's body, for the failure's message. */
export interface ErrorBody {
  /** The body as text, when it could be read. */
  text?: string;
  /** Why it could not be (too large, not UTF-8, the connection lost). */
  problem?: string;
}

/** Where a {@linkcode cappedFetch} sends and what it reports. */
export interface CappedFetchOptions {
  /** The fetch that performs the request. */
  inner: typeof fetch;
  /** The most bytes a body may have. */
  limit: number;
  /** The endpoint's host, for messages. */
  host: string;
  /** Told the body of a non-2xx response, which the SDK turns into its error. */
  onErrorBody: (body: ErrorBody) => void;
}

/**
 * A fetch whose responses are read whole before the SDK sees them. A 2xx whose body is too large, not UTF-8 or
 * cut off fails as a {@linkcode ProviderError}; a non-2xx is passed on (its body, or why it has none, told to
 * `onErrorBody`); a request that cannot be sent is a retryable "cannot reach". An abort is rethrown as it is.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { cappedFetch } from "./_capped_fetch.ts";
 * const inner: typeof fetch = () => Promise.resolve(new Response("x".repeat(10)));
 * const options = { inner, host: "llm.test", onErrorBody: () => {} };
 * strictEqual(await (await cappedFetch({ ...options, limit: 10 })("http://llm.test/")).text(), "x".repeat(10));
 * await rejects(cappedFetch({ ...options, limit: 9 })("http://llm.test/"), /^ProviderError: response too large/);
 * ```
 */
export function cappedFetch(options: CappedFetchOptions): typeof fetch {
  const { inner, limit, host } = options;
  return async (input, init) => {
    const signal = init?.signal ?? undefined;
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ProviderError(`cannot reach ${host}: ${networkCause(error)}`, {
        retryable: true,
        unreachable: true,
      });
    }
    const body = await readBody(response, limit, signal);
    if (!response.ok) {
      // readBody has already refused bytes that are not UTF-8.
      options.onErrorBody(body instanceof Uint8Array ? { text: decodeStrictUtf8(body) } : body);
      return fresh(response, body instanceof Uint8Array ? body : null);
    }
    if (body instanceof Uint8Array) return fresh(response, body);
    throw new ProviderError(body.problem, { retryable: body.retryable });
  };
}

/** A copy of `response` with `bytes` as its body (none where the status allows none). */
function fresh(response: Response, bytes: Uint8Array | null): Response {
  const bodyless = [101, 204, 205, 304].includes(response.status);
  return new Response(bodyless ? null : bytes as Uint8Array<ArrayBuffer> | null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The whole body, or why there is none: past `limit` the body is cancelled rather than read; bytes that are not
 * UTF-8 are refused (never decoded with replacement characters); a body the connection cut off may come whole on
 * another attempt. An abort of `signal` stops the read and is rethrown.
 */
async function readBody(
  response: Response,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<Uint8Array | { problem: string; retryable: boolean }> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  // A cancelled read ends as if the body were done; the signal's state tells it apart.
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        return { problem: new ResponseTooLargeError(limit).message, retryable: false };
      }
      chunks.push(value);
    }
  } catch (error) {
    signal?.throwIfAborted();
    return { problem: `response cut off: ${networkCause(error)}`, retryable: true };
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  if (firstInvalidUtf8(bytes) !== -1) return { problem: "response is not valid UTF-8", retryable: false };
  return bytes;
}
