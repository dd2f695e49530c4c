/**
 * The API key kept out of everything stored or printed: wherever its text appears, `[redacted]` instead.
 *
 * @module
 */

import type { Answer } from "./answer_rows.ts";

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
  const usage: Record<string, number> = {};
  for (const [key, value] of Object.entries(answer.usage)) usage[redact(key, secret)] = value;
  if (Object.keys(answer.usage).some((key) => key.includes(secret))) fields.push("usage");
  return fields.length === 0 ? { answer, fields } : { answer: { prediction, responseModel, usage }, fields };
}

/** Removes every occurrence of `secret` from `text`, so a server echoing the key cannot leak it into a log. */
export function redact(text: string, secret: string): string {
  return secret === "" ? text : text.split(secret).join("[redacted]");
}
