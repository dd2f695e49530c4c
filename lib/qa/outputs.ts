/**
 * Graded QA rows and the two files derived from them: `qa.summary.json` (accuracy by source, scenario and
 * policy — official and synthetic never folded together) and `qa.stats.json` (exact McNemar and the seeded
 * paired bootstrap for the official, synthetic and overall suites), written exactly as the reference writes them.
 *
 * @module
 */

import { groupBy } from "../base/group.ts";
import * as z from "../base/zod.ts";
import type { ProtocolConfig } from "../protocol/config.ts";
import { RowIntegrityError } from "../base/errors.ts";
import { GRADE_RULES, GRADER_VERSION, type GradeRule } from "./grading.ts";
import { POLICIES } from "../policy/mod.ts";
import { compareCodePoints, dumps, PyFloat, type PyJson } from "../py/json.ts";
import { type AnswerRow, answerRowObject } from "./answer_rows.ts";
import { parseJsonLines, type SameType, type Schema } from "../base/schema.ts";
import {
  type BootstrapResult,
  exactMcnemar,
  type McnemarResult,
  type Pair,
  pairedBootstrapDifference,
} from "./stats.ts";

/** A graded row of `qa.rows.jsonl`: the answer row without its creation time, plus the grade and the case facts. */
export interface GradedRow extends Omit<AnswerRow, "created_at"> {
  /** Whether the grader accepted the prediction. */
  grade_correct: boolean;
  /** The grader rule that decided (a `GradeRule` of grading.ts). */
  grade_rule: GradeRule;
  /** The grader's version. */
  grader_version: string;
  /** The case's question type (`synthetic_correction` for synthetic cases). */
  question_type: string;
  /** Whether every support fact was kept. */
  support_all_retained: boolean;
  /** The fraction of support facts kept, in [0, 1]. */
  support_recall: number;
}

const gradedRowSchema = z.extend(z.omit(answerRowObject, { created_at: true }), {
  grade_correct: z.boolean(),
  grade_rule: z.enum(GRADE_RULES),
  grader_version: z.string(),
  question_type: z.string(),
  support_all_retained: z.boolean(),
  support_recall: z.number().check(z.minimum(0), z.maximum(1)),
});

/**
 * The graded row schema: exactly these 19 fields (the answer row's without `created_at`, and the grade's).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { GradedRow } from "./outputs.ts";
 * const graded = {
 *   attempts: 1,
 *   capacity: 7,
 *   case_id: "q1",
 *   kept_fact_ids: ["f1"],
 *   policy: "hybrid-v1",
 *   prediction: "7 weeks",
 *   request_fingerprint: "0".repeat(64),
 *   response_model: "m",
 *   row_id: "q1__hybrid-v1",
 *   scenario: "access_help",
 *   schema_version: 1,
 *   source: "longmemeval",
 *   usage: {},
 *   grade_correct: true,
 *   grade_rule: "exact",
 *   grader_version: "deterministic-overlap-v1",
 *   question_type: "single-session-user",
 *   support_all_retained: true,
 *   support_recall: 1,
 * };
 * strictEqual(GradedRow.parse(graded).grade_rule, "exact");
 * strictEqual(GradedRow.safeParse({ ...graded, created_at: "2026-11-29T11:12:02Z" }).success, false);
 * strictEqual(GradedRow.safeParse({ ...graded, support_recall: 1.5 }).success, false);
 * ```
 */
export const GradedRow: Schema<GradedRow> = gradedRowSchema;

// The hand-written type must stay the schema's own: this line stops compiling when they drift apart.
const _sameGraded: SameType<GradedRow, z.infer<typeof gradedRowSchema>> = true;

