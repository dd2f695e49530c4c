/**
 * The checks of graded rows that need no file: their structure, their canonical serialisation, and each row
 * against its recomputed task (identity, case fields, a blind re-grade).
 *
 * @module
 */

import {
  type AnswerTask,
  gradeAnswer,
  type GradedRow,
  gradedRowLine,
  gradedRowsJsonl,
  identityMismatches,
  type PolicyPair,
  PUBLISHED_PAIR,
} from "../qa/mod.ts";
import { POLICIES } from "../policy/mod.ts";
import { compareCodePoints, decodeStrictUtf8 } from "../base/mod.ts";
import { jsonBomRefusal, jsonObjectOf } from "../py/mod.ts";
import { firstByteDifference } from "./checks.ts";

/**
 * Compares every row with its recomputed task (identity, kept facts, fingerprint) and re-grades it against the
 * recomputed reference answer. Returns one message per disagreement.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { demoGradedRun } from "../qa/mod.ts";
 * import { checkRowsAgainstTasks } from "./row_checks.ts";
 * const { tasks, rows } = await demoGradedRun();
 * deepStrictEqual(checkRowsAgainstTasks(rows, tasks), []);
 * const flipped = { ...rows[0], grade_correct: false };
 * deepStrictEqual(checkRowsAgainstTasks([flipped, ...rows.slice(1)], tasks), [
 *   `${flipped.row_id}: grade false/exact but re-grading gives true/exact`,
 * ]);
 * ```
 */
export function checkRowsAgainstTasks(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): string[] {
  return [
    ...identityProblems(rows, tasks),
    ...caseFieldProblems(rows, tasks),
    ...gradeProblems(rows, tasks),
  ];
}

function pairs(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): [GradedRow, AnswerTask][] {
  const byRowId = new Map(rows.map((row) => [row.row_id, row]));
  return tasks.flatMap((task) => {
    const row = byRowId.get(task.rowId);
    return row === undefined ? [] : [[row, task] as [GradedRow, AnswerTask]];
  });
}

export function identityProblems(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): string[] {
  const problems: string[] = [];
  const present = new Set(rows.map((row) => row.row_id));
  for (const task of tasks) if (!present.has(task.rowId)) problems.push(`${task.rowId}: missing`);
  const known = new Set(tasks.map((task) => task.rowId));
  for (const row of rows) {
    if (!known.has(row.row_id)) problems.push(`${row.row_id}: not a task of this protocol`);
  }
  for (const [row, task] of pairs(rows, tasks)) {
    for (const mismatch of identityMismatches(row, task)) {
      problems.push(`${task.rowId}: ${mismatch.field} differs from the recomputed task`);
    }
  }
  return problems;
}

/** A value as a message shows it; -0 as the -0.0 the file holds (JSON.stringify would say 0). */
function shown(value: unknown): string {
  return Object.is(value, -0) ? "-0.0" : JSON.stringify(value);
}

export function caseFieldProblems(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): string[] {
  const problems: string[] = [];
  for (const [row, task] of pairs(rows, tasks)) {
    const fields: [string, unknown, unknown][] = [
      ["question_type", row.question_type, task.questionType],
      ["support_all_retained", row.support_all_retained, task.supportAllRetained],
      ["support_recall", row.support_recall, task.supportRecall],
    ];
    for (const [field, stored, recomputed] of fields) {
      // Object.is: -0.0 is not what grade-qa writes for 0.0, though -0 === 0.
      if (!Object.is(stored, recomputed)) {
        problems.push(`${task.rowId}: ${field} is ${shown(stored)}, recomputed ${shown(recomputed)}`);
      }
    }
  }
  return problems;
}

export function gradeProblems(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): string[] {
  const problems: string[] = [];
  for (const [row, task] of pairs(rows, tasks)) {
    // The reference answer comes from the recomputed case; nothing in the row chooses it.
    const grade = gradeAnswer(row.prediction, task.referenceAnswer);
    if (grade.correct !== row.grade_correct || grade.rule !== row.grade_rule) {
      problems.push(
        `${task.rowId}: grade ${row.grade_correct}/${row.grade_rule} but re-grading gives ${grade.correct}/${grade.rule}`,
      );
    }
  }
  return problems;
}

/**
 * The structural problems of parsed rows: one row per (case, policy) for both policies of the pair (default the
 * published pair), a module named by the candidate's rows and only by them, no duplicate row id,
 * row ids of the form `CASE__POLICY`, and exactly the QA capacity's number of kept facts, without duplicates.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { demoGradedRun } from "../qa/mod.ts";
 * import { structureProblems } from "./row_checks.ts";
 * const { rows } = await demoGradedRun();
 * deepStrictEqual(structureProblems(rows, 7), []); // one row per case and policy, 7 kept facts each
 * const [first, ...rest] = rows; // drop one policy's row of the first case
 * deepStrictEqual(structureProblems(rest, 7), [`case ${first.case_id} has hybrid-v1, expected one row per policy`]);
 * ```
 */
