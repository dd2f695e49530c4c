/** `stats.jsonl`: the exact McNemar test and the paired bootstrap on a list of pairs, doubles as bits. */

import { exactMcnemar, type Pair, pairedBootstrapDifference } from "../../qa/mod.ts";
import { differences, type VectorChecker } from "../compare.ts";
import { doubleToHex } from "../float_bits.ts";
import { requireField, requireString } from "../_record.ts";

/**
 * Checks one statistics line.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { checkStats } from "./stats.ts";
 * const line = { pairs: [[true, false], [false, false]], seed: "1", iterations: 10, alpha: 0.05, bootstrap: {}, mcnemar: {} };
 * strictEqual(checkStats(line).input, "2 pairs, seed 1, 10 iterations, alpha 0.05");
 * ```
 */
export const checkStats: VectorChecker = (record) => {
  const pairs = requireField(record, "pairs") as Pair[];
  const seed = BigInt(requireString(record, "seed"));
  const iterations = requireField(record, "iterations") as number;
  const alpha = requireField(record, "alpha") as number;
  const mcnemar = exactMcnemar(pairs);
  const bootstrap = pairedBootstrapDifference(pairs, { seed, iterations, alpha });
  const actual = {
    bootstrap: {
      lower: doubleToHex(bootstrap.lower),
      mean_difference: doubleToHex(bootstrap.mean_difference),
      upper: doubleToHex(bootstrap.upper),
    },
    mcnemar: { ...mcnemar, p_value: doubleToHex(mcnemar.p_value) },
  };
  const expected = { bootstrap: requireField(record, "bootstrap"), mcnemar: requireField(record, "mcnemar") };
  return {
    mismatches: differences(expected, actual),
    tier: "core",
    input: `${pairs.length} pairs, seed ${seed}, ${iterations} iterations, alpha ${alpha}`,
  };
};
