/**
 * The API key kept out of everything stored or printed: wherever its text appears, `[redacted]` instead.
 *
 * @module
 */

import type { Answer } from "../run/answer_rows.ts";

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

/**
 * Replaces every occurrence of `secret` in `text` by `[redacted]`, so a server echoing the key cannot leak it
 * into a row or a log — also when whitespace, controls, format characters or CSI sequences split it (a message
 * cut by a newline would otherwise print the key but for a space once its whitespace is collapsed). Nothing
 * else in `text` changes.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { redact } from "./redact.ts";
 * strictEqual(redact("bad key sk-0123\n456789, again sk-0123456789", "sk-0123456789"), "bad key [redacted], again [redacted]");
 * strictEqual(redact("sk-0123 456\t78\u200b9!", "sk-0123456789"), "[redacted]!");
 * strictEqual(redact("sk-0123-456789 stays", "sk-0123456789"), "sk-0123-456789 stays"); // a hyphen is text
 * ```
 */
export function redact(text: string, secret: string): string {
  const key = withoutSplits(secret).units;
  if (key.length === 0 || text.indexOf(String.fromCharCode(key[0])) === -1) return text;
  const { units, at } = withoutSplits(text);
  const parts: string[] = [];
  let from = 0;
  for (const [first, last] of matches(units, key)) {
    parts.push(text.slice(from, at[first]), "[redacted]");
    from = at[last] + 1;
  }
  return from === 0 ? text : parts.join("") + text.slice(from);
}

/** A CSI sequence: a colour change or a cursor move, which a terminal shows as nothing. */
// deno-lint-ignore no-control-regex -- ESC starts the sequence
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/y;
/** Beyond ASCII, what may come between a key's characters with the key still readable. */
const SPLIT_CHARACTER = /[\s\p{Cc}\p{Cf}]/u;

/**
 * `text`'s code units without what may split a key (whitespace, controls, format characters, whole CSI
 * sequences), each with its index in `text`.
 */
function withoutSplits(text: string): { units: Uint16Array; at: Int32Array } {
  const units = new Uint16Array(text.length);
  const at = new Int32Array(text.length);
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x1b) {
      CSI.lastIndex = index;
      if (CSI.test(text)) index = CSI.lastIndex - 1;
      continue;
    }
    if (code < 0x7f ? code <= 0x20 : code <= 0xa0 || SPLIT_CHARACTER.test(text[index])) continue;
    at[length] = index;
    units[length++] = code;
  }
  return { units: units.subarray(0, length), at };
}

/**
 * The key's non-overlapping occurrences in `units`, first and last index of each: Knuth–Morris–Pratt, linear in
 * the text whatever a hostile server sends.
 */
function* matches(units: Uint16Array, key: Uint16Array): Generator<[number, number]> {
  const fallback = new Int32Array(key.length);
  for (let index = 1, length = 0; index < key.length;) {
    if (key[index] === key[length]) fallback[index++] = ++length;
    else if (length > 0) length = fallback[length - 1];
    else fallback[index++] = 0;
  }
  for (let index = 0, matched = 0; index < units.length;) {
    if (units[index] === key[matched]) {
      index++;
      if (++matched === key.length) {
        yield [index - key.length, index - 1];
        matched = 0;
      }
    } else if (matched > 0) matched = fallback[matched - 1];
    else index++;
  }
}
