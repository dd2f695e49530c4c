/**
 * The API key kept out of everything stored or printed: wherever its text appears, `[redacted]` instead.
 *
 * @module
 */

import type { Answer } from "./answer_rows.ts";

/**
 * The shortest key treated as a secret: a shorter one (a local server's `k`) would match inside ordinary words
 * and numbers, so redacting it would corrupt the data rather than protect anything.
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * The text to redact for an API key: the key itself, or `""` (nothing) when it is too short to be a secret.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { secretOf } from "./redact.ts";
 * strictEqual(secretOf("sk-0123456789"), "sk-0123456789");
 * strictEqual(secretOf("k"), ""); // too short to be a secret
 * ```
 */
export function secretOf(apiKey: string): string {
  return apiKey.length < MIN_SECRET_LENGTH ? "" : apiKey;
}

/** What {@linkcode redactAnswer} returns: the cleaned answer and the row fields the key was found in. */
export interface RedactedAnswer {
  answer: Answer;
  /** Row field names (`prediction`, `response_model`) that held the key; empty when none did. */
  fields: string[];
}

/**
 * Replaces the key's text by `[redacted]` in an answer's string values before it is stored or printed: the
 * prediction and the model name. The usage figures' names are the server's field names, never the key's place.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { redactAnswer } from "./redact.ts";
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
  return fields.length === 0
    ? { answer, fields }
    : { answer: { ...answer, prediction, responseModel }, fields };
}

/**
 * Whether a usage field's name holds the key: such an answer is not stored at all, since renaming the server's
 * fields would corrupt the row and keeping them would write the key into a file.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { usageHoldsSecret } from "./redact.ts";
 * strictEqual(usageHoldsSecret({ "sk-0123456789_tokens": 3 }, "sk-0123456789"), true);
 * strictEqual(usageHoldsSecret({ prompt_tokens: 3 }, ""), false); // no secret: nothing to hold
 * ```
 */
export function usageHoldsSecret(usage: Readonly<Record<string, unknown>>, secret: string): boolean {
  return secret !== "" && Object.keys(usage).some((key) => key.includes(secret));
}

/** Removes every occurrence of `secret` from `text`, so a server echoing the key cannot leak it into a log. */
export function redact(text: string, secret: string): string {
  return secret === "" ? text : text.split(secret).join("[redacted]");
}