export function structureProblems(
  rows: readonly GradedRow[],
  capacity: number,
  pair: PolicyPair = PUBLISHED_PAIR,
): string[] {
  const problems: string[] = [];
  if (rows.length === 0) return ["no rows"];
  const seen = new Set<string>();
  const policiesByCase = new Map<string, string[]>();
  for (const row of rows) {
    if (seen.has(row.row_id)) problems.push(`${row.row_id}: duplicate row`);
    seen.add(row.row_id);
    if (row.row_id !== `${row.case_id}__${row.policy}`) {
      problems.push(`${row.row_id}: row_id is not ${row.case_id}__${row.policy}`);
    }
    if ((row.policy_module !== undefined) !== !(POLICIES as readonly string[]).includes(row.policy)) {
      problems.push(`${row.row_id}: policy_module is given for a policy module's rows and only for them`);
    }
    if (row.kept_fact_ids.length !== capacity) {
      problems.push(`${row.row_id}: ${row.kept_fact_ids.length} kept facts, the QA capacity is ${capacity}`);
    } else if (new Set(row.kept_fact_ids).size !== capacity) {
      problems.push(`${row.row_id}: a kept fact id repeats`);
    }
    policiesByCase.set(row.case_id, [...(policiesByCase.get(row.case_id) ?? []), row.policy]);
  }
  for (const [caseId, policies] of policiesByCase) {
    if (policies.length !== pair.length || !pair.every((policy) => policies.includes(policy))) {
      problems.push(`case ${caseId} has ${policies.join(", ")}, expected one row per policy`);
    }
  }
  return problems;
}

/**
 * Where a file's bytes first depart from the canonical serialisation of its rows (its UTF-8 bytes), or
 * `undefined` when they are identical byte for byte.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { demoGradedRun, gradedRowsJsonl } from "../qa/mod.ts";
 * import { canonicalDifference } from "./row_checks.ts";
 * const { rows } = await demoGradedRun();
 * const utf8 = (text: string) => new TextEncoder().encode(text);
 * strictEqual(canonicalDifference(utf8(gradedRowsJsonl(rows)), rows), undefined);
 * const crlf = gradedRowsJsonl(rows).replace("\n", "\r\n");
 * strictEqual(canonicalDifference(utf8(crlf), rows), "line 1: ends with CR (expected \\n line ends)");
 * strictEqual(canonicalDifference(utf8("\ufeff" + gradedRowsJsonl(rows)), rows), "line 1: not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)");
 * ```
 */
export function canonicalDifference(bytes: Uint8Array, rows: readonly GradedRow[]): string | undefined {
  const sorted = [...rows].sort((a, b) => compareCodePoints(a.row_id, b.row_id));
  // Compared a line at a time: the canonical serialisation is never held whole beside the file's bytes.
  const encoder = new TextEncoder();
  let offset = 0;
  let same = true;
  for (const row of sorted) {
    const line = encoder.encode(gradedRowLine(row));
    same = firstByteDifference(bytes.subarray(offset, offset + line.length), line) === undefined;
    if (!same) break;
    offset += line.length;
  }
  if (same && offset === bytes.length) return undefined;
  const canonical = gradedRowsJsonl(sorted);
  const at = firstByteDifference(bytes, encoder.encode(canonical));
  if (at === undefined) return undefined;
  const fallback = `byte ${at} differs from the canonical serialisation`;
  // The bytes differ; their text (a BOM kept) says which line and why, when they are UTF-8 at all.
  let text: string;
  try {
    text = decodeStrictUtf8(bytes);
  } catch {
    return fallback;
  }
  return lineDifference(text, canonical) ?? fallback;
}

function lineDifference(text: string, canonical: string): string | undefined {
  const bom = jsonBomRefusal(text);
  if (bom !== undefined) return `line 1: not valid JSON: ${bom}`;
  const published = text.split("\n");
  const expected = canonical.split("\n");
  let at = 0;
  while (at < published.length && published[at] === expected[at]) at++;
  if (at === published.length && published.length === expected.length) return undefined;
  const got = published[at];
  const want = expected[at];
  if (got === undefined) return `line ${at}: the file must end with \\n`;
  let why: string;
  if (want === undefined || (want === "" && at === expected.length - 1)) {
    why = "extra content after the last row";
  } else if (got === "") why = "an empty line";
  else if (got.endsWith("\r")) why = "ends with CR (expected \\n line ends)";
  else {
    const gotId = jsonObjectOf(got)?.row_id;
    const wantId = jsonObjectOf(want)?.row_id as string;
    why = gotId !== wantId
      ? `holds ${JSON.stringify(gotId)}, expected ${wantId} (rows ordered by row id)`
      : `row ${wantId} is not in canonical form (sorted keys, Python spacing and number forms)`;
  }
  return `line ${at + 1}: ${why}`;
}
