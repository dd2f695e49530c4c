/**
 * Python-compatible JSON: byte-identical to `json.dumps(value, ensure_ascii=False, sort_keys=True)` (and the
 * same with `indent=2` or `ensure_ascii=True`), plus a parser that keeps Python's float/int distinction.
 *
 * JavaScript has one number type; Python prints `1.0` and `1` differently. The distinction is carried in the
 * data: a {@linkcode PyFloat} is always printed as a Python float, a JS `number` that is an integer is printed
 * as a Python int, a non-integral `number` can only be a float, and a `bigint` is an int of any size.
 *
 * @module
 */

/**
 * A number that Python holds as a `float` (so `1` prints as `1.0`).
 *
 * @example
 * ```ts
 * import { dumps, PyFloat } from "./pyjson.ts";
 * console.log(dumps({ accuracy: new PyFloat(1) })); // {"accuracy": 1.0}
 * ```
 */
export class PyFloat {
  constructor(readonly value: number) {}
  /** The plain number, for arithmetic. */
  valueOf(): number {
    return this.value;
  }
}

/**
 * Wraps a number as a Python float.
 *
 * @example
 * ```ts
 * import { dumps, pyFloat } from "./pyjson.ts";
 * console.log(dumps(pyFloat(0))); // 0.0
 * ```
 */
export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

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

/**
 * Python's `repr(float)`: the shortest round-tripping digits, fixed notation when the decimal exponent is in
 * [-4, 16), scientific (`1e-05`, `1e+16`) otherwise, `.0` added to integral values.
 *
 * @example
 * ```ts
 * import { floatRepr } from "./pyjson.ts";
 * console.log(floatRepr(0.1 + 0.2)); // "0.30000000000000004"
 * console.log(floatRepr(1e16)); // "1e+16"
 * ```
 */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    // Here both languages print the shortest round-trip digits in positional notation; Python adds ".0".
    const text = String(value);
    return text.includes(".") ? text : `${text}.0`;
  }
  const sign = value < 0 ? "-" : "";
  // toExponential() with no argument yields the shortest round-trip digits, like Python's repr.
  const [mantissa, exponentText] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  const pointPosition = exponent + 1;
  if (pointPosition > -4 && pointPosition <= 16) {
    if (pointPosition <= 0) return `${sign}0.${"0".repeat(-pointPosition)}${digits}`;
    if (pointPosition >= digits.length) {
      return `${sign}${digits}${"0".repeat(pointPosition - digits.length)}.0`;
    }
    return `${sign}${digits.slice(0, pointPosition)}.${digits.slice(pointPosition)}`;
  }
  const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const exponentSign = exponent < 0 ? "-" : "+";
  return `${sign}${head}e${exponentSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

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
 * import { dumpsString } from "./pyjson.ts";
 * console.log(dumpsString("café")); // "café" in quotes
 * console.log(dumpsString("café", true)); // "caf\u00e9" in quotes
 * ```
 */
export function dumpsString(value: string, ensureAscii = false): string {
  const pattern = ensureAscii ? ASCII_ESCAPED : CONTROL_ESCAPED;
  pattern.lastIndex = 0;
  if (!pattern.test(value)) return `"${value}"`;
  return `"${value.replace(pattern, (char) => SHORT_ESCAPES[char] ?? unicodeEscape(char.charCodeAt(0)))}"`;
}

/**
 * Compares strings by Unicode code point, as Python sorts `str` keys (JS's default compares UTF-16 units).
 *
 * @example
 * ```ts
 * import { compareCodePoints } from "./pyjson.ts";
 * console.log(["\uFF5E", "\u{1F600}"].sort(compareCodePoints)); // ["～", "😀"]
 * ```
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left === right) continue;
    // Only when both are at or above the surrogate range can UTF-16 order disagree with code point order.
    if (left >= 0xd800 && right >= 0xd800) {
      const leftPoint = a.codePointAt(index)!;
      const rightPoint = b.codePointAt(index)!;
      return leftPoint < rightPoint ? -1 : 1;
    }
    return left < right ? -1 : 1;
  }
  return a.length - b.length;
}

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
 * @example
 * ```ts
 * import { dumps, pyFloat } from "./pyjson.ts";
 * console.log(dumps({ b: [1, pyFloat(2)], a: "é" })); // {"a": "é", "b": [1, 2.0]}
 * console.log(dumps({ a: 1 }, { indent: 2 })); // "{\n  \"a\": 1\n}"
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

/**
 * Parses JSON as Python's `json.loads` does: numbers written with a fraction or exponent become
 * {@linkcode PyFloat}, integers beyond 2^53 become `bigint`, and `NaN`/`Infinity` literals are rejected
 * (throws `SyntaxError` like `JSON.parse`).
 *
 * @example
 * ```ts
 * import { dumps, parsePyJson } from "./pyjson.ts";
 * console.log(dumps(parsePyJson('{"a": 1.0, "b": 2}'))); // {"a": 1.0, "b": 2}
 * ```
 */
export function parsePyJson(text: string): PyJson {
  return JSON.parse(
    text,
    function (_key: string, value: unknown, context?: { source?: string }) {
      if (typeof value !== "number" || context?.source === undefined) return value;
      const source = context.source;
      if (/[.eE]/.test(source)) return new PyFloat(value);
      if (!Number.isSafeInteger(value)) return BigInt(source);
      return value;
    } as (key: string, value: unknown) => unknown,
  ) as PyJson;
}
