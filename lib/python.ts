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

import { floatRepr, PY_KEY_ORDER, PyFloat } from "./pyjson.ts";
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
 * import { isPyWhitespace } from "./python.ts";
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
 * import { pyStrip } from "./python.ts";
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
 * import { parsePyFloat } from "./python.ts";
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
 * import { pyFloatOf } from "./python.ts";
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
 * import { pyStr } from "./python.ts";
 * import { PyFloat } from "./pyjson.ts";
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
 * import { pyRepr } from "./python.ts";
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
 * import { isPyPrintable } from "./python.ts";
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
 * import { pyUpper } from "./python.ts";
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
 * import { pyLower } from "./python.ts";
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
 * import { pyTruthy } from "./python.ts";
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
 * import { codePointLength } from "./python.ts";
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

// ---------------------------------------------------------------------------------------------------------
// datetime.fromisoformat (CPython 3.11, Modules/_datetimemodule.c), ported over the UTF-8 bytes as CPython does.

/** An instant as whole days since 1970-01-01 plus microseconds (which may fall outside one day). */
export interface Instant {
  /** Days since the Unix epoch (proleptic Gregorian). */
  readonly day: number;
  /** Microseconds after that day's midnight UTC; the zone offset is already subtracted. */
  readonly microsecond: number;
}

const MICROS_PER_DAY = 86_400_000_000;
const encoder = new TextEncoder();
const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** CPython's `ymd_to_ord`: day 1 is 0001-01-01. */
function ymdToOrdinal(year: number, month: number, day: number): number {
  const y = year - 1;
  const daysBeforeYear = y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400);
  const daysBeforeMonth = DAYS_BEFORE_MONTH[month] + (month > 2 && isLeap(year) ? 1 : 0);
  return daysBeforeYear + daysBeforeMonth + day;
}

const EPOCH_ORDINAL = ymdToOrdinal(1970, 1, 1);

