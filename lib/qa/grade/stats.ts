/**
 * Paired statistics for two policies answering the same cases: exact McNemar and a seeded paired bootstrap
 * whose draws reproduce Python's `random.Random`.
 *
 * @module
 */

import { PythonRandom } from "../../py/mod.ts";

// Resamples summed per pass: bounds the totals' memory whatever the iteration count (up to 10^7).
const BOOTSTRAP_CHUNK = 65536;

/** One case's outcome under the first (`confidence`) and second (`hybrid-v1`) policy. */
export type Pair = readonly [first: boolean, second: boolean];

/** Exact McNemar counts and p-value. */
export interface McnemarResult {
  /** Pairs both sides answered correctly. */
  both_correct: number;
  /** Pairs both sides answered wrongly. */
  both_wrong: number;
  /** Pairs only the first side answered correctly. */
  only_first_correct: number;
  /** Pairs only the second side answered correctly. */
  only_second_correct: number;
  /** The exact two-sided McNemar p-value. */
  p_value: number;
}

/**
 * A p-value as printed: four decimals, one below 0.0001 as `< 0.0001`, never `0.0000`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { formatPValue } from "./stats.ts";
 * deepStrictEqual([formatPValue(0.0213), formatPValue(0.0001), formatPValue(3e-6)], ["0.0213", "0.0001", "< 0.0001"]);
 * ```
 */
export function formatPValue(value: number): string {
  return value < 0.0001 ? "< 0.0001" : value.toFixed(4);
}

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let index = 1; index <= k; index++) result = (result * BigInt(n - k + index)) / BigInt(index);
  return result;
}

/**
 * Two-sided exact McNemar: exact binomial tail on the discordant pairs, `p = min(1, 2 · tail)`, 1.0 without
 * discordant pairs. The tail is an exact integer sum over 2^n, rounded once.
 *
 * @param pairs One `[first correct, second correct]` pair per case.
 * @returns The four cell counts and the p-value.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { exactMcnemar } from "./stats.ts";
 * deepStrictEqual(exactMcnemar([[false, true], [false, true], [true, true]]), {
 *   both_correct: 1,
 *   both_wrong: 0,
 *   only_first_correct: 0,
 *   only_second_correct: 2,
 *   p_value: 0.5,
 * });
 * ```
 */
export function exactMcnemar(pairs: readonly Pair[]): McnemarResult {
  let bothCorrect = 0;
  let bothWrong = 0;
  let onlyFirst = 0;
  let onlySecond = 0;
  for (const [first, second] of pairs) {
    if (first && second) bothCorrect++;
    else if (!first && !second) bothWrong++;
    else if (first) onlyFirst++;
    else onlySecond++;
  }
  const discordant = onlyFirst + onlySecond;
  let pValue = 1;
  if (discordant > 0) {
    let tail = 0n;
    for (let k = 0; k <= Math.min(onlyFirst, onlySecond); k++) tail += binomial(discordant, k);
    // Number(bigint) rounds once; dividing by a power of two is exact, so this is Python's int/int.
    pValue = Math.min(1, Number(2n * tail) / 2 ** discordant);
  }
  return {
    both_correct: bothCorrect,
    both_wrong: bothWrong,
    only_first_correct: onlyFirst,
    only_second_correct: onlySecond,
    p_value: pValue,
  };
}

/**
 * The mid-p of the exact McNemar test (Fagerland, Lydersen and Laake 2013): the exact two-sided p minus the
 * probability of the observed discordant split, `2 · P(X < min) + P(X = min)` for X ~ Binomial(b + c, ½); 1 for
 * an even split or no discordant pairs. Closer to alpha than the exact p and still conservative in practice; the
 * exact p stays the verdict. Exact integer sums over 2^n, rounded once.
 *
 * @param onlyFirst Discordant pairs only the first policy answered correctly (b).
 * @param onlySecond Discordant pairs only the second policy answered correctly (c).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { mcnemarMidP } from "./stats.ts";
 * strictEqual(mcnemarMidP(1, 13), 16 / 16384); // the exact p, 30 / 16384, minus P(X = 1) = 14 / 16384
 * strictEqual(mcnemarMidP(3, 3), 1);
 * ```
 */
