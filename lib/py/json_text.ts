/**
 * JSON documents this tool wrote (markers, records, summaries, sweep rows) read back as the reference's
 * `json.load` reads them: one function for the strict reading (a leading byte-order mark refused in Python's
 * words, invalid JSON an error naming the file) and one for the lenient look a check takes before it judges.
 *
 * @module
 */

import {
  ContractError,
  type DomainErrorOptions,
  type InputError,
  parseWith,
  type Schema,
} from "../base/mod.ts";
import { jsonBomRefusal, parsePyJson } from "./json_parse.ts";

/** How {@linkcode parseJsonText} reports text that is not JSON. */
export interface JsonTextOptions {
  /** The error to throw (default {@linkcode ContractError}). */
  error?: new (message: string, options: DomainErrorOptions) => InputError;
  /** Put before the message, e.g. `line 3: `. */
  prefix?: string;
  /** `"python"`: Python's own parser ({@linkcode parsePyJson}: `NaN`, floats kept as floats); else the engine's. */
  parser?: "engine" | "python";
}

/**
 * The value of a JSON text (the engine's parser: exact for what this tool writes); text that begins with a
 * byte-order mark or is not JSON throws `options.error` naming `path`: `not valid JSON: <why>`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { parseJsonText } from "./json_text.ts";
 * deepStrictEqual(parseJsonText('{"a": [1]}', "x.json"), { a: [1] });
 * throws(() => parseJsonText("\ufeff{}", "x.json"), {
 *   message: "x.json: not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)",
 * });
 * throws(() => parseJsonText("{", "x.json", { prefix: "line 2: " }), { message: /^x\.json: line 2: not valid JSON: / });
 * ```
 */
export function parseJsonText(text: string, path: string, options: JsonTextOptions = {}): unknown {
  const ErrorType = options.error ?? ContractError;
  const bom = jsonBomRefusal(text);
  try {
    if (bom !== undefined) throw new SyntaxError(bom);
    return options.parser === "python" ? parsePyJson(text) : JSON.parse(text);
  } catch (error) {
    const why = (error as Error).message;
    throw new ErrorType(`${options.prefix ?? ""}not valid JSON: ${why}`, { path, cause: error });
  }
}

/**
 * {@linkcode parseJsonText}, then the value held to `schema` (`parseWith`'s message on a field that fails).
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import * as z from "zod/mini";
 * import { parseJsonTextWith } from "./json_text.ts";
 * const Count = z.strictObject({ count: z.number() });
 * strictEqual(parseJsonTextWith(Count, '{"count": 3}', "c.json").count, 3);
 * throws(() => parseJsonTextWith(Count, '{"count": "3"}', "c.json"), { message: /^c\.json: count: / });
 * ```
 */
export function parseJsonTextWith<T>(
  schema: Schema<T>,
  text: string,
  path: string,
  options: JsonTextOptions = {},
): T {
  return parseWith(schema, parseJsonText(text, path, options), path, options);
}

/**
 * A JSON text's value when it is an object (not an array), else `undefined`: for a check that reads a file
 * leniently first and reports what it finds in its own words (a file that does not parse fails elsewhere).
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { jsonObjectOf } from "./json_text.ts";
 * deepStrictEqual(jsonObjectOf('{"a": 1}'), { a: 1 });
 * strictEqual(jsonObjectOf("[1]"), undefined);
 * strictEqual(jsonObjectOf("{"), undefined);
 * strictEqual(jsonObjectOf("\ufeff{}"), undefined); // refused as the strict reading refuses it
 * strictEqual(jsonObjectOf(undefined), undefined);
 * ```
 */
export function jsonObjectOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || jsonBomRefusal(text) !== undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}
