/**
 * The result block every report opens with, built once for every renderer: per suite (or, for a policy run,
 * per capacity) each policy's count out of the cases, for QA results the exact McNemar p and the bootstrap
 * difference with its interval, then one plain sentence of what was re-derived, from what, and what was
 * taken as recorded. Terminal, Markdown and HTML only draw it.
 *
 * @module
 */

import { POLICIES } from "../../policy/mod.ts";
import { formatMidP, formatP, formatSigned, pClause } from "../document/format.ts";
import { type PerModel, perModel, type PolicyReport, type QaReport, type RunReport } from "./run_report.ts";
import type { EpochStats } from "../../qa/mod.ts";
import { capacitiesOf, supportKept } from "./groups.ts";
import { suiteName } from "./names.ts";

/** The paired statistics of one suite, formatted. */
export interface ClaimStatistics {
  /** The exact McNemar p: the verdict. */
  p: string;
  /** Its mid-p, shown beside it (an exact McNemar p only). */
  midP?: string;
  difference: string;
  interval: string;
  discordant: number;
  /** Discordant pairs won by the first policy, then by the second. */
  onlyFirst: number;
  onlySecond: number;
  /** The test the p comes from (default: exact McNemar). */
  test?: string;
}

/** One line of the claim: a suite or a capacity, each policy's count of its cases. */
export interface ClaimRow {
  label: string;
  cases: number;
  scores: { policy: string; count: number }[];
  /** What each count is out of, when not `cases` (K runs: K · cases answers). */
  of?: number;
  statistics?: ClaimStatistics;
  /** Shown instead of the counts and statistics: a suite with no cases has none. */
  note?: string;
}

/** What a suite with no cases (a partial run's) shows instead of its counts and statistics. */
export const NO_CASES = "no cases, no statistics";

/** The result block: what is compared, the figures, how they were computed, and what was checked. */
export interface Claim {
  title: string;
  /** The policies in order: the differences are the second minus the first. */
  policies: string[];
  /** What the counts count, e.g. "correct answers". */
  measure: string;
  level?: number;
  rows: ClaimRow[];
  /** How the statistics were computed, one sentence. */
  method: string;
  /** What was re-derived and from what, what was taken as recorded. */
  checked: string;
}

function qaClaim(report: QaReport): Claim {
  if (report.epochs !== undefined) return epochClaim(report, report.epochs);
  const [first, second] = report.policies;
  const level = Math.round((1 - report.bootstrap.alpha) * 100);
  const grades = report.bill.total.rows;
  const checked = report.verification.rederived
    ? `The ${grades} grades that give this result were re-derived with --dataset: every row's task from the dataset, every grade by blind re-grading against the reference answers. The model's answers are always taken as recorded.`
    : `The ${grades} recorded grades give this result; without --dataset the grades are taken as recorded: re-derive them with --dataset. The model's answers are always taken as recorded.`;
  return {
    title: `Result: ${second} against ${first}`,
    policies: [first, second],
    measure: "correct answers",
    level,
    rows: report.suites.map((suite): ClaimRow => {
      const { cases, mcnemar, bootstrap } = suite.stats;
      const scores = [first, second].map((policy) => ({ policy, count: suite.correct[policy] }));
      if (cases === 0) return { label: suiteName(suite.name), cases, scores, note: NO_CASES };
      return {
        label: suiteName(suite.name),
        cases,
        scores,
        statistics: {
          p: formatP(mcnemar.p_value),
          midP: formatMidP(suite.midP),
          difference: formatSigned(bootstrap.mean_difference),
          interval: `[${formatSigned(bootstrap.lower)}, ${formatSigned(bootstrap.upper)}]`,
          discordant: mcnemar.only_first_correct + mcnemar.only_second_correct,
          onlyFirst: mcnemar.only_first_correct,
          onlySecond: mcnemar.only_second_correct,
        },
      };
    }),
    method:
      `Correct answers per policy on the same cases; exact two-sided McNemar p on the discordant pairs (the verdict; its mid-p beside it); the paired bootstrap difference in accuracy (${second} − ${first}, seed ${report.bootstrap.seed}) with its ${level}% percentile interval.`,
    checked: report.verification.bound
      ? checked
      : `${checked} No qa_run.json: the run is not bound to artifact hashes.`,
  };
}

/** A K-run directory's claim: the case-level verdict, the counts summed over the K runs. */
function epochClaim(report: QaReport, epochs: EpochStats): Claim {
  const [first, second] = report.policies;
  const level = Math.round((1 - report.bootstrap.alpha) * 100);
  const k = epochs.epochs;
  return {
    title: `Result: ${second} against ${first}, ${k} runs`,
    policies: [first, second],
    measure: `correct answers over ${k} runs`,
    level,
    rows: epochs.case_level.map((suite) => {
      const members = epochs.per_case.filter((item) =>
        suite.suite === "overall" || item.suite === suite.suite
      );
      const d = members.map((item) => item.correct[second] - item.correct[first]);
      const total = (policy: string) => members.reduce((sum, item) => sum + item.correct[policy], 0);
      return {
        label: suiteName(suite.suite),
        cases: suite.cases,
        of: suite.cases * k,
        scores: [first, second].map((policy) => ({ policy, count: total(policy) })),
        statistics: {
          p: formatP(suite.p),
          difference: formatSigned(suite.difference),
          interval: `[${formatSigned(suite.interval[0])}, ${formatSigned(suite.interval[1])}]`,
          discordant: d.filter((value) => value !== 0).length,
          onlyFirst: d.filter((value) => value < 0).length,
          onlySecond: d.filter((value) => value > 0).length,
          test: `exact sign-flip test over ${suite.cases} cases, ${k} runs each:`,
        },
      };
    }),
    method:
      `Each case answered ${k} times by each policy; per case d = ${second} − ${first} correct answers; the exact two-sided sign-flip test over the cases (every sign assignment enumerated); the mean difference in accuracy, sum d / (${k} · cases), with its ${level}% case bootstrap interval (seed ${report.bootstrap.seed}, cases resampled, never answers).`,
    checked: `Each of the ${k} runs was verified as one run is; ${
      report.verification.rederived
        ? "their grades re-derived with --dataset"
        : "their grades taken as recorded"
    }. The model's answers are always taken as recorded.`,
  };
}

