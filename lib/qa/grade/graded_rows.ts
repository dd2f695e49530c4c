/**
 * Graded rows: `qa.rows.jsonl`, one line per answer row graded — the answer row without its creation time,
 * plus the grade and the case's support facts — written and read back exactly as the reference does.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import { parseJsonLines, RowIntegrityError, type SameType, type Schema } from "../../base/mod.ts";
import type { ProtocolConfig } from "../../protocol/mod.ts";
import { dumps, PyFloat, type PyJson } from "../../py/mod.ts";
import { type AnswerRow, answerRowObject } from "../run/answer_rows.ts";
import { GRADE_RULES, gradeAnswer, GRADER_VERSION, type GradeRule } from "./grading.ts";
import type { AnswerTask } from "../run/tasks.ts";
import { type PolicyPair, PUBLISHED_PAIR } from "../run/candidate.ts";

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
 * import { GradedRow } from "./graded_rows.ts";
 * import { graded } from "./_samples.ts";
 * const row = graded("q1", "hybrid-v1", true, "longmemeval");
 * strictEqual(GradedRow.parse(row).grade_rule, "exact");
 * strictEqual(GradedRow.safeParse({ ...row, created_at: "2026-11-29T11:12:02Z" }).success, false);
 * strictEqual(GradedRow.safeParse({ ...row, support_recall: 1.5 }).success, false);
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
 * import { gradedRowsJsonl } from "./graded_rows.ts";
 * import { graded } from "./_samples.ts";
 * const text = gradedRowsJsonl([graded("q1", "hybrid-v1", true, "longmemeval")]);
 * strictEqual(text.includes('"support_recall": 1.0'), true); // a float, as Python writes it
 * strictEqual(text.split("\n").length, 2); // one line, newline-terminated
 * ```
 */
export function gradedRowsJsonl(rows: readonly GradedRow[]): string {
  return rows.map(gradedRowLine).join("");
}

/** One graded row as its line of `qa.rows.jsonl`, `\n` included (what {@linkcode gradedRowsJsonl} joins). */
export function gradedRowLine(row: GradedRow): string {
  return dumps({ ...row, support_recall: new PyFloat(row.support_recall) } as PyJson) + "\n";
}

/** Where a response row is not the answer its graded row recorded: the field and why. */
export interface AnswerMismatch {
  /** The answer row's field that differs (`row_id` when the row was not graded at all). */
  field: string;
  /** Why, naming `qa.rows.jsonl`. */
  reason: string;
}

/**
 * Whether `row` (a `responses/` file) is the answer `graded` (its row in `qa.rows.jsonl`) recorded, field for
 * field, its creation time aside: the one comparison `verify` and `run-qa --reuse` make. `undefined` when it
 * is.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { answerMismatch } from "./graded_rows.ts";
 * import { graded } from "./_samples.ts";
 * const grade = graded("q1", "hybrid-v1", true, "longmemeval");
 * const { grade_correct: _c, grade_rule: _r, grader_version: _v, question_type: _q, support_all_retained: _s, support_recall: _p, ...answer } = grade;
 * const row = { ...answer, created_at: "2026-11-29T11:12:02Z" };
 * strictEqual(answerMismatch(row, grade), undefined);
 * deepStrictEqual(answerMismatch({ ...row, prediction: "y" }, grade), {
 *   field: "prediction",
 *   reason: "differs from what qa.rows.jsonl graded (changed after grading)",
 * });
 * strictEqual(answerMismatch(row, undefined)?.field, "row_id");
 * ```
 */
export function answerMismatch(
  row: AnswerRow,
  graded: Omit<AnswerRow, "created_at"> | undefined,
): AnswerMismatch | undefined {
  if (graded === undefined) return { field: "row_id", reason: "not among the rows qa.rows.jsonl graded" };
  const recorded = graded as Record<string, unknown>;
  const answer = row as unknown as Record<string, unknown>;
  for (const field of Object.keys(answerRowObject.shape)) {
    if (field === "created_at") continue;
    if (JSON.stringify(answer[field]) !== JSON.stringify(recorded[field])) {
      return { field, reason: "differs from what qa.rows.jsonl graded (changed after grading)" };
    }
  }
  return undefined;
}

/**
 * Parses `qa.rows.jsonl` text: every line must be a {@linkcode GradedRow}, at the QA capacity, with this
 * grader's version, and every case must have both policies of the pair (default the published pair) exactly once.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { RowIntegrityError } from "../../base/errors.ts";
 * import { gradedRowsJsonl, parseGradedRows } from "./graded_rows.ts";
 * import { graded } from "./_samples.ts";
 * const { config } = await loadContracts(embeddedSources()); // qa_capacity 7
 * const text = gradedRowsJsonl([graded("q1", "confidence", false, "longmemeval"), graded("q1", "hybrid-v1", true, "longmemeval")]);
 * strictEqual(parseGradedRows(text, "qa.rows.jsonl", config).length, 2);
 * throws(() => parseGradedRows(text.split("\n")[0], "qa.rows.jsonl", config), RowIntegrityError); // one policy missing
 * ```
 */
export function parseGradedRows(
  text: string | Uint8Array,
  path: string,
  config: ProtocolConfig,
  pair: PolicyPair = PUBLISHED_PAIR,
): GradedRow[] {
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
    if (policies.length !== 2 || !pair.every((policy) => policies.includes(policy))) {
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

/**
 * A task's answer row graded: the identity and support fields from the recomputed task, the prediction, usage
 * and attempts from the row, and the grade against the task's reference answer.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/mod.ts";
 * import { buildAnswerTasks } from "../mod.ts";
 * import { answerRow } from "../run/answer_rows.ts";
 * import { gradedRow } from "./graded_rows.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const [task] = await buildAnswerTasks(contracts, cases);
 * const answer = { prediction: task.referenceAnswer, responseModel: "m", usage: {} };
 * const graded = gradedRow(task, answerRow(task, answer, 1, "2026-11-29T00:00:00Z")); // the task's answer decides
 * deepStrictEqual([graded.grade_correct, graded.question_type, "created_at" in graded], [true, task.questionType, false]);
 * ```
 */
export function gradedRow(task: AnswerTask, row: AnswerRow): GradedRow {
  // The reference answer comes from the recomputed case; nothing in the row chooses it.
  const grade = gradeAnswer(row.prediction, task.referenceAnswer);
  return {
    attempts: row.attempts,
    capacity: task.capacity,
    case_id: task.caseId,
    grade_correct: grade.correct,
    grade_rule: grade.rule,
    grader_version: GRADER_VERSION,
    kept_fact_ids: [...task.keptFactIds],
    policy: task.policy,
    ...task.module,
    prediction: row.prediction,
    question_type: task.questionType,
    request_fingerprint: task.requestFingerprint,
    response_model: row.response_model,
    row_id: task.rowId,
    scenario: task.scenario,
    schema_version: 1,
    source: task.source,
    support_all_retained: task.supportAllRetained,
    support_recall: task.supportRecall,
    usage: row.usage,
  };
}
