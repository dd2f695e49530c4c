/**
 * The case-level verdict of K graded runs of the same tasks: per case the correct count per policy (0–K), per
 * suite the exact sign-flip test over cases and the mean difference with its case bootstrap interval, each
 * run's own exact McNemar (one row per run), and the cases whose grade flips between runs, per policy.
 *
 * @module
 */

import type { ProtocolConfig } from "../../protocol/mod.ts";
import { compareCodePoints } from "../../base/mod.ts";
import type { GradedRow } from "./graded_rows.ts";
import { type PolicyPair, PUBLISHED_PAIR } from "../run/candidate.ts";
import { exactMcnemar, type McnemarResult } from "./stats.ts";
import { caseBootstrap, signFlipP } from "./case_stats.ts";
import { OFFICIAL_SOURCE, SUITE_ROWS } from "./suite_stats.ts";

/** The three suites, in the order every report lists them. */
export const EPOCH_SUITES = ["official", "synthetic", "overall"] as const;

/** A suite's name. */
export type EpochSuite = (typeof EPOCH_SUITES)[number];

/** One case over K runs: how many of its K answers each policy got right. */
export interface CaseCounts {
  /** The case's id. */
  case_id: string;
  /** The case's suite (`official` or `synthetic`). */
  suite: "official" | "synthetic";
  /** Correct answers per policy, each in 0–K. */
  correct: Record<string, number>;
}

/** One suite's case-level verdict. */
export interface CaseLevelSuite {
  suite: EpochSuite;
  /** The number of cases (never multiplied by K). */
  cases: number;
  /** The exact two-sided sign-flip p over the cases. */
  p: number;
  /** The mean difference in accuracy, sum d / (K · cases). */
  difference: number;
  /** The seeded case bootstrap interval of the difference. */
  interval: [lower: number, upper: number];
}

/** One run's own paired result in one suite. */
export interface EpochSuiteRow {
  cases: number;
  /** Correct answers per policy in this run. */
  correct: Record<string, number>;
  mcnemar: McnemarResult;
}

/** One run of the K: its number (from 1) and its exact McNemar per suite. */
export interface EpochRow {
  run: number;
  suites: Record<EpochSuite, EpochSuiteRow>;
}

/** The case-level verdict of K runs. */
export interface EpochStats {
  /** K. */
  epochs: number;
  /** The pair compared: baseline, candidate. */
  policies: PolicyPair;
  per_case: CaseCounts[];
  case_level: CaseLevelSuite[];
  per_epoch: EpochRow[];
  /** Per policy, the cases whose grade differs between runs (0 < correct < K). */
  flips: Record<string, number>;
}

function outcome(run: readonly GradedRow[], caseId: string, policy: string, index: number): boolean {
  const row = run.find((candidate) => candidate.case_id === caseId && candidate.policy === policy);
  if (row === undefined) throw new RangeError(`run ${index + 1} has no row for ${caseId} under ${policy}`);
  return row.grade_correct;
}

/**
 * Each case's correct count per policy over the K runs, in case-id order (code points).
 *
 * @throws {RangeError} When there is no run, or a run lacks a row another run has.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { perCaseCounts } from "./epochs.ts";
 * import { graded } from "./_samples.ts";
 * const run = (a: boolean, b: boolean) => [graded("q1", "confidence", a, "longmemeval"), graded("q1", "hybrid-v1", b, "longmemeval")];
 * deepStrictEqual(perCaseCounts([run(false, true), run(true, true)]), [
 *   { case_id: "q1", suite: "official", correct: { confidence: 1, "hybrid-v1": 2 } },
 * ]);
 * ```
 */
export function perCaseCounts(
  runs: readonly (readonly GradedRow[])[],
  pair: PolicyPair = PUBLISHED_PAIR,
): CaseCounts[] {
  if (runs.length === 0) throw new RangeError("there is no run");
  const ids = new Set(runs.flatMap((run) => run.map((row) => row.case_id)));
  return [...ids].sort(compareCodePoints).map((caseId) => {
    const source = runs[0].find((row) => row.case_id === caseId)?.source;
    const correct: Record<string, number> = {};
    for (const policy of pair) {
      correct[policy] = runs.reduce(
        (sum, run, index) => sum + Number(outcome(run, caseId, policy, index)),
        0,
      );
    }
    return { case_id: caseId, suite: source === OFFICIAL_SOURCE ? "official" : "synthetic", correct };
  });
}

function inSuite(suite: EpochSuite, counts: CaseCounts): boolean {
  return suite === "overall" || counts.suite === suite;
}

