/**
 * The answer provider — the only code that touches the network. One call is one chat completion through the
 * `openai` client (its own retries off, timeout from the config, every response body read through a 4 MiB cap);
 * {@linkcode answerWithRetries} adds our retry policy: retry on 429, 5xx and network errors with a back-off, fail
 * at once on anything else.
 *
 * @module
 */

import type OpenAI from "openai";
import { ProviderError } from "./errors.ts";
import type { ChatMessage, RequestSettings } from "./prompt.ts";
import type { Answer } from "./rows.ts";

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

/**
 * An {@linkcode AnswerProvider} over the `openai` client: base URL and key as given (from the two environment
 * variables the config names), `maxRetries: 0`, the config's timeout, and nothing read from `OPENAI_*`.
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
  // Loaded on first use: the offline commands never pay for the client's start-up time and memory.
  let client: Promise<[typeof OpenAI, OpenAI]> | undefined;
  const connect = async (): Promise<[typeof OpenAI, OpenAI]> => {
    const { default: OpenAIClient } = await import("openai");
    return [
      OpenAIClient,
      new OpenAIClient({
        apiKey: options.apiKey,
        baseURL: options.baseUrl,
        organization: null,
        project: null,
        maxRetries: 0,
        timeout: options.timeoutSeconds * 1000,
        logLevel: "off",
        fetch: cappedFetch(options.fetch ?? fetch, options.maxResponseBytes ?? RESPONSE_BODY_LIMIT),
      }),
    ];
  };
  const { settings } = options;
  return async (messages, signal) => {
    const [OpenAIClient, openai] = await (client ??= connect());
    let body: unknown;
    try {
      body = await openai.chat.completions.create({
        model: settings.model,
        messages: messages.map((message) => ({ role: message.role, content: message.content })),
        max_tokens: settings.maxTokens,
        stream: false,
        temperature: settings.temperature,
      }, { signal });
    } catch (error) {
      throw classify(OpenAIClient, error, options, signal);
    }
    return answerFromBody(body);
  };
}

function classify(
  OpenAIClient: typeof OpenAI,
  error: unknown,
  options: ProviderOptions,
  signal?: AbortSignal,
): Error {
  if (signal?.aborted || error instanceof OpenAIClient.APIUserAbortError) return new CallAbortedError();
  const tooLarge = findCause(error, ResponseTooLargeError);
  if (tooLarge !== undefined) return new ProviderError(tooLarge.message, { retryable: false });
  if (error instanceof OpenAIClient.APIConnectionTimeoutError) {
    return new ProviderError(`timed out after ${options.timeoutSeconds} s`, { retryable: true });
  }
  if (error instanceof OpenAIClient.APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? cause.message : error.message;
    return new ProviderError(`network error: ${shorten(redact(detail, options.apiKey))}`, {
      retryable: true,
    });
  }
  if (error instanceof OpenAIClient.APIError && typeof error.status === "number") {
    const status = error.status;
    const retryAfter = error.headers?.get("retry-after") ?? null;
    return new ProviderError(
      `HTTP ${status}${error.message ? `: ${shorten(redact(error.message, options.apiKey))}` : ""}`,
      { retryable: status === 429 || status >= 500, status, retryAfterSeconds: parseRetryAfter(retryAfter) },
    );
  }
  // Anything else happened after the server answered (e.g. an unreadable body): calling again will not help.
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`malformed response: ${shorten(redact(message, options.apiKey))}`, {
    retryable: false,
  });
}

function findCause<T extends Error>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    if (at instanceof type) return at;
  }
  return undefined;
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
