/**
 * Python semantics the reference relies on, reproduced exactly: `float(str)`, `str()` of JSON scalars,
 * code-point length, and Python 3.11's `datetime.fromisoformat`.
 *
 * Follows CPython 3.11.7 (the reference's interpreter): `float()` as `Objects/floatobject.c`'s
 * `PyFloat_FromString`, `str()` of floats as `repr` (`Python/pystrtod.c`), and `datetime.fromisoformat` as
 * `Modules/_datetimemodule.c` of that release (the C implementation 3.11 runs; `Lib/datetime.py`'s
 * `_parse_isoformat_date` and `_parse_isoformat_time` state the same rules in Python).
 *
 * @module
 */

import { floatRepr, PY_KEY_ORDER, PyFloat } from "./json.ts";
import {
  decimalValue,
  isCased,
  isCaseIgnorable,
  isPrintableCode,
  isWhitespaceCode,
  lowerOf,
  upperOf,
} from "./unicode/data.ts";

/**
 * Whether a single character is whitespace to Python's `str.strip()` (`str.isspace()`, Unicode 14.0.0).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isPyWhitespace } from "./builtins.ts";
 * deepStrictEqual([isPyWhitespace("\x1c"), isPyWhitespace("\ufeff")], [true, false]);
 * ```
 */
export function isPyWhitespace(char: string): boolean {
  return char.length > 0 && isWhitespaceCode(char.codePointAt(0)!);
}

/**
 * Python's `str.strip()` with no argument.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pyStrip } from "./builtins.ts";
 * deepStrictEqual(pyStrip("\u3000 x \x85"), "x");
 * ```
 */
export function pyStrip(text: string): string {
  const chars = Array.from(text);
  let start = 0;
  let end = chars.length;
  while (start < end && isPyWhitespace(chars[start])) start++;
  while (end > start && isPyWhitespace(chars[end - 1])) end--;
  return start === 0 && end === chars.length ? text : chars.slice(start, end).join("");
}

const PY_FLOAT_SYNTAX = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const PY_FLOAT_SPECIAL = /^[+-]?(?:nan|inf|infinity)$/i;

/**
 * Python's `float(text)` for a string: surrounding whitespace, `_` between digits, any Unicode decimal
 * digits, `nan`/`inf`/`infinity` in any case. Returns `undefined` where Python raises `ValueError`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parsePyFloat } from "./builtins.ts";
 * deepStrictEqual([parsePyFloat(" 1_0 "), parsePyFloat("１"), parsePyFloat("0x10")], [10, 1, undefined]);
 * ```
 */
export function parsePyFloat(text: string): number | undefined {
  let ascii = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) ascii += char;
    else if (isPyWhitespace(char)) ascii += " ";
    else if (decimalValue(code) >= 0) ascii += String(decimalValue(code));
    else return undefined;
  }
  // float() strips only C-locale ASCII whitespace; non-ASCII whitespace became a space above.
  const trimmed = ascii.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "");
  if (PY_FLOAT_SPECIAL.test(trimmed)) {
    const negative = trimmed.startsWith("-");
    return trimmed.replace(/^[+-]/, "").toLowerCase() === "nan" ? NaN : negative ? -Infinity : Infinity;
  }
  if (!PY_FLOAT_SYNTAX.test(trimmed)) return undefined;
  // With the syntax checked, JS's correctly rounded decimal conversion equals Python's strtod.
  return Number(trimmed.replaceAll("_", ""));
}

/**
 * Python's `float(value)` for a JSON value; `undefined` where Python raises. Booleans convert as Python's do.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pyFloatOf } from "./builtins.ts";
 * deepStrictEqual([pyFloatOf("0.5"), pyFloatOf(true), pyFloatOf([1])], [0.5, 1, undefined]);
 * ```
 */
export function pyFloatOf(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") return parsePyFloat(value);
  return undefined;
}

/**
 * Python's `str()` of a JSON scalar: `None`, `True`/`False`, ints, floats as `repr`, strings unchanged.
 * Lists and dicts are rendered with Python's `repr` layout.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pyStr } from "./builtins.ts";
 * import { PyFloat } from "./json.ts";
 * deepStrictEqual([pyStr(null), pyStr(17), pyStr(new PyFloat(2))], ["None", "17", "2.0"]);
 * ```
 */
export function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  return pyRepr(value);
}

