/**
 * A graded row to show the graded-row files with, in examples and nowhere else.
 *
 * @module
 */

import type { GradedRow } from "./graded_rows.ts";

/**
 * A graded row of one case under one policy: the QA capacity 7, an exact grade or none, full support retained.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { graded } from "./_samples.ts";
 * strictEqual(graded("q1", "hybrid-v1", true, "longmemeval").row_id, "q1__hybrid-v1");
 * ```
 */
export function graded(
  case_id: string,
  policy: GradedRow["policy"],
  grade_correct: boolean,
  source: GradedRow["source"],
): GradedRow {
  return {
    attempts: 1,
    capacity: 7,
    case_id,
    kept_fact_ids: [],
    policy,
    prediction: "x",
    request_fingerprint: "0".repeat(64),
    response_model: null,
    row_id: `${case_id}__${policy}`,
    scenario: "access_help",
    schema_version: 1,
    source,
    usage: {},
    grade_correct,
    grade_rule: "exact",
    grader_version: "deterministic-overlap-v1",
    question_type: "t",
    support_all_retained: true,
    support_recall: 1,
  };
}
