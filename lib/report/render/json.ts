/**
 * `report --json`: the report's data as one JSON document, with the sections of the terminal report. Every
 * document has, first, its notices (`notices`: every notice's line, in order — not the pinned protocol, partial,
 * synthetic, the stand-in's answers, authored; `partial`: the partial run's line and record; `synthetic`: the
 * demo's line; `authored_from`: the protocol an authored protocol extends), then `kind` (`qa`, `policy` or `sweep`), `directory` and `verification` (`checks`: each `name`,
 * `verdict` — `pass` or `needs-dataset` — and `detail`; `ok`; `proved`), then by kind:
 *
 * - `qa`: `suites` (official, synthetic, overall: `cases`, `correct` per policy, `mcnemar`, `bootstrap` as
 *   `qa.stats.json` has them, and `mid_p`, the exact McNemar test's mid-p), `scenarios` (per source, scenario
 *   and policy: `cases`, `correct`, `accuracy`, `support_retained`), `retention` (accuracy with the support retained and lost), `discordant` (each case, the
 *   policy that won, and per policy the full `prediction`, `grade_correct`, `grade_rule`,
 *   `support_all_retained`), `tokens` (`by_policy` and `total`: `rows`, `attempts`, `prompt`, `completion`,
 *   `cache_hit` and `cache_miss` — `null` when no row reports them — and `cost_usd` with `prices`, else `null`),
 *   `provenance` (`label`, `value` pairs); a K-run directory (`run-qa --epochs K`) adds `epochs` (K),
 *   `per_case` (`case_id`, `suite`, `correct` per policy, 0–K), `case_level` (per suite `cases`, the exact
 *   sign-flip `p`, `difference`, `interval`), `per_epoch` (K entries: `run` and per suite `cases`, `correct`,
 *   `mcnemar`) and `flips` (per policy, the cases whose grade differs between runs).
 * - `policy`: `retention` (summary.json's groups), `differences` (each case and capacity where one policy keeps
 *   every support and the other does not), `provenance`.
 * - `sweep`: `sweep` (`protocol_id`, `tool`, `grid_points`, `rows`), `best` and `worst` grid points (each with
 *   `difference`, `hybrid_v1_retained`, `confidence_retained`, `cases`, `capacity`, `parameters` as the rows name
 *   them, `worst_scenario`), `published` (the published parameters and their point at each capacity).
 *
 * Several candidate runs (`report RUN RUN…`) print kind `many-candidates`, whose schema is `json_many`'s.
 *
 * Keys are snake_case and stable: a key is added, never renamed or removed, within one `schema_version`.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import type { Point } from "../sweep/grid_points.ts";
import {
  type PerModel,
  perModel,
  type PolicyReport,
  type QaReport,
  type RunReport,
  type TokenTotals,
} from "../run/run_report.ts";
import type { BuiltSweepReport } from "../sweep/sweep.ts";
import { SweepRow } from "../sweep/sweep_schema.ts";
import type { Verification } from "../run/verification.ts";
import type { Notice } from "../document/notices.ts";
import { EPOCH_KEYS as epochKeys, epochsJson } from "./json_epochs.ts";
import { CheckJson, PartialJsonSchema } from "../../verify/mod.ts";
import { ManyCandidatesJson } from "./json_many.ts";

/** The document's schema version. */
export const REPORT_JSON_VERSION = 1;

