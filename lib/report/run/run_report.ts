/**
 * The report's content as values: for a QA results directory its suites, scenarios, retention against accuracy,
 * discordant cases, token bill and provenance; for a policy run its retention entries, summary groups, the cases
 * where the policies keep different supports, and provenance. Every renderer reads these through the sections.
 *
 * @module
 */

import type { RunFiles } from "../../base/mod.ts";
import type { PolicyRawRow, PolicySummaryGroup, RetentionEntry } from "../../policy/mod.ts";
import type { EpochStats, GradedRow, PolicyPair, QaSuiteStats, QaSummaryGroup } from "../../qa/mod.ts";
import type { Verification } from "./verification.ts";

/** A suite's headline numbers. */
export interface SuiteReport {
  name: "official" | "synthetic" | "overall";
  stats: QaSuiteStats;
  /** Cases each policy answered correctly (from the McNemar counts). */
  correct: Record<string, number>;
  /** The exact McNemar test's mid-p, shown beside the exact p (which stays the verdict). */
  midP: number;
}

/** Accuracy of one policy when the support fact was retained, and when it was not. */
export interface RetentionAccuracy {
  suite: SuiteReport["name"];
  policy: string;
  retained: { cases: number; correct: number };
  lost: { cases: number; correct: number };
}

/** One scenario under one policy: accuracy (from `qa.summary.json`'s groups) and support retention. */
export interface ScenarioPoint {
  group: QaSummaryGroup;
  retained: number;
}

/** A case the two policies grade differently. */
export interface DiscordantCase {
  caseId: string;
  source: string;
  scenario: string;
  /** The policy whose answer was graded correct. */
  winner: string;
  rows: Record<string, GradedRow>;
}

/** Token and attempt totals of a set of rows. */
export interface TokenTotals {
  rows: number;
  attempts: number;
  prompt: number;
  completion: number;
  /** Absent when no row reports the figure (a server that does not cache). */
  cacheHit?: number;
  /** Absent when no row reports the figure. */
  cacheMiss?: number;
  /** USD, when prices were given. */
  cost?: number;
}

/** USD per million tokens. */
export interface Prices {
  input: number;
  output: number;
}

/** The token bill: totals per policy and overall, and the prices the cost was computed at. */
export interface TokenBill {
  byPolicy: Record<string, TokenTotals>;
  total: TokenTotals;
  prices?: Prices;
}

/** Where a run came from. */
export interface Provenance {
  entries: [label: string, value: string][];
}

/** The report of a QA results directory. */
export interface QaReport {
  kind: "qa";
  directory: string;
  /** The two policies compared, `[first, second]` (the differences are second minus first). */
  policies: PolicyPair;
  verification: Verification;
  suites: SuiteReport[];
  scenarios: ScenarioPoint[];
  retention: RetentionAccuracy[];
  discordant: DiscordantCase[];
  bill: TokenBill;
  provenance: Provenance;
  bootstrap: { seed: bigint; iterations: number; alpha: number };
  /** The rows the checks ran on, parsed once from the bytes they read (a comparison pairs these). */
  rows: readonly GradedRow[];
  /** The run's files as they were read, once (a comparison's byte layer compares these). */
  files: RunFiles;
  /** A K-run directory's case-level verdict over its K verified runs (absent for one run). */
  epochs?: EpochStats;
}

/** A case and capacity where a policy keeps the support and another of the run's does not. */
export interface SupportDifference {
  caseId: string;
  source: string;
  scenario: string;
  capacity: number;
  /** The policy that kept every support fact. */
  keptBy: string;
}

/** The report of a `run-policy` directory. */
export interface PolicyReport {
  kind: "policy";
  directory: string;
  verification: Verification;
  entries: RetentionEntry[];
  groups: PolicySummaryGroup[];
  differences: SupportDifference[];
  provenance: Provenance;
  /** The rows the checks ran on, parsed once from the bytes they read. */
  rows: readonly PolicyRawRow[];
  /** The run's files as they were read, once. */
  files: RunFiles;
}

/** Either report. */
export type RunReport = QaReport | PolicyReport;

/**
 * One function per report model, keyed by its kind: what a renderer, a section list or a comparison does with
 * each model, declared as a table rather than a branch on the kind (a new model type-checks only once every
 * table has its entry).
 */
export type PerModel<A extends unknown[], R> = {
  readonly [K in RunReport["kind"]]: (report: Extract<RunReport, { kind: K }>, ...args: A) => R;
};

/**
 * `table`'s function for `report`'s model, applied to it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { samplePolicyReport } from "./samples.ts";
 * import { perModel } from "./run_report.ts";
 * const table = { qa: () => "QA results", policy: (report: { entries: unknown[] }) => `${report.entries.length}` };
 * strictEqual(perModel(table, samplePolicyReport()), "2");
 * ```
 */
export function perModel<A extends unknown[], R>(table: PerModel<A, R>, report: RunReport, ...args: A): R {
  const apply = table[report.kind] as (report: RunReport, ...args: A) => R;
  return apply(report, ...args);
}
