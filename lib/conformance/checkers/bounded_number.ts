/** `bounded-number.jsonl`: the selector's `_bounded_number` (Python `float()`, 0.5 when not finite, clamped). */

import { boundedNumber } from "../../policy/mod.ts";
import type { VectorChecker } from "../compare.ts";
import { doubleToHex } from "../float_bits.ts";
import { requireField, requireString, summarize } from "../_record.ts";

/**
 * Checks one bounded-number line: the result's bit pattern.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkBoundedNumber } from "./bounded_number.ts";
 * deepStrictEqual(checkBoundedNumber({ input: "nan", expected: "3fe0000000000000" }).mismatches, []);
 * ```
 */
export const checkBoundedNumber: VectorChecker = (record) => {
  const input = requireField(record, "input");
  const expected = requireString(record, "expected");
  const actual = doubleToHex(boundedNumber(input));
  return {
    mismatches: actual === expected ? [] : [{ field: "expected", expected, actual }],
    tier: "core",
    input: summarize(input),
  };
};
