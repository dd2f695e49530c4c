/**
 * The answer provider — the only code that touches the network. One call is one chat completion: a POST over
 * `fetch` (our own client: the URL and error messages as the `openai` SDK makes them), the config's timeout, the
 * response body read through a 4 MiB cap. {@linkcode answerWithRetries} adds our retry policy: retry on 429, 5xx,
 * network errors and timeouts with a back-off, fail at once on anything else.
 *
 * @module
 */

import denoConfig from "../../deno.json" with { type: "json" };
import { ProviderError } from "../base/errors.ts";
import type { ChatMessage, RequestSettings } from "./prompt.ts";
import type { Answer } from "./answer_rows.ts";

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

/** What {@linkcode redactAnswer} returns: the cleaned answer and the row fields the key was found in. */
export interface RedactedAnswer {
  answer: Answer;
  /** Row field names (`prediction`, `response_model`, `usage`) that held the key; empty when none did. */
  fields: string[];
}

/**
 * Replaces the key's text by `[redacted]` everywhere in an answer before it is stored or printed: the
 * prediction, the model name and the usage field names.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { redactAnswer } from "./provider.ts";
 * const { answer, fields } = redactAnswer({ prediction: "sk-1 is it", responseModel: null, usage: {} }, "sk-1");
 * deepStrictEqual([answer.prediction, fields], ["[redacted] is it", ["prediction"]]);
 * ```
 */
export function redactAnswer(answer: Answer, secret: string): RedactedAnswer {
  if (secret === "") return { answer, fields: [] };
  const fields: string[] = [];
  const prediction = redact(answer.prediction, secret);
  if (prediction !== answer.prediction) fields.push("prediction");
  const responseModel = answer.responseModel === null ? null : redact(answer.responseModel, secret);
  if (responseModel !== answer.responseModel) fields.push("response_model");
  const usage: Record<string, number> = {};
  for (const [key, value] of Object.entries(answer.usage)) usage[redact(key, secret)] = value;
  if (Object.keys(answer.usage).some((key) => key.includes(secret))) fields.push("usage");
  return fields.length === 0 ? { answer, fields } : { answer: { prediction, responseModel, usage }, fields };
}

/** Removes every occurrence of `secret` from `text`, so a server echoing the key cannot leak it into a log. */
export function redact(text: string, secret: string): string {
  return secret === "" ? text : text.split(secret).join("[redacted]");
}

function shorten(text: string, limit = 200): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > limit ? `${oneLine.slice(0, limit)}…` : oneLine;
}

/**
 * The non-secret parts of a chat completion body; a body without a string `choices[0].message.content` is a
 * non-retryable {@linkcode ProviderError}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { answerFromBody } from "./provider.ts";
 * const answer = answerFromBody({
 *   model: "m-0731",
 *   choices: [{ message: { content: "7" } }],
 *   usage: { prompt_tokens: 5, completion_tokens: 1, details: { cached: 0 } },
 * });
 * deepStrictEqual(answer, { prediction: "7", responseModel: "m-0731", usage: { prompt_tokens: 5, completion_tokens: 1 } });
 * ```
 */
