/**
 * The answer provider — the only code that touches the network. One call is one chat completion through the
 * `openai` SDK, loaded on the first call (so only `run-qa` loads it), every setting passed to it explicitly and
 * its own retries off (retry.ts is our policy). The SDK's `fetch` is ours (_capped_fetch.ts): redirects followed
 * within the origin only; the response body read whole through a 4 MiB cap as strict UTF-8, its nesting and
 * values bounded before the SDK parses it, and the bodies of all calls in flight within one budget (_body.ts);
 * the config's timeout covers the whole exchange. A failure comes out as a {@linkcode ProviderError} in our words
 * (chat_completions.ts), the key never in it; a key no header can carry is refused before anything is sent.
 *
 * @module
 */

import { ANSWER_BODY_CAP, visible } from "../../base/mod.ts";
import { CallAbortedError, ProviderError } from "./errors.ts";
import type { ChatMessage, RequestSettings } from "../run/prompt.ts";
import type { Answer } from "../run/answer_rows.ts";
import { answerFromBody, httpFailure, networkCause, serverMessage } from "./chat_completions.ts";
import { redact } from "./redact.ts";
import { cappedFetch, type ErrorBody } from "./_capped_fetch.ts";
import { BodyBudget } from "./_body.ts";
import { apiKeyHeaderProblem } from "./credentials.ts";

/** One attempt at answering: resolves to the answer or throws a {@linkcode ProviderError}. */
export type AnswerProvider = (messages: readonly ChatMessage[], signal?: AbortSignal) => Promise<Answer>;

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
  /** The most bytes of bodies all calls may hold at once (default {@linkcode RESPONSE_BYTES_IN_FLIGHT}). */
  maxBytesInFlight?: number;
}

/** The most bytes of a response body the provider reads: base/read.ts's answer-body cap (4 MiB). */
export const RESPONSE_BODY_LIMIT: number = ANSWER_BODY_CAP;

/**
 * The most bytes of response bodies the provider's calls hold at once: 64 MiB, 16 bodies at the cap; a call whose
 * body passes 64 KiB and does not fit waits (within its timeout) for others to finish. Each body held is copied a
 * few times over (the SDK's text, its parse, the row), so 64 workers stay under 1 GB (bench/hostile_server.ts).
 */
export const RESPONSE_BYTES_IN_FLIGHT: number = 64 * 1024 * 1024;

type Sdk = typeof import("openai");
let sdk: Promise<Sdk> | undefined;