/**
 * Python's `repr()` of a parsed JSON value: dicts in the document's key order (see `PY_KEY_ORDER`), strings
 * with every character `str.isprintable()` rejects escaped.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pyRepr } from "./builtins.ts";
 * deepStrictEqual(pyRepr(["a\u00a0", 1.5, null]), "['a\\xa0', 1.5, None]");
 * ```
 */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (typeof value === "string") return stringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  const record = value as Record<string, unknown> & { [PY_KEY_ORDER]?: readonly string[] };
  const keys = record[PY_KEY_ORDER] ?? Object.keys(record);
  return `{${keys.map((key) => `${stringRepr(key)}: ${pyRepr(record[key])}`).join(", ")}}`;
}

function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x7f && code >= 0x20) out += char;
    else if (isPrintableCode(code)) out += char;
    else if (code < 0x100) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return out + quote;
}

/**
 * Python's `str.isprintable()` (Unicode 14.0.0, as CPython 3.11): false if any character is in Cc, Cf, Cs,
 * Co, Cn, Zl, Zp, or Zs other than the ASCII space.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isPyPrintable } from "./builtins.ts";
 * deepStrictEqual([isPyPrintable("a b"), isPyPrintable("a\u3000b")], [true, false]);
 * ```
 */
export function isPyPrintable(text: string): boolean {
  for (const char of text) if (!isPrintableCode(char.codePointAt(0)!)) return false;
  return true;
}

/**
 * Python's `str.upper()` with CPython 3.11's Unicode 14.0.0 data (V8's `toUpperCase` follows a newer Unicode).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pyUpper } from "./builtins.ts";
 * deepStrictEqual([pyUpper("straße"), pyUpper("\u0264")], ["STRASSE", "ɤ"]); // no uppercase before Unicode 16
 * ```
 */
export function pyUpper(text: string): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // ASCII fast path: the mapping of a-z is fixed in every version.
    if (code < 0x80) {
      out += code >= 0x61 && code <= 0x7a ? String.fromCharCode(code - 32) : text[index];
      continue;
    }
    const point = text.codePointAt(index)!;
    if (point > 0xffff) index++;
    out += upperOf(point);
  }
  return out;
}

/**
 * Python's `str.lower()` with Unicode 14.0.0 data, including its Final_Sigma rule for U+03A3.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pyLower } from "./builtins.ts";
 * deepStrictEqual(pyLower("ΟΔΟΣ Σ"), "οδος σ");
 * ```
 */
export function pyLower(text: string): string {
  // deno-lint-ignore no-control-regex -- the ASCII range is the fast path.
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  const points = Array.from(text, (char) => char.codePointAt(0)!);
  let out = "";
  for (let index = 0; index < points.length; index++) {
    const point = points[index];
    out += point === 0x3a3 ? (isFinalSigma(points, index) ? "\u03c2" : "\u03c3") : lowerOf(point);
  }
  return out;
}

/** CPython's `handle_capital_sigma`: cased, case-ignorables, Σ, and no case-ignorables-then-cased after it. */
function isFinalSigma(points: readonly number[], index: number): boolean {
  let before = index - 1;
  while (before >= 0 && isCaseIgnorable(points[before])) before--;
  if (before < 0 || !isCased(points[before])) return false;
  let after = index + 1;
  while (after < points.length && isCaseIgnorable(points[after])) after++;
  return after === points.length || !isCased(points[after]);
}

/**
 * Python truthiness of a parsed JSON value: `None`, `False`, zero, `""`, `[]` and `{}` are false.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pyTruthy } from "./builtins.ts";
 * deepStrictEqual([pyTruthy(0), pyTruthy({}), pyTruthy(NaN), pyTruthy("0")], [false, false, true, true]);
 * ```
 */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === "") return false;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "bigint") return value !== 0n;
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") {
    const keys = (value as { [PY_KEY_ORDER]?: readonly string[] })[PY_KEY_ORDER] ?? Object.keys(value);
    return keys.length > 0;
  }
  return true;
}

/**
 * Python's `len(str)`: the number of Unicode code points (JS's `length` counts UTF-16 units, so an emoji is 2).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { codePointLength } from "./builtins.ts";
 * deepStrictEqual(codePointLength("a😀"), 2);
 * ```
 */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        index++;
      }
    }
  }
  return length;
}