/**
 * Serialises graded rows as `qa.rows.jsonl` (compact sorted-key lines; `support_recall` a float).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { type GradedRow, gradedRowsJsonl } from "./outputs.ts";
 * const graded = (case_id: string, policy: GradedRow["policy"], grade_correct: boolean, source: GradedRow["source"]): GradedRow => ({
 *   attempts: 1, capacity: 7, case_id, kept_fact_ids: [], policy, prediction: "x", request_fingerprint: "0".repeat(64),
 *   response_model: null, row_id: `${case_id}__${policy}`, scenario: "access_help", schema_version: 1, source, usage: {},
 *   grade_correct, grade_rule: "exact", grader_version: "deterministic-overlap-v1", question_type: "t",
 *   support_all_retained: true, support_recall: 1,
 * });
 * const text = gradedRowsJsonl([graded("q1", "hybrid-v1", true, "longmemeval")]);
 * strictEqual(text.includes('"support_recall": 1.0'), true); // a float, as Python writes it
 * strictEqual(text.split("\n").length, 2); // one line, newline-terminated
 * ```
 */
export function gradedRowsJsonl(rows: readonly GradedRow[]): string {
  return rows.map((row) =>
    dumps({ ...row, support_recall: new PyFloat(row.support_recall) } as PyJson) + "\n"
  ).join("");
}

/**
 * Parses `qa.rows.jsonl` text: every line must be a {@linkcode GradedRow}, at the QA capacity, with this
 * grader's version, and every case must have both policies exactly once.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { RowIntegrityError } from "../base/errors.ts";
 * import { type GradedRow, gradedRowsJsonl, parseGradedRows } from "./outputs.ts";
 * const graded = (case_id: string, policy: GradedRow["policy"], grade_correct: boolean, source: GradedRow["source"]): GradedRow => ({
 *   attempts: 1, capacity: 7, case_id, kept_fact_ids: [], policy, prediction: "x", request_fingerprint: "0".repeat(64),
 *   response_model: null, row_id: `${case_id}__${policy}`, scenario: "access_help", schema_version: 1, source, usage: {},
 *   grade_correct, grade_rule: "exact", grader_version: "deterministic-overlap-v1", question_type: "t",
 *   support_all_retained: true, support_recall: 1,
 * });
 * const { config } = loadContracts(embeddedSources()); // qa_capacity 7
 * const text = gradedRowsJsonl([graded("q1", "confidence", false, "longmemeval"), graded("q1", "hybrid-v1", true, "longmemeval")]);
 * strictEqual(parseGradedRows(text, "qa.rows.jsonl", config).length, 2);
 * throws(() => parseGradedRows(text.split("\n")[0], "qa.rows.jsonl", config), RowIntegrityError); // one policy missing
 * ```
 */
export function parseGradedRows(text: string, path: string, config: ProtocolConfig): GradedRow[] {
  const rows: GradedRow[] = [];
  for (const { value: row, line } of parseJsonLines(text, path, GradedRow, { error: RowIntegrityError })) {
    if (row.capacity !== config.pool.qa_capacity) {
      throw new RowIntegrityError(
        `line ${line}: expected capacity ${config.pool.qa_capacity}, got ${row.capacity}`,
        {
          path,
          field: "capacity",
        },
      );
    }
    if (row.grader_version !== GRADER_VERSION) {
      throw new RowIntegrityError(
        `line ${line}: expected ${GRADER_VERSION}, got ${row.grader_version}`,
        {
          path,
          field: "grader_version",
        },
      );
    }
    rows.push(row);
  }
  const byCase = new Map<string, string[]>();
  for (const row of rows) byCase.set(row.case_id, [...(byCase.get(row.case_id) ?? []), row.policy]);
  for (const [caseId, policies] of byCase) {
    if (policies.length !== 2 || !POLICIES.every((policy) => policies.includes(policy))) {
      throw new RowIntegrityError(
        `case ${caseId} must have exactly one row per policy, has ${policies.join(", ")}`,
        {
          path,
          field: "policy",
        },
      );
    }
  }
  return rows;
}

/** One `qa.summary.json` group: accuracy of one policy on one (source, scenario). */
export interface QaSummaryGroup {
  accuracy: number;
  cases: number;
  correct: number;
  policy: string;
  scenario: string;
  source: string;
}

