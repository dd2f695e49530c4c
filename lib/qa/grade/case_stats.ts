/**
 * Case-level statistics for K repeated runs: the case is the unit. Each case's per-run answers reduce to a
 * count of correct answers per policy (0–K); the paired difference d = candidate − baseline is tested by the
 * exact sign-flip test over cases, and the mean difference gets a seeded case bootstrap interval.
 *
 * @module
 */

import { PythonRandom } from "../../py/mod.ts";
import type { BootstrapOptions, BootstrapResult } from "./stats.ts";

/** `count / 2^exponent` as a double: one rounding while 2^exponent is a finite double. */
function ratioOverPowerOfTwo(count: bigint, exponent: number): number {
  if (exponent <= 1000) return Number(count) / 2 ** exponent;
  const shift = BigInt(exponent - 1000);
  return Number(count >> shift) / 2 ** 1000;
}

/**
 * The exact two-sided sign-flip test of whole-number paired differences: under the null each nonzero d keeps or
 * flips its sign with probability ½; p is the share of the 2^m sign assignments (m nonzero differences) whose
 * sum is at least as far from 0 as the observed sum. The count is exact (the sums' distribution is enumerated
 * by a subset-sum count in integers), rounded once; 1.0 without a nonzero difference. With K = 1 (each d in
 * {−1, 0, 1}) it is the exact McNemar p.
 *
 * @param differences One whole-number difference per case (candidate − baseline correct counts).
 * @returns The two-sided p value.
 * @throws {RangeError} When a difference is not a safe whole number.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { signFlipP } from "./case_stats.ts";
 * strictEqual(signFlipP([1, 1]), 0.5); // ++ and −− of the 4 assignments reach |2|
 * strictEqual(signFlipP([3, 0, 0]), 1);
 * strictEqual(signFlipP([2, 1, 1]), 0.25); // only all + and all − reach |4|
 * strictEqual(signFlipP([]), 1);
 * throws(() => signFlipP([0.5]), RangeError);
 * ```
 */
export function signFlipP(differences: readonly number[]): number {
  const magnitudes: number[] = [];
  let observed = 0;
  for (const d of differences) {
    if (!Number.isSafeInteger(d)) throw new RangeError("a sign-flip difference must be a whole number");
    if (d !== 0) magnitudes.push(Math.abs(d));
    observed += d;
  }
  if (magnitudes.length === 0) return 1;
  const total = magnitudes.reduce((sum, m) => sum + m, 0);
  // ways[s]: how many sign assignments give the positive signs a total of s (the sum is then 2s − total).
  let ways: bigint[] = [1n];
  for (const magnitude of magnitudes) {
    const next = new Array<bigint>(ways.length + magnitude).fill(0n);
    for (let s = 0; s < ways.length; s++) {
      next[s] += ways[s];
      next[s + magnitude] += ways[s];
    }
    ways = next;
  }
  const reach = Math.abs(observed);
  let count = 0n;
  for (let s = 0; s <= total; s++) if (Math.abs(2 * s - total) >= reach) count += ways[s];
  return ratioOverPowerOfTwo(count, magnitudes.length);
}

/**
 * The mean difference in accuracy over cases and runs, `sum d / (K · cases)`, and its seeded case bootstrap
 * interval: each iteration draws `cases` case indices with Python's `randrange(cases)` (cases are resampled,
 * never single answers) and takes the resample's mean; the interval is read from the sorted means at
 * `floor(alpha/2 · iterations)` and `floor((1 − alpha/2) · iterations) − 1`, clamped, as the paired bootstrap's.
 *
 * @param differences One difference per case (candidate − baseline correct counts, each in [−K, K]).
 * @param runs K, the number of runs each case was answered in (≥ 1).
 * @param options The protocol's seed, iterations and alpha.
 * @returns The observed mean difference and the interval.
 * @throws {RangeError} When there is no case, `runs` or `iterations` is not a whole number ≥ 1, or alpha is not
 * in (0, 1).
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { caseBootstrap } from "./case_stats.ts";
 * const result = caseBootstrap([2, 0, 1], 2, { seed: 1, iterations: 200, alpha: 0.05 });
 * strictEqual(result.mean_difference, 0.5); // 3 / (2 · 3)
 * strictEqual(result.lower <= 0.5 && 0.5 <= result.upper, true);
 * throws(() => caseBootstrap([], 2, { seed: 1, iterations: 1, alpha: 0.05 }), RangeError);
 * ```
 */
export function caseBootstrap(
  differences: readonly number[],
  runs: number,
  options: BootstrapOptions,
): BootstrapResult {
  const n = differences.length;
  if (n === 0) throw new RangeError("the bootstrap needs at least one case");
  const { iterations, alpha } = options;
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError("runs must be ≥ 1");
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError("iterations must be ≥ 1");
  if (!(alpha > 0 && alpha < 1)) throw new RangeError("alpha must be in (0, 1)");
  const scale = runs * n;
  const values = Int32Array.from(differences);
  const random = new PythonRandom(BigInt(options.seed));
  const draws = new Uint32Array(n);
  const samples = new Float64Array(iterations);
  for (let at = 0; at < iterations; at++) {
    random.fillRandrange(n, draws);
    let sum = 0;
    for (const index of draws) sum += values[index];
    samples[at] = sum / scale;
  }
  samples.sort();
  const clamp = (index: number) => Math.min(iterations - 1, Math.max(0, index));
  return {
    mean_difference: values.reduce((sum, d) => sum + d, 0) / scale,
    lower: samples[clamp(Math.floor((alpha / 2) * iterations))],
    upper: samples[clamp(Math.floor((1 - alpha / 2) * iterations) - 1)],
  };
}