export function mcnemarMidP(onlyFirst: number, onlySecond: number): number {
  const discordant = onlyFirst + onlySecond;
  const low = Math.min(onlyFirst, onlySecond);
  let below = 0n;
  for (let k = 0; k < low; k++) below += binomial(discordant, k);
  return Math.min(1, Number(2n * below + binomial(discordant, low)) / 2 ** discordant);
}

/** Options of {@linkcode pairedBootstrapDifference}. */
export interface BootstrapOptions {
  /** The Mersenne Twister seed (Python's `random.Random(seed)`). */
  seed: bigint | number;
  /** How many resamples to draw. */
  iterations: number;
  /** The significance level: the interval is the central 1 − alpha. */
  alpha: number;
}

/** The bootstrap's observed mean difference and percentile interval (second minus first). */
export interface BootstrapResult {
  /** The observed mean of second − first correctness. */
  mean_difference: number;
  /** The interval's lower bound. */
  lower: number;
  /** The interval's upper bound. */
  upper: number;
}

/**
 * Paired bootstrap of the accuracy difference (second minus first): each iteration resamples `n` cases with
 * Python's `randrange(n)`; the interval is taken from the sorted differences at
 * `floor(alpha/2 · iterations)` and `floor((1 − alpha/2) · iterations) − 1`, clamped into range.
 *
 * @param pairs One `[first correct, second correct]` pair per case.
 * @param options The seed, the number of iterations and alpha.
 * @returns The observed mean difference and the interval's bounds.
 * @throws {RangeError} When there are no pairs, `iterations` is not a whole number ≥ 1, or alpha is not in (0, 1).
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { pairedBootstrapDifference } from "./stats.ts";
 * const result = pairedBootstrapDifference([[true, true], [false, true]], { seed: 1, iterations: 100, alpha: 0.05 });
 * strictEqual(result.mean_difference, 0.5);
 * strictEqual(result.lower <= result.mean_difference && result.mean_difference <= result.upper, true);
 * throws(() => pairedBootstrapDifference([], { seed: 1, iterations: 100, alpha: 0.05 }), RangeError);
 * ```
 */
export function pairedBootstrapDifference(
  pairs: readonly Pair[],
  options: BootstrapOptions,
): BootstrapResult {
  const n = pairs.length;
  if (n === 0) throw new RangeError("the bootstrap needs at least one pair");
  const { iterations, alpha } = options;
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError("iterations must be ≥ 1");
  if (!(alpha > 0 && alpha < 1)) throw new RangeError("alpha must be in (0, 1)");
  // Each accuracy is its own mean, then subtracted — not the mean of per-case differences (rounding differs).
  const accuracyDifference = (firstTotal: number, secondTotal: number) => secondTotal / n - firstTotal / n;
  const codes = Uint8Array.from(pairs, ([first, second]) => Number(first) | (Number(second) << 1));
  const random = new PythonRandom(BigInt(options.seed));
  const samples = new Float64Array(iterations);
  const chunk = Math.min(iterations, BOOTSTRAP_CHUNK);
  const [firstTotals, secondTotals] = [new Int32Array(chunk), new Int32Array(chunk)];
  for (let start = 0; start < iterations; start += chunk) {
    const count = Math.min(chunk, iterations - start);
    random.sumDraws(codes, firstTotals.subarray(0, count), secondTotals.subarray(0, count));
    for (let at = 0; at < count; at++) {
      samples[start + at] = accuracyDifference(firstTotals[at], secondTotals[at]);
    }
  }
  let firstCorrect = 0;
  let secondCorrect = 0;
  for (const code of codes) {
    firstCorrect += code & 1;
    secondCorrect += code >> 1;
  }
  const observed = accuracyDifference(firstCorrect, secondCorrect);
  samples.sort();
  const clamp = (index: number) => Math.min(iterations - 1, Math.max(0, index));
  return {
    mean_difference: observed,
    lower: samples[clamp(Math.floor((alpha / 2) * iterations))],
    upper: samples[clamp(Math.floor((1 - alpha / 2) * iterations) - 1)],
  };
}