/**
 * The groups of `qa.summary.json` as values: accuracy per (source, scenario, policy), sorted by those keys.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { type GradedRow, qaSummaryGroups } from "./outputs.ts";
 * const graded = (case_id: string, policy: GradedRow["policy"], grade_correct: boolean, source: GradedRow["source"]): GradedRow => ({
 *   attempts: 1, capacity: 7, case_id, kept_fact_ids: [], policy, prediction: "x", request_fingerprint: "0".repeat(64),
 *   response_model: null, row_id: `${case_id}__${policy}`, scenario: "access_help", schema_version: 1, source, usage: {},
 *   grade_correct, grade_rule: "exact", grader_version: "deterministic-overlap-v1", question_type: "t",
 *   support_all_retained: true, support_recall: 1,
 * });
 * const groups = qaSummaryGroups([graded("q1", "hybrid-v1", true, "longmemeval"), graded("q2", "hybrid-v1", false, "longmemeval")]);
 * deepStrictEqual(groups, [{ accuracy: 0.5, cases: 2, correct: 1, policy: "hybrid-v1", scenario: "access_help", source: "longmemeval" }]);
 * ```
 */
export function qaSummaryGroups(rows: readonly GradedRow[]): QaSummaryGroup[] {
  const groups = groupBy(rows, (row) => [row.source, row.scenario, row.policy]);
  return groups.map((members) => {
    const correct = members.filter((member) => member.grade_correct).length;
    return {
      accuracy: correct / members.length,
      cases: members.length,
      correct,
      policy: members[0].policy,
      scenario: members[0].scenario,
      source: members[0].source,
    };
  }).sort((a, b) =>
    compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
    compareCodePoints(a.policy, b.policy)
  );
}

/**
 * `qa.summary.json`: accuracy per (source, scenario, policy), sorted by those keys.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { type GradedRow, qaSummary } from "./outputs.ts";
 * const graded = (case_id: string, policy: GradedRow["policy"], grade_correct: boolean, source: GradedRow["source"]): GradedRow => ({
 *   attempts: 1, capacity: 7, case_id, kept_fact_ids: [], policy, prediction: "x", request_fingerprint: "0".repeat(64),
 *   response_model: null, row_id: `${case_id}__${policy}`, scenario: "access_help", schema_version: 1, source, usage: {},
 *   grade_correct, grade_rule: "exact", grader_version: "deterministic-overlap-v1", question_type: "t",
 *   support_all_retained: true, support_recall: 1,
 * });
 * const { config } = loadContracts(embeddedSources());
 * const summary = JSON.parse(qaSummary([graded("q1", "confidence", true, "synthetic")], config));
 * strictEqual(summary.qa_capacity, 7);
 * strictEqual(summary.groups[0].accuracy, 1);
 * ```
 */
export function qaSummary(rows: readonly GradedRow[], config: ProtocolConfig): string {
  const summary = qaSummaryGroups(rows).map((group) => ({ ...group, accuracy: new PyFloat(group.accuracy) }));
  return dumps({
    grader_version: GRADER_VERSION,
    groups: summary,
    protocol_id: config.protocol_id,
    qa_capacity: config.pool.qa_capacity,
    schema_version: 1,
  }, { indent: 2 }) + "\n";
}

/** One suite of `qa.stats.json` as values: exact McNemar and the bootstrap (hybrid-v1 minus confidence). */
export interface QaSuiteStats {
  bootstrap: BootstrapResult & { alpha: number; iterations: number; seed: bigint };
  cases: number;
  mcnemar: McnemarResult;
}

/** The three suites of `qa.stats.json`, never merged otherwise. */
export interface QaStatsSuites {
  official: QaSuiteStats;
  overall: QaSuiteStats;
  synthetic: QaSuiteStats;
}