const count = z.number().check(z.int(), z.minimum(0));
const verification = z.strictObject({
  checks: z.array(CheckJson),
  ok: z.boolean(),
  proved: z.string(),
  reused: z.optional(z.strictObject({
    rows: count,
    sources: z.array(z.strictObject({ from: z.string(), rows: count, graded: z.boolean() })),
  })),
});
const provenance = z.array(z.strictObject({ label: z.string(), value: z.string() }));
const partial = PartialJsonSchema;
const head = {
  notices: z.optional(z.array(z.string())),
  partial: z.optional(partial),
  synthetic: z.optional(z.string()),
  authored_from: z.optional(z.string()),
  schema_version: z.literal(REPORT_JSON_VERSION),
  directory: z.string(),
  verification,
};
const totals = z.strictObject({
  rows: count,
  attempts: count,
  prompt: count,
  completion: count,
  cache_hit: z.nullable(count),
  cache_miss: z.nullable(count),
  cost_usd: z.nullable(z.number()),
});
const side = z.strictObject({ cases: count, correct: count });
/** A QA results directory's document. */
export const QaReportJson = z.strictObject({
  kind: z.literal("qa"),
  ...head,
  suites: z.array(z.strictObject({
    name: z.enum(["official", "synthetic", "overall"]),
    cases: count,
    correct: z.record(z.string(), count),
    // The exact McNemar test's mid-p (the exact p minus the observed split's probability); p_value is the verdict.
    mid_p: z.nullable(z.number()),
    mcnemar: z.strictObject({
      both_correct: count,
      both_wrong: count,
      only_first_correct: count,
      only_second_correct: count,
      p_value: z.nullable(z.number()),
    }),
    bootstrap: z.strictObject({
      mean_difference: z.nullable(z.number()),
      lower: z.nullable(z.number()),
      upper: z.nullable(z.number()),
      alpha: z.number(),
      iterations: count,
      seed: z.number(),
    }),
  })),
  scenarios: z.array(z.strictObject({
    source: z.string(),
    scenario: z.string(),
    policy: z.string(),
    cases: count,
    correct: count,
    accuracy: z.number(),
    support_retained: count,
  })),
  retention: z.array(z.strictObject({ suite: z.string(), policy: z.string(), retained: side, lost: side })),
  discordant: z.array(z.strictObject({
    case_id: z.string(),
    source: z.string(),
    scenario: z.string(),
    won_by: z.string(),
    answers: z.record(
      z.string(),
      z.strictObject({
        prediction: z.string(),
        grade_correct: z.boolean(),
        grade_rule: z.string(),
        support_all_retained: z.boolean(),
      }),
    ),
  })),
  tokens: z.strictObject({
    by_policy: z.record(z.string(), totals),
    total: totals,
    prices: z.nullable(
      z.strictObject({ input_usd_per_million: z.number(), output_usd_per_million: z.number() }),
    ),
  }),
  provenance,
  ...epochKeys,
});

/** A policy run's document. */
export const PolicyReportJson = z.strictObject({
  kind: z.literal("policy"),
  ...head,
  retention: z.array(z.strictObject({
    source: z.string(),
    scenario: z.string(),
    capacity: count,
    policy: z.string(),
    cases: count,
    support_all_retained: count,
    support_all_retained_rate: z.number(),
    mean_support_recall: z.number(),
  })),
  differences: z.array(z.strictObject({
    case_id: z.string(),
    source: z.string(),
    scenario: z.string(),
    capacity: count,
    kept_by: z.string(),
  })),
  provenance,
});

const point = z.strictObject({
  difference: z.number(),
  hybrid_v1_retained: count,
  confidence_retained: count,
  cases: count,
  capacity: count,
  parameters: SweepRow.shape.parameters,
  worst_scenario: z.strictObject({ scenario: z.string(), difference: z.number() }),
});

/** A sweep's document. */
export const SweepReportJson = z.strictObject({
  kind: z.literal("sweep"),
  ...head,
  sweep: z.strictObject({
    protocol_id: z.string(),
    tool: z.string(),
    grid_points: count,
    rows: count,
    // The pair every grid point compares: hybrid-v1 at the point's parameters against confidence.
    policies: z.tuple([z.literal("confidence"), z.literal("hybrid-v1")]),
  }),
  best: z.array(point),
  worst: z.array(point),
  published: z.strictObject({ parameters: SweepRow.shape.parameters, points: z.array(point) }),
});

/** The document `report --json` prints (of several candidate runs: `many-candidates`, in `json_many`). */
export const ReportJson = z.discriminatedUnion("kind", [
  QaReportJson,
  PolicyReportJson,
  SweepReportJson,
  ManyCandidatesJson,
]);