function caseLevelSuite(
  suite: EpochSuite,
  perCase: readonly CaseCounts[],
  runs: number,
  config: ProtocolConfig,
  [first, second]: PolicyPair,
): CaseLevelSuite {
  const differences = perCase.filter((counts) => inSuite(suite, counts))
    .map((counts) => counts.correct[second] - counts.correct[first]);
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = config.statistics;
  const bootstrap = differences.length === 0
    ? { mean_difference: 0, lower: 0, upper: 0 }
    : caseBootstrap(differences, runs, { seed, iterations, alpha });
  return {
    suite,
    cases: differences.length,
    p: signFlipP(differences),
    difference: bootstrap.mean_difference,
    interval: [bootstrap.lower, bootstrap.upper],
  };
}

function epochRow(run: readonly GradedRow[], index: number, pair: PolicyPair): EpochRow {
  const suites = {} as Record<EpochSuite, EpochSuiteRow>;
  for (const suite of EPOCH_SUITES) {
    const rows = run.filter(SUITE_ROWS[suite]);
    const ids = [...new Set(rows.map((row) => row.case_id))];
    const pairs = ids.map((id) =>
      [outcome(rows, id, pair[0], index), outcome(rows, id, pair[1], index)] as const
    );
    const correct: Record<string, number> = {};
    for (const [at, policy] of pair.entries()) correct[policy] = pairs.filter((p) => p[at]).length;
    suites[suite] = { cases: ids.length, correct, mcnemar: exactMcnemar(pairs) };
  }
  return { run: index + 1, suites };
}

/**
 * The case-level verdict of K graded runs of the same tasks (run 1 first). More runs never add cases: K copies
 * of one run have that run's cases and its exact McNemar p as their sign-flip p.
 *
 * @throws {RangeError} When there is no run, or the runs do not hold the same rows.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { epochStats } from "./epochs.ts";
 * import { graded } from "./_samples.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const run = (a: boolean, b: boolean) => [graded("q1", "confidence", a, "longmemeval"), graded("q1", "hybrid-v1", b, "longmemeval")];
 * const stats = epochStats([run(false, true), run(false, false), run(true, true)], config);
 * strictEqual(stats.case_level[0].cases, 1);
 * strictEqual(stats.flips.confidence, 1);
 * strictEqual(stats.per_epoch.length, 3);
 * ```
 */
export function epochStats(
  runs: readonly (readonly GradedRow[])[],
  config: ProtocolConfig,
  pair: PolicyPair = PUBLISHED_PAIR,
): EpochStats {
  const perCase = perCaseCounts(runs, pair);
  const rowsPerRun = runs[0].length;
  runs.forEach((run, index) => {
    if (run.length !== rowsPerRun) {
      throw new RangeError(`run ${index + 1} has ${run.length} rows, not ${rowsPerRun}`);
    }
  });
  const flips: Record<string, number> = {};
  for (const policy of pair) {
    flips[policy] = perCase.filter((c) => c.correct[policy] > 0 && c.correct[policy] < runs.length).length;
  }
  return {
    epochs: runs.length,
    policies: pair,
    per_case: perCase,
    case_level: EPOCH_SUITES.map((suite) => caseLevelSuite(suite, perCase, runs.length, config, pair)),
    per_epoch: runs.map((run, index) => epochRow(run, index, pair)),
    flips,
  };
}

function signed(value: number): string {
  const text = Math.abs(value).toFixed(3);
  return `${value < 0 && text !== "0.000" ? "-" : "+"}${text}`;
}

/**
 * The case-level verdict for the terminal: one line per suite naming the test, then the flips.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { caseLevelLines, epochStats } from "./epochs.ts";
 * import { graded } from "./_samples.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const run = (a: boolean, b: boolean) => [graded("q1", "confidence", a, "longmemeval"), graded("q1", "hybrid-v1", b, "longmemeval")];
 * const lines = caseLevelLines(epochStats([run(false, true), run(false, false)], config));
 * strictEqual(lines[0], "official: exact sign-flip test over 1 cases, 2 runs each: p=1.0000, hybrid-v1 − confidence +0.500 [+0.500, +0.500]");
 * strictEqual(lines.at(-1), "flips between runs: confidence 0 case(s), hybrid-v1 1 case(s)");
 * ```
 */
export function caseLevelLines(stats: EpochStats): string[] {
  const [first, second] = stats.policies;
  const lines = stats.case_level.map((suite) =>
    `${suite.suite}: exact sign-flip test over ${suite.cases} cases, ${stats.epochs} runs each: ` +
    `p=${suite.p.toFixed(4)}, ${second} − ${first} ${signed(suite.difference)} ` +
    `[${signed(suite.interval[0])}, ${signed(suite.interval[1])}]`
  );
  const flips = stats.policies.map((policy) => `${policy} ${stats.flips[policy]} case(s)`).join(", ");
  return [...lines, `flips between runs: ${flips}`];
}