function suite(rows: readonly GradedRow[], config: ProtocolConfig): QaSuiteStats {
  const caseIds = [...new Set(rows.map((row) => row.case_id))].sort(compareCodePoints);
  const pairs: Pair[] = caseIds.map((caseId) => {
    const outcome = (policy: string) =>
      rows.find((row) => row.case_id === caseId && row.policy === policy)!.grade_correct;
    return [outcome(POLICIES[0]), outcome(POLICIES[1])];
  });
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = config.statistics;
  const mcnemar = exactMcnemar(pairs);
  const bootstrap = pairedBootstrapDifference(pairs, { seed, iterations, alpha });
  return { bootstrap: { alpha, iterations, ...bootstrap, seed }, cases: pairs.length, mcnemar };
}

function suiteJson(stats: QaSuiteStats): PyJson {
  const { bootstrap, mcnemar } = stats;
  return {
    bootstrap: {
      alpha: new PyFloat(bootstrap.alpha),
      iterations: bootstrap.iterations,
      lower: new PyFloat(bootstrap.lower),
      mean_difference: new PyFloat(bootstrap.mean_difference),
      seed: bootstrap.seed,
      upper: new PyFloat(bootstrap.upper),
    },
    cases: stats.cases,
    mcnemar: { ...mcnemar, p_value: new PyFloat(mcnemar.p_value) },
  };
}

/**
 * The suites of `qa.stats.json` as values: `official`, `synthetic` and `overall`, pairs by case id.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { type GradedRow, qaStatsSuites } from "./outputs.ts";
 * const graded = (case_id: string, policy: GradedRow["policy"], grade_correct: boolean, source: GradedRow["source"]): GradedRow => ({
 *   attempts: 1, capacity: 7, case_id, kept_fact_ids: [], policy, prediction: "x", request_fingerprint: "0".repeat(64),
 *   response_model: null, row_id: `${case_id}__${policy}`, scenario: "access_help", schema_version: 1, source, usage: {},
 *   grade_correct, grade_rule: "exact", grader_version: "deterministic-overlap-v1", question_type: "t",
 *   support_all_retained: true, support_recall: 1,
 * });
 * const { config } = loadContracts(embeddedSources());
 * const rows = ["q1", "q2"].flatMap((id) => [graded(id, "confidence", false, "longmemeval"), graded(id, "hybrid-v1", true, "longmemeval")]);
 * const suites = qaStatsSuites([...rows, graded("s1", "confidence", true, "synthetic"), graded("s1", "hybrid-v1", true, "synthetic")], config);
 * strictEqual(suites.official.mcnemar.p_value, 0.5); // two discordant pairs, both for hybrid-v1
 * strictEqual(suites.overall.cases, 3);
 * ```
 */
export function qaStatsSuites(rows: readonly GradedRow[], config: ProtocolConfig): QaStatsSuites {
  return {
    official: suite(rows.filter((row) => row.source === "longmemeval"), config),
    overall: suite(rows, config),
    synthetic: suite(rows.filter((row) => row.source === "synthetic"), config),
  };
}

/**
 * `qa.stats.json`: suites `official`, `synthetic` and `overall` (hybrid-v1 minus confidence), pairs by case id.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { type GradedRow, qaStats } from "./outputs.ts";
 * const graded = (case_id: string, policy: GradedRow["policy"], grade_correct: boolean, source: GradedRow["source"]): GradedRow => ({
 *   attempts: 1, capacity: 7, case_id, kept_fact_ids: [], policy, prediction: "x", request_fingerprint: "0".repeat(64),
 *   response_model: null, row_id: `${case_id}__${policy}`, scenario: "access_help", schema_version: 1, source, usage: {},
 *   grade_correct, grade_rule: "exact", grader_version: "deterministic-overlap-v1", question_type: "t",
 *   support_all_retained: true, support_recall: 1,
 * });
 * const { config } = loadContracts(embeddedSources());
 * const rows = [graded("q1", "confidence", false, "longmemeval"), graded("q1", "hybrid-v1", true, "longmemeval"),
 *   graded("s1", "confidence", false, "synthetic"), graded("s1", "hybrid-v1", true, "synthetic")];
 * const stats = JSON.parse(qaStats(rows, config));
 * strictEqual(stats.suites.overall.mcnemar.p_value, 0.5);
 * strictEqual(stats.suites.official.cases, 1);
 * ```
 */
