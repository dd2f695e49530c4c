/** `datetime.jsonl`: the selector's timestamp parsing, as epoch microseconds (or null where it refuses). */

import { parseTimestamp } from "../../policy/mod.ts";
import { instantToEpochMicroseconds } from "../../py/mod.ts";
import type { VectorChecker } from "../compare.ts";
import { requireField, summarize } from "../_record.ts";

/**
 * Checks one timestamp line; a line marked `"tier": "exotic"` only fails under `--strict`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkDatetime } from "./datetime.ts";
 * deepStrictEqual(checkDatetime({ input: "1970-01-01T00:00:01Z", epoch_microseconds: 1000000 }).mismatches, []);
 * ```
 */
export const checkDatetime: VectorChecker = (record) => {
  const input = requireField(record, "input");
  const expected = requireField(record, "epoch_microseconds");
  const tier = record.tier === "exotic" ? "exotic" : "core";
  const instant = parseTimestamp(input);
  const actual = instant === undefined ? null : Number(instantToEpochMicroseconds(instant));
  return {
    mismatches: Object.is(actual, expected) ? [] : [{ field: "epoch_microseconds", expected, actual }],
    tier,
    input: summarize(input),
  };
};