/** The document `report --json` prints. */
export type ReportJson = z.infer<typeof ReportJson>;

function verificationJson(value: Verification): z.infer<typeof verification> {
  return {
    checks: value.checks.map((check) => ({
      name: check.name,
      verdict: check.verdict,
      ...(check.detail === undefined ? {} : { detail: check.detail }),
    })),
    ok: value.ok,
    proved: value.proved,
    ...(value.reused === undefined ? {} : { reused: value.reused }),
  };
}

/** The notices' keys: `partial` and `synthetic` as in `NoticesJson`, `authored_from` the protocol extended. */
type NoticesJson = {
  notices?: string[];
  partial?: z.infer<typeof partial>;
  synthetic?: string;
  authored_from?: string;
};

/**
 * The notices as keys: `notices` (every line, in order), `partial` (what the partial run records), `synthetic`
 * (the demo's line), `authored_from` (the protocol extended).
 */
function noticesJson(notices: readonly Notice[]): NoticesJson {
  const keys: NoticesJson = notices.length === 0 ? {} : { notices: notices.map((notice) => notice.line) };
  // A notice's kind (not a run's): the notices with data of their own give a key each.
  for (const notice of notices) {
    switch (notice.kind) {
      case "partial":
        keys.partial = notice.partial;
        break;
      case "synthetic":
        keys.synthetic = notice.data;
        break;
      case "authored":
        keys.authored_from = notice.from;
    }
  }
  return keys;
}

/**
 * The keys every document opens with, in this order: its notices, its kind, the schema version, where, what
 * verify proved.
 */
function headJson<K extends string>(
  kind: K,
  directory: string,
  value: Verification,
  notices: readonly Notice[],
): {
  notices?: string[];
  partial?: z.infer<typeof partial>;
  synthetic?: string;
  authored_from?: string;
  kind: K;
  schema_version: typeof REPORT_JSON_VERSION;
  directory: string;
  verification: z.infer<typeof verification>;
} {
  return {
    ...noticesJson(notices),
    kind,
    schema_version: REPORT_JSON_VERSION,
    directory,
    verification: verificationJson(value),
  };
}

function totalsJson(value: TokenTotals): z.infer<typeof totals> {
  return {
    rows: value.rows,
    attempts: value.attempts,
    prompt: value.prompt,
    completion: value.completion,
    cache_hit: value.cacheHit ?? null,
    cache_miss: value.cacheMiss ?? null,
    cost_usd: value.cost ?? null,
  };
}

/** A suite's statistic, or null when the suite has no cases. */
function none(suite: QaReport["suites"][number], value: number): number | null {
  return suite.stats.cases === 0 ? null : value;
}

function qaJson(report: QaReport, notices: readonly Notice[]): z.infer<typeof QaReportJson> {
  const { bill } = report;
  return {
    ...headJson("qa", report.directory, report.verification, notices),
    suites: report.suites.map((suite) => ({
      name: suite.name,
      cases: suite.stats.cases,
      correct: suite.correct,
      mid_p: none(suite, suite.midP),
      // A suite with no cases (a partial run's) has no statistics: null, not qa.stats.json's placeholders.
      mcnemar: { ...suite.stats.mcnemar, p_value: none(suite, suite.stats.mcnemar.p_value) },
      bootstrap: {
        mean_difference: none(suite, suite.stats.bootstrap.mean_difference),
        lower: none(suite, suite.stats.bootstrap.lower),
        upper: none(suite, suite.stats.bootstrap.upper),
        alpha: suite.stats.bootstrap.alpha,
        iterations: suite.stats.bootstrap.iterations,
        seed: Number(suite.stats.bootstrap.seed),
      },
    })),
    scenarios: report.scenarios.map(({ group, retained }) => ({
      source: group.source,
      scenario: group.scenario,
      policy: group.policy,
      cases: group.cases,
      correct: group.correct,
      accuracy: group.accuracy,
      support_retained: retained,
    })),
    retention: report.retention.map((item) => ({
      suite: item.suite,
      policy: item.policy,
      retained: { ...item.retained },
      lost: { ...item.lost },
    })),
    discordant: report.discordant.map((item) => ({
      case_id: item.caseId,
      source: item.source,
      scenario: item.scenario,
      won_by: item.winner,
      answers: Object.fromEntries(
        Object.entries(item.rows).map(([policy, row]) => [policy, {
          prediction: row.prediction,
          grade_correct: row.grade_correct,
          grade_rule: row.grade_rule,
          support_all_retained: row.support_all_retained,
        }]),
      ),
    })),
    tokens: {
      by_policy: Object.fromEntries(
        Object.entries(bill.byPolicy).map(([key, value]) => [key, totalsJson(value)]),
      ),
      total: totalsJson(bill.total),
      prices: bill.prices === undefined
        ? null
        : { input_usd_per_million: bill.prices.input, output_usd_per_million: bill.prices.output },
    },
    provenance: report.provenance.entries.map(([label, value]) => ({ label, value })),
    ...epochsJson(report),
  };
}