export function answerFromBody(body: unknown): Answer {
  const record = (body !== null && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const choices = Array.isArray(record.choices) ? record.choices : [];
  const message = (choices[0] as { message?: { content?: unknown } } | undefined)?.message;
  const content = message?.content;
  if (typeof content !== "string") {
    throw new ProviderError("malformed response: choices[0].message.content is not a string", {
      retryable: false,
    });
  }
  const usage: Record<string, number> = {};
  if (record.usage !== null && typeof record.usage === "object") {
    for (const [key, value] of Object.entries(record.usage as Record<string, unknown>)) {
      // The reference keeps integer counts only; nested detail objects are dropped.
      if (typeof value === "number" && Number.isSafeInteger(value)) usage[key] = value;
    }
  }
  return {
    prediction: content,
    responseModel: typeof record.model === "string" ? record.model : null,
    usage,
  };
}

/** The `User-Agent` of every request: this program and its version. */
export const USER_AGENT: string = `deermem-eval/${denoConfig.version}`;

const CHAT_COMPLETIONS = "/chat/completions";

/**
 * The chat completions URL of a base URL, joined as the `openai` SDK (7.59) joins them: exactly one slash
 * between the base and `chat/completions`, and a query on the base kept after the path (one value per name,
 * strictly percent-encoded; a name given more than once keeps all its values, moved to the end).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { chatCompletionsUrl } from "./provider.ts";
 * deepStrictEqual(
 *   ["https://llm.test/v1", "https://llm.test/v1/", "https://llm.test/v1?api-version=2"].map(chatCompletionsUrl),
 *   [
 *     "https://llm.test/v1/chat/completions",
 *     "https://llm.test/v1/chat/completions",
 *     "https://llm.test/v1/chat/completions?api-version=2",
 *   ],
 * );
 * ```
 */
export function chatCompletionsUrl(baseUrl: string): string {
  const join = (base: string, basePath: string) =>
    new URL(base + (basePath.endsWith("/") ? CHAT_COMPLETIONS.slice(1) : CHAT_COMPLETIONS));
  if (!baseUrl.includes("?")) return join(baseUrl, baseUrl).toString();
  const base = new URL(baseUrl);
  const baseParams = new URLSearchParams(base.search);
  base.search = "";
  base.hash = "";
  const url = join(base.toString(), base.pathname);
  // The SDK goes through an object (one value per name, in property order), then puts repeated names back.
  const query = Object.entries(Object.fromEntries(baseParams));
  if (query.length === 0) return url.toString();
  url.search = query.map(([name, value]) => `${encodeStrictly(name)}=${encodeStrictly(value)}`).join("&");
  const names = [...baseParams.keys()];
  const repeated = new Set(names.filter((name, index) => names.indexOf(name) !== index));
  if (repeated.size > 0) {
    const merged = new URLSearchParams();
    for (const [name, value] of url.searchParams) if (!repeated.has(name)) merged.append(name, value);
    for (const [name, value] of baseParams) if (repeated.has(name)) merged.append(name, value);
    url.search = merged.toString();
  }
  return url.toString();
}

/** RFC 3986 percent-encoding of all but `A–Z a–z 0–9 - . _ ~`, as the SDK's query encoder does. */
function encodeStrictly(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The message of a failed HTTP status as the `openai` SDK (7.59) words it from the error body: the status, then
 * the body's `error.message` (JSON-encoded unless a string), else its `error` or the whole JSON body,
 * JSON-encoded; a body that is not JSON as it is; `status code (no body)` when that leaves nothing.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { httpErrorMessage } from "./provider.ts";
 * deepStrictEqual(
 *   [httpErrorMessage(401, '{"error":{"message":"Incorrect API key"}}'), httpErrorMessage(502, "Bad gateway")],
 *   ["401 Incorrect API key", "502 Bad gateway"],
 * );
 * deepStrictEqual(
 *   [httpErrorMessage(422, '{"detail":"no model"}'), httpErrorMessage(503, "")],
 *   ['422 {"detail":"no model"}', "503 status code (no body)"],
 * );
 * ```
 */
export function httpErrorMessage(status: number, bodyText: string): string {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  // The SDK's rules, to the letter: a body parsing to a falsy value (0, "", false, null) counts as text.
  let error: unknown;
  if (json && typeof json === "object" && (json as { error?: unknown }).error == null) error = json;
  else if (json) error = (json as { error?: unknown }).error;
  const inner = (error as { message?: unknown } | null | undefined)?.message;
  let detail: string | undefined;
  if (inner) detail = typeof inner === "string" ? inner : JSON.stringify(inner);
  else if (error) detail = JSON.stringify(error);
  else if (!json) detail = bodyText;
  return detail ? `${status} ${detail}` : `${status} status code (no body)`;
}

/**
 * An {@linkcode AnswerProvider} for an OpenAI-compatible endpoint, over `fetch`: one POST of `model`, `messages`,
 * `max_tokens`, `stream: false` and `temperature` to {@linkcode chatCompletionsUrl} of the base URL, the key as a
 * bearer token; no retries of its own; the config's timeout over the whole exchange, body included.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { openAiProvider } from "./provider.ts";
 * // A stand-in for the server: the provider takes any fetch (no network here).
 * const server: typeof fetch = () =>
 *   Promise.resolve(Response.json({
 *     id: "c1",
 *     object: "chat.completion",
 *     created: 0,
 *     model: "m-0731",
 *     choices: [{ index: 0, message: { role: "assistant", content: "7" }, finish_reason: "stop" }],
 *     usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
 *   }));
 * const settings = { model: "m", temperature: 0, maxTokens: 5, stream: false };
 * const provider = openAiProvider({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", settings, timeoutSeconds: 5, fetch: server });
 * const answer = await provider([{ role: "user", content: "Q?" }]);
 * deepStrictEqual(answer, {
 *   prediction: "7",
 *   responseModel: "m-0731",
 *   usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
 * });
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

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

/** Our retry policy. */
export interface RetryPolicy {
  /** Attempts in all, the first included (the config's `max_attempts`). */
  maxAttempts: number;
  /** The wait before attempt `n + 1` after `n` failed attempts, in milliseconds. */
  backoffMs?: (failedAttempts: number, retryAfterSeconds?: number) => number;
}

/**
 * The default back-off: 0.5 s, 1 s, 2 s … capped at 8 s; a server's `Retry-After` (up to 30 s) wins.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { defaultBackoffMs } from "./provider.ts";
 * deepStrictEqual([defaultBackoffMs(1), defaultBackoffMs(2), defaultBackoffMs(3, 4)], [500, 1000, 4000]);
 * ```
 */
export function defaultBackoffMs(failedAttempts: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds, 30) * 1000;
  return Math.min(500 * 2 ** (failedAttempts - 1), 8000);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CallAbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CallAbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
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

/**
 * Calls `provider` until it answers, a non-retryable error occurs, or `maxAttempts` are spent. Resolves to the
 * answer and the attempts it took; throws {@linkcode AnswerFailedError} or {@linkcode CallAbortedError}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { answerWithRetries } from "./provider.ts";
 * const provider = () => Promise.resolve({ prediction: "7", responseModel: null, usage: {} });
 * const { attempts } = await answerWithRetries(provider, [], { maxAttempts: 3 });
 * deepStrictEqual(attempts, 1);
 * ```
 */
export async function answerWithRetries(
  provider: AnswerProvider,
  messages: readonly ChatMessage[],
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<{ answer: Answer; attempts: number }> {
  const backoff = policy.backoffMs ?? defaultBackoffMs;
  for (let attempt = 1;; attempt++) {
    if (signal?.aborted) throw new CallAbortedError();
    try {
      return { answer: await provider(messages, signal), attempts: attempt };
    } catch (error) {
      if (error instanceof CallAbortedError) throw error;
      if (!(error instanceof ProviderError)) throw error;
      if (!error.retryable || attempt >= policy.maxAttempts) throw new AnswerFailedError(error, attempt);
      await sleep(backoff(attempt, error.retryAfterSeconds), signal);
    }
  }
}
