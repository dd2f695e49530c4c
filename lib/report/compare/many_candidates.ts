/**
 * Many candidates, one verdict: several candidate runs of one protocol against one baseline, each compared
 * with it on its cases — a/n, the p of its test, Holm-adjusted p across the candidates, the difference and its
 * interval — and, when a reference run (the published hybrid-v1) shares cases, with that too. A one-run
 * candidate is tested by the exact McNemar test with the seeded paired bootstrap; a K-run candidate
 * (`run-qa --epochs K`) by the exact sign-flip test over its cases with the case bootstrap (the case is the
 * unit; more runs never add cases). Candidates of different K are allowed: each row names its own test, and
 * Holm's adjustment runs over their p values alike. The best-supported candidate comes first: improvements
 * before the rest, then by Holm-adjusted p, then by the difference.
 *
 * @module
 */

import { compareCodePoints, InputError } from "../../base/mod.ts";
import { exactMcnemar, holmAdjust, type Pair, pairedBootstrapDifference } from "../../qa/mod.ts";
import type { Notice } from "../document/notices.ts";
import {
  type CandidateRow,
  caseLevelComparison,
  countByCase,
  type CountedSide,
  type ManyStatistics,
  type UnadjustedComparison,
} from "./_many_case_level.ts";

export type { CandidateRow, ManyStatistics };

/** One verified candidate run. */
export interface CandidateRunInput {
  directory: string;
  baseline: string;
  candidate: string;
  /** Run 1's rows (the directory's own). */
  rows: CandidateRow[];
  /** Every run of a K-run directory, run 1 first (K ≥ 2); absent for one run. */
  epochs?: readonly (readonly CandidateRow[])[];
}

/**
 * One paired comparison on `cases` shared cases: its test, the runs per case of each side, each side's correct
 * answers over all its runs (the other side's first), the p, its Holm-adjusted value and the difference.
 */
export interface PairedComparison extends UnadjustedComparison {
  holmP: number;
}

/** One candidate's line of the table. */
export interface CandidateLine extends PairedComparison {
  directory: string;
  candidate: string;
  /** Against the reference run's policy on the cases both have, when given and shared. */
  reference?: PairedComparison;
}

/** What the page says beside the table: its notices, and what the runs' checks took as recorded. */
export interface ManyFacts {
  /** The notices the page opens with (SYNTHETIC, NOT PINNED, STAND-IN, AUTHORED), decided by content. */
  notices?: readonly Notice[];
  /** Answer rows the candidate runs took from earlier runs (`reuse.json`), over all their runs. */
  reused?: number;
}

/** The table. */
export interface ManyCandidates {
  baseline: string;
  /** The reference's policy and where it is from, when one was given. */
  reference?: { policy: string; name: string };
  alpha: number;
  rows: CandidateLine[];
  notices: readonly Notice[];
  reused: number;
}

function correctByCase(rows: readonly CandidateRow[], policy: string): Map<string, boolean> {
  return new Map(rows.filter((row) => row.policy === policy).map((row) => [row.case_id, row.grade_correct]));
}

function paired(first: Map<string, boolean>, second: Map<string, boolean>): Pair[] {
  const cases = [...first.keys()].filter((id) => second.has(id)).sort(compareCodePoints);
  return cases.map((id) => [first.get(id)!, second.get(id)!] as const);
}

function compare(pairs: readonly Pair[], statistics: ManyStatistics): UnadjustedComparison {
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = statistics;
  return {
    test: "exact-mcnemar",
    cases: pairs.length,
    otherRuns: 1,
    candidateRuns: 1,
    baselineCorrect: pairs.filter(([first]) => first).length,
    candidateCorrect: pairs.filter(([, second]) => second).length,
    pValue: exactMcnemar(pairs).p_value,
    difference: pairedBootstrapDifference(pairs, { seed, iterations, alpha }),
  };
}

function withHolm<T extends UnadjustedComparison>(
  comparisons: readonly T[],
): (T & { holmP: number })[] {
  const adjusted = holmAdjust(comparisons.map((comparison) => comparison.pValue));
  return comparisons.map((comparison, index) => ({ ...comparison, holmP: adjusted[index] }));
}

/**
 * Builds the table. Refused in one line: fewer than two runs, runs with different baselines, the same
 * candidate name twice.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { manyCandidates } from "./many_candidates.ts";
 * const rows = (name: string, right: number) =>
 *   [0, 1, 2, 3].flatMap((i) => [
 *     { case_id: `c${i}`, policy: "confidence", grade_correct: i < 1 },
 *     { case_id: `c${i}`, policy: name, grade_correct: i < right },
 *   ]);
 * const runs = [2, 4].map((right, i) => ({ directory: `r${i}`, baseline: "confidence", candidate: `p${i}`, rows: rows(`p${i}`, right) }));
 * const table = manyCandidates(runs, { bootstrap_seed: 1, bootstrap_iterations: 100, alpha: 0.05 });
 * strictEqual(table.rows[0].candidate, "p1"); // 4 of 4 against 1 of 4: first
 * ```
 */
