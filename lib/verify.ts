/**
 * `verify`: proves offline that a published results directory follows from its rows — summary and statistics
 * recomputed byte for byte, the run marker's five artifact hashes against the protocol in use, and (with the
 * dataset) every row's identity, kept facts, fingerprint and grade against the recomputed tasks.
 *
 * @module
 */

import type { Contracts } from "./contracts.ts";
import { gradeAnswer } from "./grading.ts";
import { readTextIfExists } from "./fs.ts";
import { differingArtifacts } from "./marker.ts";
import { type GradedRow, parseGradedRows, qaStats, qaSummary } from "./qa_outputs.ts";
import { identityMismatches } from "./rows.ts";
import type { AnswerTask } from "./tasks.ts";

/** One check's outcome. */
export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

/**
 * Compares every row with its recomputed task (identity, kept facts, fingerprint) and re-grades it against the
 * recomputed reference answer. Returns one message per disagreement.
 *
 * @example
 * ```ts ignore
 * import { checkRowsAgainstTasks } from "./verify.ts";
 * const problems = checkRowsAgainstTasks(rows, tasks);
 * ```
 */
export function checkRowsAgainstTasks(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): string[] {
  const problems: string[] = [];
  const byRowId = new Map(rows.map((row) => [row.row_id, row]));
  for (const task of tasks) {
    const row = byRowId.get(task.rowId);
    if (row === undefined) {
      problems.push(`${task.rowId}: missing`);
      continue;
    }
    const fields: [string, unknown, unknown][] = [
      ["question_type", row.question_type, task.questionType],
      ["support_all_retained", row.support_all_retained, task.supportAllRetained],
      ["support_recall", row.support_recall, task.supportRecall],
    ];
    const differing = [
      ...identityMismatches(row, task).map((mismatch) => mismatch.field),
      ...fields.filter(([, stored, recomputed]) => stored !== recomputed).map(([field]) => field),
    ];
    for (const field of differing) problems.push(`${task.rowId}: ${field} differs from the recomputed task`);
    const grade = gradeAnswer(row.prediction, task.referenceAnswer);
    if (grade.correct !== row.grade_correct || grade.rule !== row.grade_rule) {
      problems.push(
        `${task.rowId}: grade ${row.grade_correct}/${row.grade_rule} but re-grading gives ${grade.correct}/${grade.rule}`,
      );
    }
  }
  const known = new Set(tasks.map((task) => task.rowId));
  for (const row of rows) {
    if (!known.has(row.row_id)) problems.push(`${row.row_id}: not a task of this protocol`);
  }
  return problems;
}

/**
 * Runs every check on a results directory. `tasks` (from the dataset) enables the per-row checks.
 *
 * @example
 * ```ts ignore
 * import { verifyResults } from "./verify.ts";
 * const checks = await verifyResults("results/pr4789-reproduction-v1", contracts);
 * ```
 */
export async function verifyResults(
  directory: string,
  contracts: Contracts,
  tasks?: readonly AnswerTask[],
): Promise<Check[]> {
  const checks: Check[] = [];
  const rowsText = await readTextIfExists(`${directory}/qa.rows.jsonl`);
  let rows: GradedRow[] | undefined;
  if (rowsText === undefined) {
    checks.push({ name: "qa.rows.jsonl is present", ok: false, detail: "missing" });
  } else {
    try {
      rows = parseGradedRows(rowsText, `${directory}/qa.rows.jsonl`, contracts.config);
      checks.push({
        name: `qa.rows.jsonl: ${rows.length} rows match the row schema, QA capacity, grader and policies`,
        ok: true,
      });
    } catch (error) {
      checks.push({
        name: "qa.rows.jsonl matches the row schema",
        ok: false,
        detail: (error as Error).message,
      });
    }
  }
  for (const [file, derive] of [["qa.summary.json", qaSummary], ["qa.stats.json", qaStats]] as const) {
    const published = await readTextIfExists(`${directory}/${file}`);
    if (rows === undefined || published === undefined) {
      checks.push({
        name: `${file} re-derived byte for byte from the rows`,
        ok: false,
        detail: published === undefined ? "missing" : "rows unreadable",
      });
      continue;
    }
    const derived = derive(rows, contracts.config);
    const firstDiff = [...derived].findIndex((char, index) => published[index] !== char);
    checks.push({
      name: `${file} re-derived byte for byte from the rows`,
      ok: derived === published,
      detail: derived === published
        ? undefined
        : `first difference at byte ${firstDiff < 0 ? derived.length : firstDiff}`,
    });
  }
  const markerText = await readTextIfExists(`${directory}/qa_run.json`);
  if (markerText === undefined) {
    checks.push({ name: "qa_run.json artifact hashes match the protocol", ok: false, detail: "missing" });
  } else {
    let marker: unknown;
    try {
      marker = JSON.parse(markerText);
    } catch {
      marker = {};
    }
    const differing = differingArtifacts(marker, contracts);
    checks.push({
      name: "qa_run.json: the five artifact hashes match the protocol in use",
      ok: differing.length === 0,
      detail: differing.length === 0 ? undefined : `differ: ${differing.join(", ")}`,
    });
  }
  if (tasks !== undefined && rows !== undefined) {
    const problems = checkRowsAgainstTasks(rows, tasks);
    checks.push({
      name:
        `every row matches its recomputed task (identity, kept facts, fingerprint) and re-grades the same`,
      ok: problems.length === 0,
      detail: problems.length === 0
        ? undefined
        : `${problems.length} problem(s): ${problems.slice(0, 3).join("; ")}`,
    });
  }
  return checks;
}

/**
 * The report: one line per check with ✓/✗ and a final verdict.
 *
 * @example
 * ```ts
 * import { formatChecks } from "./verify.ts";
 * console.log(formatChecks([{ name: "a", ok: true }])); // "✓ a\nverified: every check holds"
 * ```
 */
export function formatChecks(checks: readonly Check[]): string {
  const lines = checks.map((check) =>
    `${check.ok ? "✓" : "✗"} ${check.name}${check.detail ? ` — ${check.detail}` : ""}`
  );
  const failed = checks.filter((check) => !check.ok).length;
  lines.push(failed === 0 ? "verified: every check holds" : `NOT verified: ${failed} check(s) failed`);
  return lines.join("\n");
}
