/** `mt19937.jsonl`: Python's Mersenne Twister — `getrandbits(32)` words and `randrange` draws from a seed. */

import { PythonRandom } from "../../py/mod.ts";
import { differences, type VectorChecker } from "../compare.ts";
import { requireField, requireString } from "../_record.ts";

/**
 * Checks one seed's words and draws.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { PythonRandom } from "../../py/random.ts";
 * import { checkMt19937 } from "./mt19937.ts";
 * const getrandbits32 = [new PythonRandom(7n).getrandbits(32)];
 * deepStrictEqual(checkMt19937({ seed: "7", getrandbits32, randrange: {} }).mismatches, []);
 * ```
 */
export const checkMt19937: VectorChecker = (record) => {
  const seed = BigInt(requireString(record, "seed"));
  const words = requireField(record, "getrandbits32") as unknown[];
  const draws = requireField(record, "randrange") as Record<string, unknown[]>;
  const wordStream = new PythonRandom(seed);
  const drawStream = new PythonRandom(seed);
  const actualDraws: Record<string, number[]> = {};
  // One generator for the draws, bounds in ascending order, as the reference vectors were produced.
  for (const bound of Object.keys(draws).sort((a, b) => Number(a) - Number(b))) {
    actualDraws[bound] = draws[bound].map(() => drawStream.randrange(Number(bound)));
  }
  const actual = { getrandbits32: words.map(() => wordStream.getrandbits(32)), randrange: actualDraws };
  return {
    mismatches: differences({ getrandbits32: words, randrange: draws }, actual),
    tier: "core",
    input: `seed ${seed}`,
  };
};
