/**
 * The `fetch` the provider hands the `openai` SDK: it performs the request (following redirects itself, within
 * the origin only), reads the whole response body through the cap as strict UTF-8 under the request's abort
 * signal (_body.ts), checks its JSON nesting and size before anything parses it, and gives the SDK a fresh
 * `Response` of those bytes — so the cap, the encoding check and the timeout cover the body, and the SDK parses
 * the rest.
 *
 * @module
 */

import { decodeStrictUtf8 } from "../../base/mod.ts";
import { ProviderError } from "./errors.ts";
import { networkCause } from "./chat_completions.ts";
import { ACCEPT_ENCODING, readBody, type ReadBodyOptions } from "./_body.ts";

/** The deepest nesting of arrays and objects a body may have (Python's `json.loads` fails near it). */
export const RESPONSE_DEPTH_LIMIT = 1000;
/** The most JSON values a body may hold: an answer holds a dozen; parsing a million costs ~100 MB. */
export const RESPONSE_VALUE_LIMIT = 100_000;
/** The most redirects followed for one request (httpx's and fetch's bound). */
export const REDIRECT_LIMIT = 20;

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
  /** Waits until a large body may be held whole: a reservation of the provider's body budget (_body.ts). */
  reserve?: ReadBodyOptions["reserve"];
}

/**
 * A fetch whose responses are read whole before the SDK sees them. A 2xx whose body is too large, not UTF-8,
 * nested deeper than {@linkcode RESPONSE_DEPTH_LIMIT}, holding more than {@linkcode RESPONSE_VALUE_LIMIT} JSON
 * values or cut off fails as a {@linkcode ProviderError}; a non-2xx is passed on (its body, or why it has none,
 * told to `onErrorBody`); a request that cannot be sent is a retryable "cannot reach"; a redirect to another
 * origin fails, one within it is followed. An abort is rethrown as it is.
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
      response = await followWithinOrigin(inner, input, init ?? {});
    } catch (error) {
      if (signal?.aborted || error instanceof ProviderError) throw error;
      throw new ProviderError(`cannot reach ${host}: ${networkCause(error)}`, {
        retryable: true,
        unreachable: true,
      });
    }
    const read = await readBody(response, { limit, signal, reserve: options.reserve });
    // The SDK parses an error body as JSON too, whatever its type: both are checked before it does.
    const body = read instanceof Uint8Array ? jsonShapeProblem(read) ?? read : read;
    if (!response.ok) {
      // readBody has already refused bytes that are not UTF-8.
      options.onErrorBody(body instanceof Uint8Array ? { text: decodeStrictUtf8(body) } : body);
      return fresh(response, body instanceof Uint8Array ? body : null);
    }
    if (body instanceof Uint8Array) return fresh(response, body);
    throw new ProviderError(body.problem, { retryable: body.retryable });
  };
}

const REDIRECTS = [301, 302, 303, 307, 308];
/** The headers that describe a request's body, dropped with it when a redirect turns a POST into a GET. */
const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
];

/**
 * `inner` with redirects followed by hand, as fetch and httpx follow them (307 and 308 keep the method and body,
 * 301 and 302 turn a POST into a GET, 303 anything), but only within the request's origin and at most
 * {@linkcode REDIRECT_LIMIT} times: the prompt is never sent to a host the base URL does not name.
 */
async function followWithinOrigin(inner: typeof fetch, input: RequestInfo | URL, init: RequestInit) {
  let url = new URL(input instanceof Request ? input.url : input);
  let request: RequestInit = init;
  for (let hops = 0;; hops++) {
    const headers = new Headers(request.headers);
    headers.set("accept-encoding", ACCEPT_ENCODING);
    const response = await inner(hops === 0 ? input : url.href, { ...request, headers, redirect: "manual" });
    const location = response.headers.get("location");
    if (!REDIRECTS.includes(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => {});
    const target = URL.parse(location, url);
    if (target === null || target.origin !== url.origin) {
      const where = target === null ? "a location that is not a URL" : `another host (${target.origin})`;
      throw new ProviderError(`redirected to ${where}`, { retryable: false });
    }
    if (hops === REDIRECT_LIMIT) {
      throw new ProviderError(`too many redirects (over ${REDIRECT_LIMIT})`, { retryable: false });
    }
    const method = (request.method ?? "GET").toUpperCase();
    const toGet = response.status === 303 ? method !== "HEAD" : response.status <= 302 && method === "POST";
    if (toGet) {
      const headers = new Headers(request.headers);
      for (const name of BODY_HEADERS) headers.delete(name);
      request = { ...request, method: "GET", body: null, headers };
    }
    url = target;
  }
}

/**
 * Why `bytes` may not be handed to a JSON parser, if they may not: nested deeper than
 * {@linkcode RESPONSE_DEPTH_LIMIT}, or more than {@linkcode RESPONSE_VALUE_LIMIT} values (an object's member
 * counted once). One pass over the bytes, strings skipped, before any parse allocates.
 */
function jsonShapeProblem(bytes: Uint8Array): { problem: string; retryable: false } | undefined {
  let depth = 0;
  let values = 1;
  let inString = false;
  let opened = false;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (inString) {
      if (byte === 0x5c) at++;
      else if (byte === 0x22) inString = false;
      continue;
    }
    if (opened && byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) {
      // A container's first element, unless it is empty.
      opened = false;
      if (byte !== 0x5d && byte !== 0x7d) values++;
    }
    if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      opened = true;
      if (++depth > RESPONSE_DEPTH_LIMIT) {
        return { problem: `response nests deeper than ${RESPONSE_DEPTH_LIMIT}`, retryable: false };
      }
    } else if (byte === 0x5d || byte === 0x7d) depth--;
    else if (byte === 0x2c) values++;
    if (values > RESPONSE_VALUE_LIMIT) {
      return { problem: `response holds more than ${RESPONSE_VALUE_LIMIT} JSON values`, retryable: false };
    }
  }
  return undefined;
}

/**
 * A copy of `response` with `bytes` as its body (none where the status allows none), as a stream of that one
 * chunk: a `Response` made from bytes copies them, 4 MiB more per call in flight. The bytes are decoded, so the
 * headers that describe the bytes sent go.
 */
function fresh(response: Response, bytes: Uint8Array | null): Response {
  const bodyless = [101, 204, 205, 304].includes(response.status);
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  const body = bodyless || bytes === null ? null : new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
