/**
 * The answer provider — the only code that touches the network. One call is one chat completion: a POST over
 * `fetch` (our own client: the URL and error messages as the `openai` SDK makes them, chat_completions.ts), the
 * config's timeout, the response body read through a 4 MiB cap. retry.ts adds our retry policy.
 *
 * @module
 */

import denoConfig from "../../deno.json" with { type: "json" };
import { ProviderError } from "../base/errors.ts";
import type { ChatMessage, RequestSettings } from "./prompt.ts";
import type { Answer } from "./answer_rows.ts";
import { answerFromBody, chatCompletionsUrl, httpErrorMessage, parseRetryAfter } from "./chat_completions.ts";
import { redact } from "./redact.ts";

/** One attempt at answering: resolves to the answer or throws a {@linkcode ProviderError}. */
export type AnswerProvider = (messages: readonly ChatMessage[], signal?: AbortSignal) => Promise<Answer>;

/** A call stopped by the caller (Ctrl-C), not a provider failure. */
export class CallAbortedError extends Error {
  constructor() {
    super("interrupted");
    this.name = "CallAbortedError";
  }
}

/** Where and how to call an OpenAI-compatible endpoint. */
export interface ProviderOptions {
  baseUrl: string;
  apiKey: string;
  settings: RequestSettings;
  timeoutSeconds: number;
  /** Substituted for `fetch` (tests). */
  fetch?: typeof fetch;
  /** The most bytes a response body may have (default {@linkcode RESPONSE_BODY_LIMIT}). */
  maxResponseBytes?: number;
}

/** The most bytes of a response body the provider reads: 4 MiB, far above any answer to a short question. */
export const RESPONSE_BODY_LIMIT: number = 4 * 1024 * 1024;

/** A response body went past the cap; the body is cancelled rather than read. */
export class ResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`response too large: more than ${formatBytes(limit)}`);
    this.name = "ResponseTooLargeError";
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Wraps `inner` so that every response body is streamed through a byte count: past `limit` the body errors with
 * {@linkcode ResponseTooLargeError} and the rest is cancelled, so memory stays bounded whatever the server sends.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { cappedFetch, ResponseTooLargeError } from "./provider.ts";
 * const server: typeof fetch = () => Promise.resolve(new Response("x".repeat(10)));
 * strictEqual(await (await cappedFetch(server, 10)("http://127.0.0.1/")).text(), "x".repeat(10));
 * await rejects((await cappedFetch(server, 9)("http://127.0.0.1/")).text(), ResponseTooLargeError);
 * ```
 */
export function cappedFetch(inner: typeof fetch, limit: number): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.body === null) return response;
    const reader = response.body.getReader();
    let total = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        total += value.byteLength;
        if (total > limit) {
          await reader.cancel().catch(() => {});
          return controller.error(new ResponseTooLargeError(limit));
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function shorten(text: string, limit = 200): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > limit ? `${oneLine.slice(0, limit)}…` : oneLine;
}

/** The `User-Agent` of every request: this program and its version. */
export const USER_AGENT: string = `deermem-eval/${denoConfig.version}`;

/**
 * An {@linkcode AnswerProvider} for an OpenAI-compatible endpoint, over `fetch`: one POST of `model`, `messages`,
 * `max_tokens`, `stream: false` and `temperature` to {@linkcode chatCompletionsUrl} of the base URL, the key as a
 * bearer token; no retries of its own; the config's timeout over the whole exchange, body included.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { openAiProvider } from "./provider.ts";
 * const usage = { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 };
 * const completion = { model: "m-0731", choices: [{ index: 0, message: { role: "assistant", content: "7" } }], usage };
 * const server: typeof fetch = () => Promise.resolve(Response.json(completion)); // any fetch: no network here
 * const settings = { model: "m", temperature: 0, maxTokens: 5, stream: false };
 * const provider = openAiProvider({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", settings, timeoutSeconds: 5, fetch: server });
 * deepStrictEqual(await provider([{ role: "user", content: "Q?" }]), { prediction: "7", responseModel: "m-0731", usage });
 * ```
 */
