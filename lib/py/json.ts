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
 * import { strictEqual } from "node:assert/strict";
 * import { dumps, PyFloat } from "./json.ts";
 * strictEqual(dumps({ accuracy: new PyFloat(1) }), '{"accuracy": 1.0}');
 * strictEqual(dumps({ accuracy: 1 }), '{"accuracy": 1}');
 * ```
 */
export class PyFloat {
  /**
   * Wraps `value` so it serialises as a Python float.
   *
   * @param value The number.
   */
  constructor(readonly value: number) {}
  /** The plain number, for arithmetic. */
  valueOf(): number {
    return this.value;
  }
}

/**
 * Wraps a number as a Python float.
 *
 * @param value The number.
 * @returns The number as a {@linkcode PyFloat}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { dumps, pyFloat } from "./json.ts";
 * strictEqual(dumps(pyFloat(0)), "0.0");
 * strictEqual(pyFloat(2.5).value, 2.5);
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
 * @param value The number.
 * @returns Its Python `repr`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { floatRepr } from "./json.ts";
 * strictEqual(floatRepr(0.1 + 0.2), "0.30000000000000004");
 * strictEqual(floatRepr(1e16), "1e+16");
 * strictEqual(floatRepr(0.00001), "1e-05");
 * strictEqual(floatRepr(3), "3.0");
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
 * import { deepStrictEqual } from "node:assert/strict";
 * import { dumpsString } from "./json.ts";
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

/**
 * Compares strings by Unicode code point, as Python sorts `str` keys (JS's default compares UTF-16 units).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { compareCodePoints } from "./json.ts";
 * deepStrictEqual(["\uFF5E", "\u{1F600}"].sort(compareCodePoints), ["～", "😀"]);
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
 * @param value The value: numbers, bigints, {@linkcode PyFloat}s, strings, booleans, null, arrays and objects.
 * @param options Indentation, key sorting and ASCII escaping.
 * @returns The JSON text, byte for byte as Python writes it.
 * @throws {RangeError} When a number is an integer beyond 2^53 (pass a bigint instead).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { dumps, pyFloat } from "./json.ts";
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

/**
 * Marks a parsed object whose key order JavaScript would not keep: JS enumerates integer-like keys (`"1"`) first,
 * Python's dict keeps the document's order, which `str()`/`repr()` print. Set only on such objects, as a
 * non-enumerable property holding the keys in document order.
 */
export const PY_KEY_ORDER: unique symbol = Symbol("pyKeyOrder");

/** Python 3.11's default `sys.get_int_max_str_digits()`: `int()` of a longer decimal string raises. */
export const PY_INT_MAX_STR_DIGITS = 4300;

/** A key JavaScript moves to the front of an object (a canonical array index). */
const ARRAY_INDEX_KEY = /^(?:0|[1-9][0-9]{0,9})$/;
/** A key of digits only, some perhaps escaped (`"\u0031"`): where the engine's parser would reorder keys. */
const INTEGER_LIKE_KEY_IN_TEXT = /"(?:[0-9]|\\u003[0-9]){1,10}"\s*:/;

/**
 * Parses JSON exactly as Python's `json.loads` does: `NaN`, `Infinity` and `-Infinity` are read; a number with a
 * fraction or exponent is a {@linkcode PyFloat} (`1e400` is infinity); an integer is a `number` when it fits
 * exactly and a `bigint` otherwise; duplicate keys keep the last value; an object whose key order JavaScript would
 * change carries {@linkcode PY_KEY_ORDER}.
 *
 * @param text The JSON text.
 * @returns The value, Python-typed.
 * @throws {SyntaxError} With line and column, as Python's message gives them: for anything `json.loads`
 * refuses (a leading UTF-8 BOM included), an integer over 4,300 digits (Python 3.11 raises), and a lone
 * surrogate escape (Python reads it, then cannot write it as UTF-8).
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { dumps, parsePyJson } from "./json.ts";
 * strictEqual(dumps(parsePyJson('{"a": 1.0, "b": 2, "c": NaN}')), '{"a": 1.0, "b": 2, "c": NaN}');
 * strictEqual(parsePyJson("12345678901234567890"), 12345678901234567890n);
 * throws(() => parsePyJson("[1,]"), SyntaxError);
 * ```
 */
export function parsePyJson(text: string): PyJson {
  if (text.charCodeAt(0) === 0xfeff) throw new SyntaxError("Unexpected UTF-8 BOM (decode using utf-8-sig)");
  // The engine's parser is exact for everything else; it throws on NaN/Infinity, so those take the full parser.
  if (!INTEGER_LIKE_KEY_IN_TEXT.test(text)) {
    let value: PyJson;
    try {
      value = JSON.parse(text, reviveNumbers as (key: string, value: unknown) => unknown) as PyJson;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return new PyJsonParser(text).parseDocument();
    }
    return value;
  }
  return new PyJsonParser(text).parseDocument();
}

/** The fast path's reviver; a SyntaxError here sends the text to the full parser, which names the place. */
function reviveNumbers(key: string, value: unknown, context?: { source?: string }): unknown {
  if (!key.isWellFormed()) throw new SyntaxError("lone surrogate");
  if (typeof value === "string") {
    if (!value.isWellFormed()) throw new SyntaxError("lone surrogate");
    return value;
  }
  if (typeof value !== "number" || context?.source === undefined) return value;
  return numberFromSource(context.source, () => new SyntaxError("integer too long"));
}