function ordinalToYmd(ordinal: number): [number, number, number] {
  // Walk from an estimate; ordinals here stay within a few days of a valid range, so this is cheap.
  let year = Math.floor((ordinal - 1) / 365.2425) + 1;
  while (ymdToOrdinal(year, 1, 1) > ordinal) year--;
  while (ymdToOrdinal(year + 1, 1, 1) <= ordinal) year++;
  let month = 1;
  while (month < 12 && ymdToOrdinal(year, month + 1, 1) <= ordinal) month++;
  return [year, month, ordinal - ymdToOrdinal(year, month, 1) + 1];
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** Reads `count` digits at `pos` (the buffer acts as NUL-terminated, as in C); -1 on failure. */
function parseDigits(bytes: Uint8Array, pos: number, count: number, out: number[]): number {
  let value = 0;
  for (let index = 0; index < count; index++) {
    const byte = bytes[pos + index];
    if (!isDigit(byte)) return -1;
    value = value * 10 + (byte - 0x30);
  }
  out[0] = value;
  return pos + count;
}

function findSeparator(bytes: Uint8Array, length: number): number {
  const HYPHEN = 0x2d;
  const WEEK = 0x57;
  if (length === 7) return 7;
  if (bytes[4] === HYPHEN) {
    if (bytes[5] === WEEK) {
      if (length < 8) return -1;
      if (length > 8 && bytes[8] === HYPHEN) {
        if (length === 9) return -1;
        if (length > 10 && isDigit(bytes[10])) return 8;
        return 10;
      }
      return 8;
    }
    return 10;
  }
  if (bytes[4] === WEEK) {
    let index = 7;
    for (; index < length; index++) if (!isDigit(bytes[index])) break;
    if (index < 9) return index;
    return index % 2 === 0 ? 7 : 8;
  }
  return 8;
}

function isoWeek1Monday(year: number): number {
  const firstDay = ymdToOrdinal(year, 1, 1);
  const firstWeekday = (firstDay + 6) % 7;
  let week1Monday = firstDay - firstWeekday;
  if (firstWeekday > 3) week1Monday += 7;
  return week1Monday;
}

/** Returns [year, month, day] or undefined. */
function parseDate(bytes: Uint8Array, dateLength: number): [number, number, number] | undefined {
  const out = [0];
  let pos = parseDigits(bytes, 0, 4, out);
  if (pos < 0) return undefined;
  const year = out[0];
  const usesSeparator = bytes[pos] === 0x2d;
  if (usesSeparator) pos++;
  if (bytes[pos] === 0x57) {
    pos = parseDigits(bytes, pos + 1, 2, out);
    if (pos < 0) return undefined;
    const week = out[0];
    let weekday = 1;
    if (pos < dateLength) {
      if (usesSeparator && bytes[pos++] !== 0x2d) return undefined;
      pos = parseDigits(bytes, pos, 1, out);
      if (pos < 0) return undefined;
      weekday = out[0];
    }
    if (week <= 0 || week >= 53) {
      let outOfRange = true;
      if (week === 53) {
        const firstWeekday = (ymdToOrdinal(year, 1, 1) + 6) % 7;
        if (firstWeekday === 3 || (firstWeekday === 2 && isLeap(year))) outOfRange = false;
      }
      if (outOfRange) return undefined;
    }
    if (weekday <= 0 || weekday >= 8) return undefined;
    return ordinalToYmd(isoWeek1Monday(year) + (week - 1) * 7 + weekday - 1);
  }
  pos = parseDigits(bytes, pos, 2, out);
  if (pos < 0) return undefined;
  const month = out[0];
  if (usesSeparator && bytes[pos++] !== 0x2d) return undefined;
  pos = parseDigits(bytes, pos, 2, out);
  if (pos < 0) return undefined;
  return [year, month, out[0]];
}

/** CPython's parse_hh_mm_ss_ff: -1 error, 0 end of string, 1 more follows. */
function parseTimeFields(bytes: Uint8Array, start: number, end: number, values: number[]): number {
  values.fill(0);
  const out = [0];
  let pos = start;
  let hasSeparator = true;
  for (let index = 0; index < 3; index++) {
    pos = parseDigits(bytes, pos, 2, out);
    if (pos < 0) return -1;
    values[index] = out[0];
    const char = bytes[pos++] ?? 0;
    if (index === 0) hasSeparator = char === 0x3a;
    if (pos >= end) return char !== 0 ? 1 : 0;
    if (hasSeparator && char === 0x3a) continue;
    if (char === 0x2e || char === 0x2c) break;
    if (!hasSeparator) pos--;
    else return -1;
  }
  const toParse = Math.min(end - pos, 6);
  pos = parseDigits(bytes, pos, toParse, out);
  if (pos < 0) return -1;
  values[3] = out[0] * 10 ** (6 - toParse);
  while (isDigit(bytes[pos])) pos++;
  return (bytes[pos] ?? 0) !== 0 ? 1 : 0;
}

/**
 * Python 3.11's `datetime.fromisoformat(text)`, returned as an {@linkcode Instant} with naive times taken as
 * UTC; `undefined` where Python raises `ValueError`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { fromIsoFormat, instantToEpochMicroseconds } from "./python.ts";
 * const instant = fromIsoFormat("2026-08-06T08:00:00+08:00")!;
 * deepStrictEqual(instantToEpochMicroseconds(instant), 1785974400000000n);
 * ```
 */
export function fromIsoFormat(text: string): Instant | undefined {
  if (codePointLength(text) < 7) return undefined;
  const bytes = encoder.encode(text);
  const length = bytes.length;
  const separator = findSeparator(bytes, length);
  if (separator < 0) return undefined;
  const date = parseDate(bytes, separator);
  if (date === undefined) return undefined;
  const [year, month, day] = date;
  const time = [0, 0, 0, 0];
  let offsetMicros = 0;
  if (length > separator) {
    let pos = separator;
    const lead = bytes[pos];
    pos += (lead & 0x80) === 0 ? 1 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf0) === 0xf0 ? 4 : 2;
    if (pos > length) return undefined;
    let zonePos = pos;
    while (zonePos < length) {
      const byte = bytes[zonePos];
      if (byte === 0x5a || byte === 0x2b || byte === 0x2d) break;
      zonePos++;
    }
    if (pos >= length) return undefined;
    const result = parseTimeFields(bytes, pos, zonePos, time);
    if (result < 0) return undefined;
    if (zonePos === length) {
      if (result === 1) return undefined;
    } else if (bytes[zonePos] === 0x5a) {
      if (zonePos + 1 !== length) return undefined;
    } else {
      const sign = bytes[zonePos] === 0x2d ? -1 : 1;
      const zone = [0, 0, 0, 0];
      const zoneResult = parseTimeFields(bytes, zonePos + 1, length, zone);
      if (zoneResult !== 0) return undefined;
      offsetMicros = sign * ((zone[0] * 3600 + zone[1] * 60 + zone[2]) * 1_000_000 + zone[3]);
      if (Math.abs(offsetMicros) >= MICROS_PER_DAY) return undefined;
    }
  }
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return undefined;
  }
  const [hour, minute, second, microsecond] = time;
  if (hour > 23 || minute > 59 || second > 59 || microsecond > 999_999) return undefined;
  return {
    day: ymdToOrdinal(year, month, day) - EPOCH_ORDINAL,
    microsecond: ((hour * 60 + minute) * 60 + second) * 1_000_000 + microsecond - offsetMicros,
  };
}

/**
 * An instant as exact epoch microseconds.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { instantToEpochMicroseconds } from "./python.ts";
 * deepStrictEqual(instantToEpochMicroseconds({ day: 1, microsecond: 0 }), 86400000000n);
 * ```
 */
export function instantToEpochMicroseconds(instant: Instant): bigint {
  return BigInt(instant.day) * BigInt(MICROS_PER_DAY) + BigInt(instant.microsecond);
}

/**
 * Python's `(later - earlier).total_seconds()`: exact integer microseconds divided by 10^6 with one rounding.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { elapsedSeconds } from "./python.ts";
 * deepStrictEqual(elapsedSeconds({ day: 1, microsecond: 500_000 }, { day: 0, microsecond: 0 }), 86400.5);
 * ```
 */
export function elapsedSeconds(later: Instant, earlier: Instant): number {
  const dayDelta = later.day - earlier.day;
  // Within ±100,000 days the microsecond difference is below 2^53, so it is exact as a double.
  if (Math.abs(dayDelta) <= 100_000) {
    return (dayDelta * MICROS_PER_DAY + (later.microsecond - earlier.microsecond)) / 1_000_000;
  }
  const micros = instantToEpochMicroseconds(later) - instantToEpochMicroseconds(earlier);
  const whole = micros / 1_000_000n;
  const rest = micros - whole * 1_000_000n;
  // |whole| < 2^53, so one rounding of the fraction then one exact-or-correct addition gives Python's result.
  return Number(whole) + Number(rest) / 1_000_000;
}