function policyJson(report: PolicyReport, notices: readonly Notice[]): z.infer<typeof PolicyReportJson> {
  return {
    ...headJson("policy", report.directory, report.verification, notices),
    retention: report.groups.map((group) => ({
      source: group.source,
      scenario: group.scenario,
      capacity: group.capacity,
      policy: group.policy,
      cases: group.cases,
      support_all_retained: group.support_all_retained,
      support_all_retained_rate: group.support_all_retained_rate,
      mean_support_recall: group.mean_support_recall,
    })),
    differences: report.differences.map((item) => ({
      case_id: item.caseId,
      source: item.source,
      scenario: item.scenario,
      capacity: item.capacity,
      kept_by: item.keptBy,
    })),
    provenance: report.provenance.entries.map(([label, value]) => ({ label, value })),
  };
}

function pointJson(item: Point): z.infer<typeof point> {
  const worst = item.scenarios.reduce((a, b) => b.difference < a.difference ? b : a);
  return {
    difference: item.difference,
    hybrid_v1_retained: item.hybrid,
    confidence_retained: item.confidence,
    cases: item.cases,
    capacity: item.capacity,
    parameters: item.parameters,
    worst_scenario: { scenario: worst.scenario, difference: worst.difference },
  };
}

/**
 * A sweep report's document (`directory` as the heading names it); the sweep must have been verified
 * (`readSweepReport`).
 */
export function sweepReportJson(
  directory: string,
  sweep: BuiltSweepReport,
  notices: readonly Notice[] = [],
): z.infer<typeof SweepReportJson> {
  if (sweep.verification === undefined) throw new RangeError("the sweep report was not verified");
  const { summary } = sweep;
  return {
    ...headJson("sweep", directory, sweep.verification, notices),
    sweep: {
      protocol_id: summary.protocolId,
      tool: summary.tool,
      grid_points: summary.gridPoints,
      rows: summary.rows,
      policies: ["confidence", "hybrid-v1"],
    },
    best: summary.best.map(pointJson),
    worst: summary.worst.map(pointJson),
    published: { parameters: summary.published, points: summary.publishedPoints.map(pointJson) },
  };
}

/**
 * A QA or policy run's report as its document.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { samplePolicyReport } from "../run/samples.ts";
 * import { ReportJson, reportJson } from "./json.ts";
 * const report = samplePolicyReport();
 * const document = ReportJson.parse(JSON.parse(JSON.stringify(reportJson(report)))); // what --json prints, read back
 * strictEqual(document.kind, "policy");
 * deepStrictEqual(document.kind === "policy" && document.retention.map((group) => group.support_all_retained), [0, 1]);
 * ```
 */
export function reportJson(report: RunReport, notices: readonly Notice[] = []): ReportJson {
  return perModel(DOCUMENTS, report, notices);
}

/** Each report model's document. */
const DOCUMENTS: PerModel<[readonly Notice[]], ReportJson> = { qa: qaJson, policy: policyJson };