export function openAiProvider(options: ProviderOptions): AnswerProvider {
  const send = cappedFetch(options.fetch ?? fetch, options.maxResponseBytes ?? RESPONSE_BODY_LIMIT);
  const { apiKey, settings, timeoutSeconds } = options;
  const headers = {
    "Accept": "application/json",
    "Authorization": `Bearer ${apiKey}`,
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
  };
  return async (messages, signal) => {
    if (signal?.aborted) throw new CallAbortedError();
    const body = JSON.stringify({
      model: settings.model,
      messages: messages.map((message) => ({ role: message.role, content: message.content })),
      max_tokens: settings.maxTokens,
      stream: false,
      temperature: settings.temperature,
    });
    const exchange = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      exchange.abort();
    }, timeoutSeconds * 1000);
    const stop = () => exchange.abort();
    signal?.addEventListener("abort", stop, { once: true });
    let completion: unknown;
    try {
      completion = await post(send, options.baseUrl, {
        method: "POST",
        headers,
        body,
        signal: exchange.signal,
      }, apiKey);
    } catch (error) {
      // Whatever the failure looked like, an abort decides what it was: the caller's, or our timer's.
      if (signal?.aborted) throw new CallAbortedError();
      if (timedOut) throw new ProviderError(`timed out after ${timeoutSeconds} s`, { retryable: true });
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    }
    return answerFromBody(completion);
  };
}

/** One POST and its whole body: a 2xx's JSON (or text, if not typed JSON), else a {@linkcode ProviderError}. */
async function post(
  send: typeof fetch,
  baseUrl: string,
  request: RequestInit,
  apiKey: string,
): Promise<unknown> {
  const clean = (text: string) => shorten(redact(text, apiKey));
  let url: string;
  try {
    url = chatCompletionsUrl(baseUrl);
  } catch (error) {
    throw new ProviderError(`invalid base URL: ${clean(messageOf(error))}`, { retryable: false });
  }
  let response: Response;
  try {
    response = await send(url, request);
  } catch (error) {
    throw new ProviderError(`network error: ${clean(messageOf(error))}`, { retryable: true });
  }
  const text = await readText(response);
  if (!response.ok) {
    // As the SDK did: an error body that cannot be read is described by the reason it could not.
    const message = httpErrorMessage(response.status, typeof text === "string" ? text : text.message);
    const status = response.status;
    throw new ProviderError(`HTTP ${status}: ${clean(message)}`, {
      retryable: status === 429 || status >= 500,
      status,
      retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
    });
  }
  if (text instanceof ResponseTooLargeError) throw new ProviderError(text.message, { retryable: false });
  if (text instanceof NotUtf8Error) {
    throw new ProviderError(`malformed response: ${text.message}`, { retryable: false });
  }
  // The connection broke while the body came: calling again may help.
  if (text instanceof Error) {
    throw new ProviderError(`network error: ${clean(text.message)}`, { retryable: true });
  }
  const mediaType = response.headers.get("content-type")?.split(";")[0].trim().toLowerCase() ?? "";
  // A body not typed as JSON is passed on as text, which is no chat completion (answerFromBody says so).
  if (!mediaType.includes("application/json") && !mediaType.endsWith("+json")) return text;
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProviderError(`malformed response: ${clean(messageOf(error))}`, { retryable: false });
  }
}

/** A body that is not UTF-8: refused, never decoded with replacement characters. */
class NotUtf8Error extends Error {
  constructor() {
    super("the body is not valid UTF-8");
    this.name = "NotUtf8Error";
  }
}

/** The whole body as text, or why it could not be had (the cap, a broken connection, an abort, not UTF-8). */
async function readText(response: Response): Promise<string | Error> {
  let bytes: ArrayBuffer;
  try {
    bytes = await response.arrayBuffer();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new NotUtf8Error();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A failure after our retry policy gave up, with the number of attempts made. */
export class AnswerFailedError extends Error {
  readonly attempts: number;
  constructor(cause: ProviderError, attempts: number) {
    super(`${cause.message} (${attempts} attempt${attempts === 1 ? "" : "s"})`, { cause });
    this.name = "AnswerFailedError";
    this.attempts = attempts;
  }
}