function numberFromSource(source: string, tooLong: () => SyntaxError): number | bigint | PyFloat {
  if (/[.eE]/.test(source)) return new PyFloat(Number(source));
  const value = Number(source);
  if (Number.isSafeInteger(value)) return value;
  if (source.length - (source.startsWith("-") ? 1 : 0) > PY_INT_MAX_STR_DIGITS) throw tooLong();
  return BigInt(source);
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** Python's `json` scanner, ported: errors say what was expected, with line and column. */
class PyJsonParser {
  #pos = 0;
  constructor(readonly text: string) {}

  parseDocument(): PyJson {
    this.#skipSpace();
    const value = this.#value();
    this.#skipSpace();
    if (this.#pos < this.text.length) throw this.#error("Extra data");
    return value;
  }

  #error(message: string, at = this.#pos): SyntaxError {
    const before = this.text.slice(0, at);
    const line = (before.match(/\n/g)?.length ?? 0) + 1;
    const column = at - before.lastIndexOf("\n");
    return new SyntaxError(`${message}: line ${line} column ${column} (char ${at})`);
  }

  #skipSpace(): void {
    const text = this.text;
    let pos = this.#pos;
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) pos++;
      else break;
    }
    this.#pos = pos;
  }

  #value(): PyJson {
    const text = this.text;
    const char = text[this.#pos];
    if (char === '"') return this.#string();
    if (char === "{") return this.#object();
    if (char === "[") return this.#array();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, this.#pos)) {
        this.#pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.#pos;
    const match = NUMBER.exec(text);
    if (match === null) throw this.#error("Expecting value");
    const start = this.#pos;
    this.#pos += match[0].length;
    return numberFromSource(
      match[0],
      () =>
        this.#error(
          `Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion`,
          start,
        ),
    );
  }

  #string(): string {
    const text = this.text;
    const start = this.#pos;
    let pos = this.#pos + 1;
    let out = "";
    for (;;) {
      let end = pos;
      while (end < text.length) {
        const code = text.charCodeAt(end);
        if (code === 0x22 || code === 0x5c || code < 0x20) break;
        end++;
      }
      out += text.slice(pos, end);
      if (end >= text.length) throw this.#error("Unterminated string starting at", start);
      const code = text.charCodeAt(end);
      if (code === 0x22) {
        if (!out.isWellFormed()) throw this.#error("lone surrogate in the string starting at", start);
        this.#pos = end + 1;
        break;
      }
      if (code < 0x20) throw this.#error("Invalid control character at", end);
      const escape = text[end + 1];
      if (escape === undefined) throw this.#error("Unterminated string starting at", start);
      if (escape !== "u") {
        const replacement = ESCAPES[escape];
        if (replacement === undefined) throw this.#error("Invalid \\escape", end);
        out += replacement;
        pos = end + 2;
        continue;
      }
      const unit = this.#hex4(end);
      pos = end + 6;
      if (unit >= 0xd800 && unit <= 0xdbff && text.startsWith("\\u", pos)) {
        const low = this.#hex4(pos);
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(unit, low);
          pos += 6;
          continue;
        }
      }
      if (unit >= 0xd800 && unit <= 0xdfff) {
        throw this.#error(
          `lone surrogate \\u${unit.toString(16)}: refused, as no UTF-8 output can hold it`,
          end,
        );
      }
      out += String.fromCharCode(unit);
    }
    return out;
  }

  #hex4(at: number): number {
    const digits = this.text.slice(at + 2, at + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw this.#error("Invalid \\uXXXX escape", at + 1);
    return parseInt(digits, 16);
  }

  #object(): PyJson {
    this.#pos++;
    const record: Record<string, PyJson> = {};
    const keys: string[] = [];
    let reordered = false;
    this.#skipSpace();
    if (this.text[this.#pos] === "}") {
      this.#pos++;
      return record;
    }
    for (;;) {
      if (this.text[this.#pos] !== '"') {
        throw this.#error("Expecting property name enclosed in double quotes", this.#pos);
      }
      const key = this.#string();
      this.#skipSpace();
      if (this.text[this.#pos] !== ":") throw this.#error("Expecting ':' delimiter");
      this.#pos++;
      this.#skipSpace();
      const value = this.#value();
      if (!Object.hasOwn(record, key)) {
        keys.push(key);
        if (ARRAY_INDEX_KEY.test(key)) reordered = true;
      }
      // A "__proto__" key must become an own property, as in JSON.parse.
      Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
      this.#skipSpace();
      const next = this.text[this.#pos];
      if (next === "}") {
        this.#pos++;
        break;
      }
      if (next !== ",") throw this.#error("Expecting ',' delimiter");
      this.#pos++;
      this.#skipSpace();
    }
    if (reordered && keys.length > 1) {
      Object.defineProperty(record, PY_KEY_ORDER, { value: keys, enumerable: false });
    }
    return record;
  }

  #array(): PyJson {
    this.#pos++;
    const items: PyJson[] = [];
    this.#skipSpace();
    if (this.text[this.#pos] === "]") {
      this.#pos++;
      return items;
    }
    for (;;) {
      items.push(this.#value());
      this.#skipSpace();
      const next = this.text[this.#pos];
      if (next === "]") {
        this.#pos++;
        return items;
      }
      if (next !== ",") throw this.#error("Expecting ',' delimiter");
      this.#pos++;
      this.#skipSpace();
    }
  }
}

const LITERALS: readonly [string, PyJson][] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", new PyFloat(NaN)],
  ["Infinity", new PyFloat(Infinity)],
  ["-Infinity", new PyFloat(-Infinity)],
];
