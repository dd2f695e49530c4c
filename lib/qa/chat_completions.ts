/**
 * The chat completions wire format as the `openai` SDK (7.59) speaks it: the URL joined to a base URL, the
 * message of a failed status, the `Retry-After` header, and the answer in a response body.
 *
 * @module
 */

import { ProviderError } from "../base/errors.ts";
import type { Answer } from "./answer_rows.ts";

const CHAT_COMPLETIONS = "/chat/completions";

/**
 * The chat completions URL of a base URL, joined as the `openai` SDK (7.59) joins them: exactly one slash
 * between the base and `chat/completions`, and a query on the base kept after the path (one value per name,
 * strictly percent-encoded; a name given more than once keeps all its values, moved to the end).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { chatCompletionsUrl } from "./chat_completions.ts";
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
 * import { httpErrorMessage } from "./chat_completions.ts";
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

/** A `Retry-After` header in seconds, when it is a plain number. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