/** The policies of a policy run in the order the run lists them: the published pair first. */
function policiesOf(report: PolicyReport): string[] {
  const seen = new Set(report.entries.map((entry) => entry.policy));
  return [...POLICIES.filter((policy) => seen.delete(policy)), ...seen];
}

function policyClaim(report: PolicyReport): Claim {
  const policies = policiesOf(report);
  const rows = report.entries.length;
  const cases = new Set(report.differences.map((difference) => difference.caseId)).size;
  return {
    title: `Result: support retained, ${
      policies.length === 2 ? `${policies[1]} against ${policies[0]}` : policies.join(", ")
    }`,
    policies,
    measure: "cases that kept every support fact",
    rows: capacitiesOf(report.entries).map((capacity) => {
      const scores = policies.map((policy) => ({ policy, ...supportKept(report.entries, capacity, policy) }));
      return {
        label: `capacity ${capacity}`,
        cases: scores[0]?.cases ?? 0,
        scores: scores.map(({ policy, kept }) => ({ policy, count: kept })),
      };
    }),
    method:
      `Cases whose every support fact the policy kept, per capacity; ${cases} cases where the policies keep different supports are listed below.`,
    checked: report.verification.rederived
      ? policyRederived(report, policies)
      : `The ${rows} recorded rows give this result; without --dataset the selections are taken as recorded (summary re-derived from them): re-derive them with --dataset.`,
  };
}

/**
 * What a policy run's rows re-derived with --dataset are: every row, or — a module run read without its
 * module — the published policies' rows, the module's taken as recorded.
 */
function policyRederived(report: PolicyReport, policies: readonly string[]): string {
  const withoutModule = /need --policy-module (.+?)\)/.exec(report.verification.proved);
  if (withoutModule === null) {
    return `The ${report.entries.length} rows that give this result were re-derived with --dataset: every selection recomputed from the dataset by the policies.`;
  }
  const published = policies.filter((policy) => (POLICIES as readonly string[]).includes(policy));
  const modules = policies.filter((policy) => !published.includes(policy));
  const count = (names: readonly string[]) =>
    report.entries.filter((entry) => names.includes(entry.policy)).length;
  return `The ${count(published)} rows of ${
    published.join(" and ")
  } were re-derived with --dataset: every selection recomputed from the dataset; the ${
    count(modules)
  } rows of ${modules.join(" and ")} are taken as recorded: re-derive them with --policy-module ${
    withoutModule[1]
  }.`;
}

/**
 * The result block of a run's report.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { samplePolicyReport } from "./samples.ts";
 * import { claimOf } from "./claim.ts";
 * const report = samplePolicyReport();
 * const claim = claimOf(report);
 * strictEqual(claim.title, "Result: support retained, hybrid-v1 against confidence");
 * deepStrictEqual(claim.rows, [{ label: "capacity 7", cases: 1, scores: [{ policy: "confidence", count: 0 }, { policy: "hybrid-v1", count: 1 }] }]);
 * strictEqual(claim.checked.startsWith("The 2 recorded rows give this result; without --dataset"), true);
 * ```
 */
export function claimOf(report: RunReport): Claim {
  return perModel(CLAIMS, report);
}

/** Each report model's result block. */
const CLAIMS: PerModel<[], Claim> = { qa: qaClaim, policy: policyClaim };

/** A row's counts, e.g. "confidence 18/40 vs hybrid-v1 29/40". */
export function claimScores(row: ClaimRow): string {
  return row.scores.map(({ policy, count }) => `${policy} ${count}/${row.of ?? row.cases}`).join(" vs ");
}

/**
 * A row's statistics, e.g. "exact McNemar p = 0.0117 (mid-p 0.0071) · difference +0.275, 95% interval
 * [+0.100, +0.450]".
 */
export function claimStatistics(claim: Claim, row: ClaimRow): string | undefined {
  const statistics = row.statistics;
  if (statistics === undefined) return undefined;
  const mid = statistics.midP === undefined ? "" : ` (mid-p ${statistics.midP})`;
  return `${statistics.test ?? "exact McNemar"} ${
    pClause(statistics.p)
  }${mid} · difference ${statistics.difference}, ${claim.level}% interval ${statistics.interval}`;
}

/**
 * The claim as plain lines (the terminal indents them, Markdown lists them): per row its counts and
 * statistics, then what was checked.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sampleClaim } from "./samples.ts";
 * import { claimLines } from "./claim.ts";
 * deepStrictEqual(claimLines(sampleClaim()), ["overall (4 cases): a 1/4 vs b 3/4",
 *   "  exact McNemar p = 0.5000 (mid-p 0.2500) · difference +0.500, 95% interval [+0.000, +1.000]", "what_next"]);
 * ```
 */
export function claimLines(claim: Claim): string[] {
  const lines: string[] = [];
  for (const row of claim.rows) {
    lines.push(`${row.label} (${row.cases} cases): ${row.note ?? claimScores(row)}`);
    const statistics = claimStatistics(claim, row);
    if (statistics !== undefined) lines.push(`  ${statistics}`);
  }
  lines.push(claim.checked);
  return lines;
}
