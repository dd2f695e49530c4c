/**
 * How the report writes a number or a text in a table cell: counts with separators, signed differences,
 * p-values, fractions, rates and shortened predictions.
 *
 * @module
 */

import { formatPValue } from "../../qa/mod.ts";

/**
 * A count with thousands separators: `86342` → `86,342`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { formatCount } from "./format.ts";
 * strictEqual(formatCount(86342), "86,342");
 * ```
 */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A difference with its sign and three decimals: `0.30000000000000004` → `+0.300`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { formatSigned } from "./format.ts";
 * deepStrictEqual([formatSigned(0.30000000000000004), formatSigned(-0.05)], ["+0.300", "-0.050"]);
 * ```
 */
export function formatSigned(value: number): string {
  const text = Math.abs(value).toFixed(3);
  return `${value < 0 && text !== "0.000" ? "-" : "+"}${text}`;
}

/**
 * A p-value at four decimals, one below 0.0001 as `< 0.0001` (never `0.0000`), as `grade-qa` prints it.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { formatP } from "./format.ts";
 * deepStrictEqual([formatP(0.0018), formatP(0.00002)], ["0.0018", "< 0.0001"]);
 * ```
 */
export function formatP(value: number): string {
  return formatPValue(value);
}

/**
 * `p = 0.0018`, or `p < 0.0001`: a formatted p-value after its name.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pClause } from "./format.ts";
 * deepStrictEqual([pClause("0.0018"), pClause("< 0.0001")], ["p = 0.0018", "p < 0.0001"]);
 * ```
 */
export function pClause(p: string): string {
  return p.startsWith("<") ? `p ${p}` : `p = ${p}`;
}

/**
 * A mid-p: four decimals as the exact p, three significant digits below 0.001 (so a small one is not shown as
 * `0.0010` or `0.0000`).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { formatMidP } from "./format.ts";
 * deepStrictEqual([formatMidP(16 / 16384), formatMidP(0.03125), formatMidP(1e-5)], ["0.000977", "0.0313", "< 0.0001"]);
 * ```
 */
export function formatMidP(value: number): string {
  if (value < 0.0001) return "< 0.0001";
  return value < 0.001 ? value.toPrecision(3) : value.toFixed(4);
}

/** `correct` of `cases` as `3/5`. */
export function fraction(correct: number, cases: number): string {
  return `${correct}/${cases}`;
}

/** `correct` over `cases` at three decimals, or `–` when there are no cases. */
export function rate(correct: number, cases: number): string {
  return cases === 0 ? "–" : (correct / cases).toFixed(3);
}

/**
 * Makes a prediction one short line: whitespace collapsed, at most `limit` characters.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { shorten } from "./format.ts";
 * strictEqual(shorten("seven\n  weeks, give or take", 12), "seven weeks…");
 * ```
 */
export function shorten(text: string, limit = 40): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= limit ? flat : `${chars.slice(0, limit - 1).join("")}…`;
}
