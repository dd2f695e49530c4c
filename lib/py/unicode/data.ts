/**
 * Lookups over the generated Unicode tables (tables.ts): the character properties and case mappings Python's
 * `str` methods use, for the Unicode version CPython 3.11 ships — independent of the JavaScript engine's own
 * Unicode version.
 *
 * @module
 */

import {
  CASE_IGNORABLE_RANGES,
  CASED_RANGES,
  DECIMAL_RANGES,
  LOWER_RUNS,
  LOWER_SPECIAL,
  NON_PRINTABLE_RANGES,
  UPPER_RUNS,
  UPPER_SPECIAL,
  WHITESPACE_RANGES,
} from "./tables.ts";

export { UNICODE_VERSION } from "./tables.ts";

/** Inclusive [first, last] pairs, flattened and sorted. */
function decodeRanges(text: string): Uint32Array {
  const numbers = text.split(",").map((part) => parseInt(part, 36));
  const out = new Uint32Array(numbers.length);
  let previous = 0;
  for (let index = 0; index < numbers.length; index += 2) {
    const first = previous + numbers[index];
    const last = first + numbers[index + 1];
    out[index] = first;
    out[index + 1] = last;
    previous = last;
  }
  return out;
}

/** The index of the range holding `code`, or -1. */
function findRange(ranges: Uint32Array, code: number): number {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (code < ranges[middle * 2]) high = middle - 1;
    else if (code > ranges[middle * 2 + 1]) low = middle + 1;
    else return middle;
  }
  return -1;
}

function decodeMapping(runs: string, special: string): Map<number, string> {
  const map = new Map<number, string>();
  const numbers = runs.split(",").map((part) => parseInt(part, 36));
  let start = 0;
  for (let index = 0; index < numbers.length; index += 4) {
    start += numbers[index];
    const [count, stride, delta] = [numbers[index + 1], numbers[index + 2], numbers[index + 3]];
    for (let step = 0; step < count; step++) {
      const code = start + step * stride;
      map.set(code, String.fromCodePoint(code + delta));
    }
  }
  for (const entry of special === "" ? [] : special.split(";")) {
    const [from, to] = entry.split(":");
    map.set(parseInt(from, 36), String.fromCodePoint(...to.split(" ").map((code) => parseInt(code, 36))));
  }
  return map;
}

const NON_PRINTABLE = decodeRanges(NON_PRINTABLE_RANGES);
const DECIMAL = decodeRanges(DECIMAL_RANGES);
const WHITESPACE = decodeRanges(WHITESPACE_RANGES);
const CASED = decodeRanges(CASED_RANGES);
const CASE_IGNORABLE = decodeRanges(CASE_IGNORABLE_RANGES);
let upperMap: Map<number, string> | undefined;
let lowerMap: Map<number, string> | undefined;

/**
 * Whether Python's `str.isprintable()` accepts this code point.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isPrintableCode } from "./data.ts";
 * deepStrictEqual([isPrintableCode(0x20), isPrintableCode(0xa0)], [true, false]);
 * ```
 */
export function isPrintableCode(code: number): boolean {
  return findRange(NON_PRINTABLE, code) < 0;
}

/**
 * The value of a decimal digit (general category Nd), or -1 for any other code point.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { decimalValue } from "./data.ts";
 * deepStrictEqual([decimalValue(0xff17), decimalValue(0x41)], [7, -1]);
 * ```
 */
export function decimalValue(code: number): number {
  const index = findRange(DECIMAL, code);
  // Every Nd block is a run of ten starting at zero, and the runs in one range are consecutive.
  return index < 0 ? -1 : (code - DECIMAL[index * 2]) % 10;
}

/**
 * Whether Python's `str.isspace()` accepts this code point (bidi class WS, B or S, or category Zs).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isWhitespaceCode } from "./data.ts";
 * deepStrictEqual([isWhitespaceCode(0x1c), isWhitespaceCode(0xfeff)], [true, false]);
 * ```
 */
export function isWhitespaceCode(code: number): boolean {
  return findRange(WHITESPACE, code) >= 0;
}

/**
 * Whether the code point has the Cased property.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isCased } from "./data.ts";
 * deepStrictEqual([isCased(0x61), isCased(0x31)], [true, false]);
 * ```
 */
export function isCased(code: number): boolean {
  return findRange(CASED, code) >= 0;
}

/**
 * Whether the code point has the Case_Ignorable property.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isCaseIgnorable } from "./data.ts";
 * deepStrictEqual([isCaseIgnorable(0x27), isCaseIgnorable(0x61)], [true, false]);
 * ```
 */
export function isCaseIgnorable(code: number): boolean {
  return findRange(CASE_IGNORABLE, code) >= 0;
}

/**
 * The full uppercase mapping of one code point (SpecialCasing's unconditional entries, else the simple one).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { upperOf } from "./data.ts";
 * deepStrictEqual(upperOf(0xdf), "SS");
 * ```
 */
export function upperOf(code: number): string {
  upperMap ??= decodeMapping(UPPER_RUNS, UPPER_SPECIAL);
  return upperMap.get(code) ?? String.fromCodePoint(code);
}

/**
 * The full lowercase mapping of one code point (without the Final_Sigma context, which needs the string).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { lowerOf } from "./data.ts";
 * deepStrictEqual(lowerOf(0x130), "i\u0307"); // İ: i and a combining dot above
 * ```
 */
export function lowerOf(code: number): string {
  lowerMap ??= decodeMapping(LOWER_RUNS, LOWER_SPECIAL);
  return lowerMap.get(code) ?? String.fromCodePoint(code);
}
