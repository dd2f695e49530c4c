/**
 * Python's `json.dumps`, byte for byte: `json.dumps(value, ensure_ascii=False, sort_keys=True)` and the same with
 * `indent=2` or `ensure_ascii=True`. The float/int distinction is carried in the data: a {@linkcode PyFloat} is
 * always printed as a Python float, a JS `number` that is an integer as a Python int, a non-integral `number`
 * can only be a float, and a `bigint` is an int of any size.
 *
 * @module
 */

import { compareCodePoints } from "../base/mod.ts";
import { floatRepr, PyFloat } from "./float.ts";

/** A value that {@linkcode dumps} can serialise. */
export type PyJson =
  | null
  | boolean
  | number
  | bigint
  | string
  | PyFloat
  | readonly PyJson[]
  | { readonly [key: string]: PyJson | undefined };

/** `json.dumps` of a float: `repr`, except the non-finite spellings. */
function floatJson(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  return floatRepr(value);
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

const ASCII_ESCAPED = /["\\]|[^ -~]/g;
// deno-lint-ignore no-control-regex -- JSON escapes every control character.
const CONTROL_ESCAPED = /["\\\u0000-\u001f]/g;

function unicodeEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Python's `json.dumps(str)`; with `ensureAscii` every character outside space..tilde is escaped as
 * `\uXXXX` (astral characters as a surrogate pair), as Python does.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { dumpsString } from "./json_dumps.ts";
 * deepStrictEqual(dumpsString("café"), '"café"');
 * deepStrictEqual(dumpsString("café", true), '"caf\\u00e9"');
 * ```
 */
export function dumpsString(value: string, ensureAscii = false): string {
  const pattern = ensureAscii ? ASCII_ESCAPED : CONTROL_ESCAPED;
  pattern.lastIndex = 0;
  if (!pattern.test(value)) return `"${value}"`;
  return `"${value.replace(pattern, (char) => SHORT_ESCAPES[char] ?? unicodeEscape(char.charCodeAt(0)))}"`;
}

export { compareCodePoints };

/** Options of {@linkcode dumps}. */
export interface DumpsOptions {
  /** Pretty-print with this many spaces (Python's `indent`); compact `", "`/`": "` separators otherwise. */
  indent?: number;
  /** Python's `ensure_ascii` (default false). */
  ensureAscii?: boolean;
  /** Python's `sort_keys` (default true). */
  sortKeys?: boolean;
}

/**
 * Python's `json.dumps(value, ensure_ascii=False, sort_keys=True)` (options change indent/ensure_ascii).
 * Object properties whose value is `undefined` are omitted.
 *
 * @param value The value: numbers, bigints, {@linkcode PyFloat}s, strings, booleans, null, arrays and objects.
 * @param options Indentation, key sorting and ASCII escaping.
 * @returns The JSON text, byte for byte as Python writes it.
 * @throws {RangeError} When a number is an integer beyond 2^53 (pass a bigint instead).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { pyFloat } from "./float.ts";
 * import { dumps } from "./json_dumps.ts";
 * strictEqual(dumps({ b: [1, pyFloat(2)], a: "é" }), '{"a": "é", "b": [1, 2.0]}');
 * strictEqual(dumps({ a: 1 }, { indent: 2 }), '{\n  "a": 1\n}');
 * ```
 */
export function dumps(value: PyJson, options: DumpsOptions = {}): string {
  const ensureAscii = options.ensureAscii ?? false;
  const sortKeys = options.sortKeys ?? true;
  const indent = options.indent;
  const itemSeparator = indent === undefined ? ", " : ",";
  const encode = (item: PyJson | undefined, depth: number): string => {
    if (item === null || item === undefined) return "null";
    if (item === true) return "true";
    if (item === false) return "false";
    if (typeof item === "string") return dumpsString(item, ensureAscii);
    if (typeof item === "bigint") return item.toString();
    if (typeof item === "number") {
      if (Number.isInteger(item)) {
        if (!Number.isSafeInteger(item)) throw new RangeError(`integer ${item} is not exact; use a bigint`);
        return Object.is(item, -0) ? "0" : String(item);
      }
      return floatJson(item);
    }
    if (item instanceof PyFloat) return floatJson(item.value);
    const open = indent === undefined ? "" : `\n${" ".repeat(indent * (depth + 1))}`;
    const close = indent === undefined ? "" : `\n${" ".repeat(indent * depth)}`;
    const separator = itemSeparator + open;
    if (Array.isArray(item)) {
      if (item.length === 0) return "[]";
      let out = "[" + open + encode(item[0], depth + 1);
      for (let index = 1; index < item.length; index++) out += separator + encode(item[index], depth + 1);
      return out + close + "]";
    }
    const record = item as { readonly [key: string]: PyJson | undefined };
    const keys: string[] = [];
    let astral = false;
    for (const key in record) {
      if (record[key] === undefined || !Object.hasOwn(record, key)) continue;
      keys.push(key);
      if (!astral && SURROGATE_OR_ABOVE.test(key)) astral = true;
    }
    if (keys.length === 0) return "{}";
    // UTF-16 order equals code point order unless a key holds a surrogate or a character above one.
    if (sortKeys) astral ? keys.sort(compareCodePoints) : keys.sort();
    let out = "{" + open;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index];
      if (index > 0) out += separator;
      out += dumpsString(key, ensureAscii) + ": " + encode(record[key], depth + 1);
    }
    return out + close + "}";
  };
  return encode(value, 0);
}

const SURROGATE_OR_ABOVE = /[\uD800-\uFFFF]/;
