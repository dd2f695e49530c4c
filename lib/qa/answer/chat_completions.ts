/**
 * A chat completion exchange in our words: the answer in a response body, and each failure as one line naming
 * the status, the host and the cause. The `openai` SDK sends the request and parses the JSON; this module
 * only reads what it gives back.
 *
 * @module
 */

import { ProviderError } from "./errors.ts";
import type { Answer } from "../run/answer_rows.ts";

/** Usage counts at or above this (or below 0) are not a call's. */
const USAGE_BOUND = 1e12;

/**
 * The non-secret parts of a chat completion body; a body without a string `choices[0].message.content` is a
 * non-retryable {@linkcode ProviderError}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { answerFromBody } from "./chat_completions.ts";
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
    throw new ProviderError("response has no choices[0].message.content", { retryable: false });
  }
  const usage: Record<string, number> = {};
  if (record.usage !== null && typeof record.usage === "object") {
    for (const [key, value] of Object.entries(record.usage as Record<string, unknown>)) {
      // The reference keeps integer counts only; nested detail objects are dropped.
      if (typeof value !== "number" || !Number.isInteger(value)) continue;
      // A count no call can have is bad server output: the row fails rather than be priced or summed.
      if (value < 0 || value >= USAGE_BOUND) {
        throw new ProviderError(
          `the server reported usage.${key} = ${value}, outside 0 to 10^12: bad server output, not stored`,
          { retryable: false },
        );
      }
      usage[key] = value;
    }
  }
  return {
    prediction: content,
    responseModel: typeof record.model === "string" ? record.model : null,
    usage,
  };
}

/**
 * A failed HTTP status as a {@linkcode ProviderError}: `HTTP <status> from <host>`, then the server's message
 * when there is one. 429 and 5xx are retryable (after the server's `Retry-After`, when it is a number of
 * seconds); any other status is not.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { httpFailure } from "./chat_completions.ts";
 * const error = httpFailure(429, "llm.test", "slow down", "2");
 * deepStrictEqual([error.message, error.retryable, error.status, error.retryAfterSeconds], [
 *   "HTTP 429 from llm.test: slow down", true, 429, 2,
 * ]);
 * deepStrictEqual([httpFailure(401, "llm.test", undefined, null).message], ["HTTP 401 from llm.test"]);
 * ```
 */
export function httpFailure(
  status: number,
  host: string,
  detail: string | undefined,
  retryAfter: string | null,
): ProviderError {
  return new ProviderError(
    detail ? `HTTP ${status} from ${host}: ${detail}` : `HTTP ${status} from ${host}`,
    {
      retryable: status === 429 || status >= 500,
      status,
      retryAfterSeconds: parseRetryAfter(retryAfter),
    },
  );
}

/**
 * The server's message in an error body: the `error.message` string of an OpenAI-style body (or its `error`
 * string), else the JSON the SDK parsed, else the body's text; `undefined` when the body is empty.
 *
 * @param parsed The SDK's parse of the body (`APIError.error`: the body's `error`, or the whole body).
 * @param text The body as received, when it was read.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { serverMessage } from "./chat_completions.ts";
 * deepStrictEqual(
 *   [serverMessage({ message: "Incorrect API key provided" }), serverMessage({ detail: "x" }), serverMessage(undefined, "Bad gateway")],
 *   ["Incorrect API key provided", '{"detail":"x"}', "Bad gateway"],
 * );
 * ```
 */
export function serverMessage(parsed: unknown, text?: string): string | undefined {
  if (typeof parsed === "string" && parsed !== "") return parsed;
  if (parsed !== null && typeof parsed === "object") {
    const message = (parsed as { message?: unknown }).message;
    return typeof message === "string" && message !== "" ? message : JSON.stringify(parsed);
  }
  return text?.trim() === "" ? undefined : text;
}

/**
 * Why a request could not be sent, in a few words: the innermost cause's last clause (Deno's fetch nests them:
 * `… tcp connect error: Connection refused (os error 111)`), or `host not found` for a failed DNS lookup.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { networkCause } from "./chat_completions.ts";
 * const refused = new Error("error sending request for url (http://llm.test/): client error (Connect): tcp connect error: Connection refused (os error 111)");
 * strictEqual(networkCause(new TypeError("fetch failed", { cause: refused })), "connection refused");
 * ```
 */
export function networkCause(error: unknown): string {
  let innermost = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause;
  const text = innermost instanceof Error ? innermost.message : String(innermost);
  if (/dns error|failed to lookup address/i.test(text)) return "host not found";
  const clause = text.split(": ").at(-1)!.replace(/\s*\(os error \d+\)$/, "").trim();
  if (clause === "") return "unknown error";
  return /^[A-Z][a-z]/.test(clause) ? clause[0].toLowerCase() + clause.slice(1) : clause;
}

/**
 * A `Retry-After` header in seconds, when it is a plain number.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parseRetryAfter } from "./chat_completions.ts";
 * deepStrictEqual([parseRetryAfter("2"), parseRetryAfter("soon"), parseRetryAfter(null)], [2, undefined, undefined]);
 * ```
 */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
