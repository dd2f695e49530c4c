/**
 * A K-run candidate in the many-candidate table: the case is the unit. Each case's correct answers per policy
 * over the K runs (0–K), the per-case difference, the exact sign-flip test over the cases and the case-level
 * mean difference with its seeded case bootstrap interval — the same statistics `report DIR` shows for the
 * directory. Against a side with another number of runs (the published run's one), each side's count is put
 * on the other's scale: d = runs(other) · candidate − runs(candidate) · other.
 *
 * @module
 */

import { compareCodePoints, InputError } from "../../base/mod.ts";
import { type BootstrapResult, caseBootstrap, type GradedRow, signFlipP } from "../../qa/mod.ts";

/** The row fields the comparison reads. */
export type CandidateRow = Pick<GradedRow, "case_id" | "policy" | "grade_correct">;

/** One side of a comparison: each case's correct answers over `runs` runs. */
export interface CountedSide {
  counts: Map<string, number>;
  runs: number;
}

/** The bootstrap's settings (the protocol's `statistics`). */
export interface ManyStatistics {
  bootstrap_seed: bigint | number;
  bootstrap_iterations: number;
  alpha: number;
}

/** A comparison before Holm's adjustment: which test, on how many cases and runs, its p and difference. */
export interface UnadjustedComparison {
  /** The test the p comes from. */
  test: "exact-mcnemar" | "exact-sign-flip";
  cases: number;
  /** Runs per case: the other side's (baseline or reference) and the candidate's. */
  otherRuns: number;
  candidateRuns: number;
  /** Correct answers over all runs of the shared cases: the other side's and the candidate's. */
  baselineCorrect: number;
  candidateCorrect: number;
  pValue: number;
  difference: BootstrapResult;
}

/**
 * Each case's correct answers under `policy` over `runs` (run 1 first). A case some run lacks is bad input
 * naming `directory`, the run and the case.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { countByCase } from "./_many_case_level.ts";
 * const row = (case_id: string, grade_correct: boolean) => ({ case_id, policy: "p", grade_correct });
 * const counted = countByCase("d", [[row("a", true), row("b", false)], [row("a", true), row("b", true)]], "p");
 * deepStrictEqual([...counted.counts], [["a", 2], ["b", 1]]);
 * ```
 */
export function countByCase(
  directory: string,
  runs: readonly (readonly CandidateRow[])[],
  policy: string,
): CountedSide {
  const perRun = runs.map((rows) =>
    new Map(rows.filter((row) => row.policy === policy).map((row) => [row.case_id, row.grade_correct]))
  );
  const ids = [...new Set(perRun.flatMap((outcomes) => [...outcomes.keys()]))].sort(compareCodePoints);
  const counts = new Map<string, number>();
  for (const id of ids) {
    let correct = 0;
    for (const [index, outcomes] of perRun.entries()) {
      const outcome = outcomes.get(id);
      if (outcome === undefined) {
        throw new InputError(
          `${directory}: the runs do not hold the same cases: run ${
            index + 1
          } has no row for ${id} under ${policy}`,
        );
      }
      correct += Number(outcome);
    }
    counts.set(id, correct);
  }
  return { counts, runs: runs.length };
}

/**
 * The case-level comparison of `candidate` with `other` on the cases both have: the exact sign-flip p over the
 * cases and the mean difference in accuracy with its case bootstrap interval (the protocol's seed).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { caseLevelComparison } from "./_many_case_level.ts";
 * const side = (values: number[], runs: number) => ({ counts: new Map(values.map((v, i) => [`c${i}`, v])), runs });
 * const result = caseLevelComparison(side([0, 1], 2), side([2, 2], 2), { bootstrap_seed: 1, bootstrap_iterations: 50, alpha: 0.05 });
 * strictEqual(result.pValue, 0.5); // d = (2, 1): only all + and all − reach |3|
 * strictEqual(result.difference.mean_difference, 0.75); // 3 / (2 · 2)
 * ```
 */
export function caseLevelComparison(
  other: CountedSide,
  candidate: CountedSide,
  statistics: ManyStatistics,
): UnadjustedComparison {
  const cases = [...candidate.counts.keys()].filter((id) => other.counts.has(id));
  const same = other.runs === candidate.runs;
  const differences = cases.map((id) => {
    const [first, second] = [other.counts.get(id)!, candidate.counts.get(id)!];
    return same ? second - first : other.runs * second - candidate.runs * first;
  });
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = statistics;
  const sum = (side: CountedSide) => cases.reduce((total, id) => total + side.counts.get(id)!, 0);
  return {
    test: "exact-sign-flip",
    cases: cases.length,
    otherRuns: other.runs,
    candidateRuns: candidate.runs,
    baselineCorrect: sum(other),
    candidateCorrect: sum(candidate),
    pValue: signFlipP(differences),
    difference: caseBootstrap(differences, same ? other.runs : other.runs * candidate.runs, {
      seed,
      iterations,
      alpha,
    }),
  };
}