/**
 * An {@linkcode AnswerProvider} for an OpenAI-compatible endpoint: one `chat.completions.create` of `model`,
 * `messages`, `max_tokens`, `stream: false` and `temperature` at the base URL, the key as a bearer token; no
 * retries of its own; the config's timeout over the whole exchange, body included.
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
  const { apiKey, settings, timeoutSeconds } = options;
  const host = URL.parse(options.baseUrl)?.host;
  const budget = new BodyBudget(options.maxBytesInFlight ?? RESPONSE_BYTES_IN_FLIGHT);
  return async (messages, signal) => {
    if (host === undefined) {
      throw cleaned(new ProviderError(`invalid base URL: ${options.baseUrl}`, { retryable: false }), apiKey);
    }
    // The SDK would refuse an empty key naming OPENAI_API_KEY, a variable this program never reads.
    if (apiKey === "") throw new ProviderError("no API key", { retryable: false });
    const keyProblem = apiKeyHeaderProblem(apiKey);
    if (keyProblem !== undefined) throw new ProviderError(`the API key ${keyProblem}`, { retryable: false });
    const loaded = await (sdk ??= import("openai"));
    if (signal?.aborted) throw new CallAbortedError();
    // One controller per attempt: the caller's abort and our timer both end the whole exchange.
    const exchange = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      exchange.abort();
    }, timeoutSeconds * 1000);
    const stop = () => exchange.abort();
    signal?.addEventListener("abort", stop, { once: true });
    let errorBody: ErrorBody = {};
    // Held until the SDK has parsed the body: its copies count against the budget too.
    const held: (() => void)[] = [];
    const fetch = cappedFetch({
      inner: options.fetch ?? globalThis.fetch,
      limit: options.maxResponseBytes ?? RESPONSE_BODY_LIMIT,
      host,
      onErrorBody: (body) => errorBody = body,
      reserve: async (bytes, signal) => void held.push(await budget.reserve(bytes, signal)),
    });
    let completion: unknown;
    try {
      completion = await client(loaded, options, fetch).chat.completions.create({
        model: settings.model,
        messages: messages.map((message) => ({ role: message.role, content: message.content })),
        max_tokens: settings.maxTokens,
        stream: false,
        temperature: settings.temperature,
      }, { signal: exchange.signal });
    } catch (error) {
      // Whatever the failure looked like, an abort decides what it was: the caller's, or our timer's.
      if (signal?.aborted) throw new CallAbortedError();
      if (timedOut) throw timeoutError(timeoutSeconds);
      throw cleaned(inOurWords(loaded, error, { host, errorBody, timeoutSeconds }), apiKey);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
      for (const release of held) release();
    }
    return answerFromBody(completion);
  };
}

/**
 * The SDK's client for one attempt (its fetch reports that attempt's error body), every option given so that no
 * OPENAI_* default applies: no organisation, project, admin key or webhook secret, no logging, no retries. The
 * SDK still looks up OPENAI_CUSTOM_HEADERS; under run-qa's `--ignore-env` that lookup finds nothing.
 */
function client(loaded: Sdk, options: ProviderOptions, fetch: typeof globalThis.fetch) {
  return new loaded.OpenAI({
    apiKey: options.apiKey,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    baseURL: options.baseUrl,
    timeout: options.timeoutSeconds * 1000,
    maxRetries: 0,
    fetch,
    logLevel: "off",
    dangerouslyAllowBrowser: false,
  });
}

function timeoutError(timeoutSeconds: number): ProviderError {
  return new ProviderError(`timed out after ${timeoutSeconds} s`, { retryable: true });
}

/** What the SDK threw, as one of our failures with the classification our retry policy reads. */
function inOurWords(
  loaded: Sdk,
  error: unknown,
  exchange: { host: string; errorBody: ErrorBody; timeoutSeconds: number },
): ProviderError {
  const { host, errorBody } = exchange;
  if (error instanceof ProviderError) return error;
  // Our fetch's own failure, which the SDK wraps as a connection error.
  if (error instanceof Error && error.cause instanceof ProviderError) return error.cause;
  if (error instanceof loaded.APIConnectionTimeoutError) return timeoutError(exchange.timeoutSeconds);
  if (error instanceof loaded.APIError && error.status !== undefined) {
    const detail = errorBody.problem ?? serverMessage(error.error, errorBody.text);
    return httpFailure(error.status, host, detail, error.headers?.get("retry-after") ?? null);
  }
  if (error instanceof loaded.APIConnectionError) {
    return new ProviderError(`cannot reach ${host}: ${networkCause(error.cause ?? error)}`, {
      retryable: true,
      unreachable: true,
    });
  }
  if (error instanceof SyntaxError) {
    return new ProviderError("response is not valid JSON", { retryable: false });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`request to ${host} not sent: ${message}`, { retryable: false });
}

/**
 * The failure's message on one line of at most 240 characters, the key's text redacted (after the whitespace is
 * collapsed, so no split form survives) and every control character in the server's text shown as an escape.
 */
function cleaned(error: ProviderError, secret: string): ProviderError {
  const characters = [...redact(error.message.replace(/\s+/g, " ").trim(), secret)];
  const cut = characters.length > 240 ? `${characters.slice(0, 240).join("")}…` : characters.join("");
  const message = visible(cut);
  if (message === error.message) return error;
  const { retryable, status, retryAfterSeconds } = error;
  return new ProviderError(message, { retryable, status, retryAfterSeconds });
}