export function manyCandidates(
  runs: readonly CandidateRunInput[],
  statistics: ManyStatistics,
  reference?: { name: string; policy: string; rows: readonly CandidateRow[] },
  facts: ManyFacts = {},
): ManyCandidates {
  checkOneBaseline(runs);
  const [first] = runs;
  const againstBaseline = withHolm(runs.map((run) => againstOwnBaseline(run, statistics)));
  const referenceCorrect = reference && correctByCase(reference.rows, reference.policy);
  const shared = referenceCorrect === undefined
    ? undefined
    : runs.map((run) =>
      run.epochs === undefined
        ? { cases: paired(referenceCorrect, correctByCase(run.rows, run.candidate)), run }
        : {
          cases: [...countOf(run, run.candidate).counts.keys()].filter((id) => referenceCorrect.has(id)),
          run,
        }
    );
  const againstReference = shared !== undefined && shared.every(({ cases }) => cases.length > 0)
    ? withHolm(shared.map(({ run }) => againstReferenceOf(run, referenceCorrect!, statistics)))
    : undefined;
  const rows: CandidateLine[] = runs.map((run, index) => ({
    directory: run.directory,
    candidate: run.candidate,
    ...againstBaseline[index],
    ...(againstReference === undefined ? {} : { reference: againstReference[index] }),
  }));
  rows.sort(bestSupportedFirst);
  return {
    baseline: first.baseline,
    ...(againstReference === undefined || reference === undefined
      ? {}
      : { reference: { policy: reference.policy, name: reference.name } }),
    alpha: statistics.alpha,
    rows,
    notices: facts.notices ?? [],
    reused: facts.reused ?? 0,
  };
}

/** A K-run candidate's correct answers per case under `policy` over its K runs. */
function countOf(run: CandidateRunInput, policy: string): CountedSide {
  return countByCase(run.directory, run.epochs!, policy);
}

/** A candidate against its own baseline: exact McNemar for one run, the case-level test for K. */
function againstOwnBaseline(run: CandidateRunInput, statistics: ManyStatistics): UnadjustedComparison {
  if (run.epochs === undefined) {
    return compare(
      paired(correctByCase(run.rows, run.baseline), correctByCase(run.rows, run.candidate)),
      statistics,
    );
  }
  return caseLevelComparison(countOf(run, run.baseline), countOf(run, run.candidate), statistics);
}

/** A candidate against the reference's one run, on the cases both have. */
function againstReferenceOf(
  run: CandidateRunInput,
  referenceCorrect: Map<string, boolean>,
  statistics: ManyStatistics,
): UnadjustedComparison {
  if (run.epochs === undefined) {
    return compare(paired(referenceCorrect, correctByCase(run.rows, run.candidate)), statistics);
  }
  const counts = new Map([...referenceCorrect].map(([id, correct]) => [id, Number(correct)]));
  return caseLevelComparison({ counts, runs: 1 }, countOf(run, run.candidate), statistics);
}

/**
 * Refuses, in one line, fewer than two runs, runs with different baselines, or the same candidate twice.
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { checkOneBaseline } from "./many_candidates.ts";
 * const run = (candidate: string, baseline: string) => ({ directory: candidate, baseline, candidate, rows: [] });
 * throws(() => checkOneBaseline([run("a", "confidence"), run("b", "hybrid-v1")]), /one baseline/);
 * ```
 */
export function checkOneBaseline(runs: readonly CandidateRunInput[]): void {
  if (runs.length < 2) throw new InputError("many candidates: give at least two runs");
  const [first] = runs;
  const seen = new Map<string, string>();
  for (const run of runs) {
    if (run.baseline !== first.baseline) {
      throw new InputError(
        `${run.directory}: compared with ${run.baseline}, but ${first.directory} with ${first.baseline}: ` +
          "many candidates are compared against one baseline",
      );
    }
    const other = seen.get(run.candidate);
    if (other !== undefined) {
      throw new InputError(`${run.directory}: candidate ${run.candidate} is also ${other}'s; give each once`);
    }
    seen.set(run.candidate, run.directory);
  }
}

function bestSupportedFirst(a: CandidateLine, b: CandidateLine): number {
  const better = (line: CandidateLine) => line.difference.mean_difference > 0 ? 0 : 1;
  return better(a) - better(b) || a.holmP - b.holmP ||
    b.difference.mean_difference - a.difference.mean_difference ||
    compareCodePoints(a.candidate, b.candidate);
}

/**
 * The candidates that beat the baseline: a positive difference and a Holm-adjusted p at most the protocol's
 * alpha, best-supported first.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { beatBaseline } from "./many_candidates.ts";
 * const line = (candidate: string, holmP: number, mean_difference: number) =>
 *   ({ candidate, holmP, difference: { mean_difference, lower: 0, upper: 0 } });
 * const table = { alpha: 0.05, rows: [line("a", 0.01, 0.2), line("b", 0.05, 0.1), line("c", 0.01, -0.2)] };
 * deepStrictEqual(beatBaseline(table as never).map((row) => row.candidate), ["a", "b"]);
 * ```
 */
export function beatBaseline(table: ManyCandidates): CandidateLine[] {
  return table.rows.filter((line) => line.difference.mean_difference > 0 && line.holmP <= table.alpha);
}