export function qaStats(rows: readonly GradedRow[], config: ProtocolConfig): string {
  return qaStatsOf(qaStatsSuites(rows, config), config);
}

/**
 * `qa.stats.json` from its suites as values (see {@linkcode qaStats}).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { type GradedRow, qaStats, qaStatsOf, qaStatsSuites } from "./outputs.ts";
 * const graded = (case_id: string, policy: GradedRow["policy"], grade_correct: boolean, source: GradedRow["source"]): GradedRow => ({
 *   attempts: 1, capacity: 7, case_id, kept_fact_ids: [], policy, prediction: "x", request_fingerprint: "0".repeat(64),
 *   response_model: null, row_id: `${case_id}__${policy}`, scenario: "access_help", schema_version: 1, source, usage: {},
 *   grade_correct, grade_rule: "exact", grader_version: "deterministic-overlap-v1", question_type: "t",
 *   support_all_retained: true, support_recall: 1,
 * });
 * const { config } = loadContracts(embeddedSources());
 * const rows = [graded("q1", "confidence", true, "longmemeval"), graded("q1", "hybrid-v1", true, "longmemeval"),
 *   graded("s1", "confidence", false, "synthetic"), graded("s1", "hybrid-v1", true, "synthetic")];
 * strictEqual(qaStatsOf(qaStatsSuites(rows, config), config), qaStats(rows, config));
 * ```
 */
export function qaStatsOf(suites: QaStatsSuites, config: ProtocolConfig): string {
  return dumps({
    grader_version: GRADER_VERSION,
    policies: [...POLICIES],
    protocol_id: config.protocol_id,
    schema_version: 1,
    suites: {
      official: suiteJson(suites.official),
      overall: suiteJson(suites.overall),
      synthetic: suiteJson(suites.synthetic),
    },
  }, { indent: 2 }) + "\n";
}

/**
 * One line per suite for the terminal: `official: confidence 23/40, hybrid-v1 35/40, exact McNemar p=0.0018`,
 * from the rows and the suites' values (as `qa.stats.json` holds them).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { type GradedRow, qaStatsSuites, suiteLines } from "./outputs.ts";
 * const graded = (case_id: string, policy: GradedRow["policy"], grade_correct: boolean, source: GradedRow["source"]): GradedRow => ({
 *   attempts: 1, capacity: 7, case_id, kept_fact_ids: [], policy, prediction: "x", request_fingerprint: "0".repeat(64),
 *   response_model: null, row_id: `${case_id}__${policy}`, scenario: "access_help", schema_version: 1, source, usage: {},
 *   grade_correct, grade_rule: "exact", grader_version: "deterministic-overlap-v1", question_type: "t",
 *   support_all_retained: true, support_recall: 1,
 * });
 * const { config } = loadContracts(embeddedSources());
 * const rows = [graded("q1", "confidence", false, "longmemeval"), graded("q1", "hybrid-v1", true, "longmemeval"),
 *   graded("s1", "confidence", false, "synthetic"), graded("s1", "hybrid-v1", true, "synthetic")];
 * strictEqual(suiteLines(rows, qaStatsSuites(rows, config))[0], "official: confidence 0/1, hybrid-v1 1/1, exact McNemar p=1.0000");
 * ```
 */
export function suiteLines(rows: readonly GradedRow[], suites: QaStatsSuites): string[] {
  const members: [keyof QaStatsSuites, GradedRow[]][] = [
    ["official", rows.filter((row) => row.source === "longmemeval")],
    ["synthetic", rows.filter((row) => row.source === "synthetic")],
    ["overall", [...rows]],
  ];
  return members.map(([name, suiteRows]) => {
    const { cases, mcnemar } = suites[name];
    const counts = POLICIES.map((policy) =>
      `${policy} ${suiteRows.filter((row) => row.policy === policy && row.grade_correct).length}/${cases}`
    );
    return `${name}: ${counts.join(", ")}, exact McNemar p=${mcnemar.p_value.toFixed(4)}`;
  });
}
