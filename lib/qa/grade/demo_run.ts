/**
 * The shared fixture of the QA examples: the demo protocol's 90 tasks, each answered and graded offline.
 *
 * @module
 */

import { compareCodePoints } from "../../base/mod.ts";
import { buildDemoProtocol, type Contracts, prepareDemoProtocol } from "../../protocol/mod.ts";
import { answerRow } from "../run/answer_rows.ts";
import { type GradedRow, gradedRow } from "./graded_rows.ts";
import { type AnswerTask, buildAnswerTasks } from "../run/tasks.ts";

/** The demo protocol with its tasks and their graded rows, ordered by row id as `qa.rows.jsonl` holds them. */
export interface DemoGradedRun {
  contracts: Contracts;
  tasks: AnswerTask[];
  rows: GradedRow[];
}

/**
 * Every demo task answered with its reference answer (so graded correct) unless `wrong` names its row id,
 * which is answered `INSUFFICIENT` instead.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { demoGradedRun } from "./demo_run.ts";
 * const { tasks, rows } = await demoGradedRun(["correction_language__confidence"]);
 * strictEqual(rows.length, tasks.length);
 * strictEqual(rows.filter((row) => !row.grade_correct).map((row) => row.row_id).join(), "correction_language__confidence");
 * ```
 */
export async function demoGradedRun(wrong: readonly string[] = []): Promise<DemoGradedRun> {
  const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
  const tasks = await buildAnswerTasks(contracts, cases);
  const rows = tasks.map((task) => {
    const prediction = wrong.includes(task.rowId) ? "INSUFFICIENT" : task.referenceAnswer;
    const row = answerRow(task, { prediction, responseModel: "demo", usage: {} }, 1, "2026-11-29T00:00:00Z");
    return gradedRow(task, row);
  });
  rows.sort((a, b) => compareCodePoints(a.row_id, b.row_id));
  return { contracts, tasks, rows };
}
