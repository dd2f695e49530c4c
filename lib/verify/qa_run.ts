/**
 * `verify`: proves offline what can be proved about a published results directory, and says exactly what that
 * is. Always: `qa.rows.jsonl` is the canonical serialisation of its parsed rows byte for byte, one row per (case,
 * policy) with the QA capacity's kept facts; the summary and statistics are re-derived byte for byte; the run
 * marker passes the check `grade-qa` applies. With the dataset: every derivable field of every row (identity,
 * kept facts, fingerprint, question type, support fields, grade and rule) is re-derived from the recomputed
 * tasks. What no offline check can prove — the prediction text as the model's, usage, attempts, response model —
 * is named as recorded, not re-derivable.
 *
 * @module
 */

import type { Contracts } from "../protocol/contracts.ts";
import { InputError, UnreadableFileError } from "../base/errors.ts";
import { gradeAnswer } from "../qa/grading.ts";
import { exists, readTextIfExists } from "../base/fs.ts";
import { checkMarker, MARKER_FILE } from "../qa/mod.ts";
import { POLICIES } from "../policy/mod.ts";
import { compareCodePoints } from "../py/json.ts";
import { type GradedRow, gradedRowsJsonl, parseGradedRows, qaStats, qaSummary } from "../qa/mod.ts";
import { identityMismatches } from "../qa/answer_rows.ts";
import { type AnswerTask, buildAnswerTasks } from "../qa/tasks.ts";
import { type ContractPaths, prepareDataset, readContracts } from "../protocol/prepare.ts";

/** A check's verdict: held, did not hold, or not run because it needs the dataset. */
export type Verdict = "pass" | "fail" | "needs-dataset";

/** One check's outcome. */
export interface Check {
  /** What the check proves when it passes. */
  name: string;
  verdict: Verdict;
  /** Why it failed (or what it needs). */
  detail?: string;
}

/**
 * What a passing `verify` proved: `structure-and-statistics` without the dataset (rows' form, summary,
 * statistics, marker), `every-derivable-field` with it.
 */
export type VerifyScope = "structure-and-statistics" | "every-derivable-field";

/** The outcome of {@linkcode verifyResults}: every check, whether all that ran held, and what that proves. */
export interface VerifyResult {
  checks: Check[];
  /** No check failed (checks that need the dataset, when it was not given, are not failures). */
  ok: boolean;
  /** What the checks cover: without the dataset, predictions and grades are not re-derived. */
  scope: VerifyScope;
  /** Row fields that are recorded but that no offline check can prove. */
  notRederivable: readonly string[];
  /** The closing line: exactly what was proved, or how many checks failed. */
  conclusion: string;
}

/** Row fields no offline check can prove: they are what the model and its API returned. */
export const NOT_REDERIVABLE: readonly string[] = [
  "prediction (as the model's text)",
  "usage",
  "attempts",
  "response_model",
];

const ROWS_FILE = "qa.rows.jsonl";

/**
 * Compares every row with its recomputed task (identity, kept facts, fingerprint) and re-grades it against the
 * recomputed reference answer. Returns one message per disagreement.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, match } from "node:assert/strict";
 * import { gradedRow } from "../commands/grade_qa.ts";
 * import { answerRow } from "../qa/answer_rows.ts";
 * import { checkRowsAgainstTasks } from "./qa_run.ts";
 * const task = {
 *   rowId: "q1__hybrid-v1", caseId: "q1", source: "longmemeval" as const, scenario: "access_help",
 *   questionType: "single-session-user", policy: "hybrid-v1" as const, capacity: 7, keptFactIds: ["f1"],
 *   supportAllRetained: true, supportRecall: 1, messages: [{ role: "user" as const, content: "How long?" }],
 *   requestFingerprint: "0".repeat(64), referenceAnswer: "seven weeks",
 * };
 * const row = gradedRow(task, answerRow(task, { prediction: "7", responseModel: null, usage: {} }, 1, "2026-11-29T00:00:00Z"));
 * deepStrictEqual(checkRowsAgainstTasks([row], [task]), []);
 * const [problem] = checkRowsAgainstTasks([{ ...row, grade_correct: !row.grade_correct }], [task]);
 * match(problem, /^q1__hybrid-v1: grade .* but re-grading gives /);
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

function identityProblems(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): string[] {
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

function caseFieldProblems(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): string[] {
  const problems: string[] = [];
  for (const [row, task] of pairs(rows, tasks)) {
    const fields: [string, unknown, unknown][] = [
      ["question_type", row.question_type, task.questionType],
      ["support_all_retained", row.support_all_retained, task.supportAllRetained],
      ["support_recall", row.support_recall, task.supportRecall],
    ];
    for (const [field, stored, recomputed] of fields) {
      if (stored !== recomputed) {
        problems.push(
          `${task.rowId}: ${field} is ${JSON.stringify(stored)}, recomputed ${JSON.stringify(recomputed)}`,
        );
      }
    }
  }
  return problems;
}

function gradeProblems(rows: readonly GradedRow[], tasks: readonly AnswerTask[]): string[] {
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
 * The structural problems of parsed rows: one row per (case, policy) for both policies, no duplicate row id,
 * row ids of the form `CASE__POLICY`, and exactly the QA capacity's number of kept facts, without duplicates.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { gradedRow } from "../commands/grade_qa.ts";
 * import { answerRow } from "../qa/answer_rows.ts";
 * import { structureProblems } from "./qa_run.ts";
 * const task = {
 *   rowId: "q1__hybrid-v1", caseId: "q1", source: "longmemeval" as const, scenario: "access_help",
 *   questionType: "single-session-user", policy: "hybrid-v1" as const, capacity: 7, keptFactIds: ["f1"],
 *   supportAllRetained: true, supportRecall: 1, messages: [{ role: "user" as const, content: "How long?" }],
 *   requestFingerprint: "0".repeat(64), referenceAnswer: "seven weeks",
 * };
 * const other = { ...task, rowId: "q1__confidence", policy: "confidence" as const };
 * const rows = [task, other].map((t) => gradedRow(t, answerRow(t, { prediction: "7", responseModel: null, usage: {} }, 1, "")));
 * deepStrictEqual(structureProblems(rows, 1), []); // one kept fact each at capacity 1
 * deepStrictEqual(structureProblems(rows.slice(1), 1), ["case q1 has confidence, expected one row per policy"]);
 * ```
 */
export function structureProblems(rows: readonly GradedRow[], capacity: number): string[] {
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
    if (row.kept_fact_ids.length !== capacity) {
      problems.push(`${row.row_id}: ${row.kept_fact_ids.length} kept facts, the QA capacity is ${capacity}`);
    } else if (new Set(row.kept_fact_ids).size !== capacity) {
      problems.push(`${row.row_id}: a kept fact id repeats`);
    }
    policiesByCase.set(row.case_id, [...(policiesByCase.get(row.case_id) ?? []), row.policy]);
  }
  for (const [caseId, policies] of policiesByCase) {
    if (policies.length !== POLICIES.length || !POLICIES.every((policy) => policies.includes(policy))) {
      problems.push(`case ${caseId} has ${policies.join(", ")}, expected one row per policy`);
    }
  }
  return problems;
}

/**
 * Where `text` first departs from the canonical serialisation of its rows, or `undefined` when it is identical.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { gradedRow } from "../commands/grade_qa.ts";
 * import { gradedRowsJsonl } from "../qa/mod.ts";
 * import { answerRow } from "../qa/answer_rows.ts";
 * import { canonicalDifference } from "./qa_run.ts";
 * const task = {
 *   rowId: "q1__hybrid-v1", caseId: "q1", source: "longmemeval" as const, scenario: "access_help",
 *   questionType: "single-session-user", policy: "hybrid-v1" as const, capacity: 7, keptFactIds: ["f1"],
 *   supportAllRetained: true, supportRecall: 1, messages: [{ role: "user" as const, content: "How long?" }],
 *   requestFingerprint: "0".repeat(64), referenceAnswer: "seven weeks",
 * };
 * const rows = [gradedRow(task, answerRow(task, { prediction: "7", responseModel: null, usage: {} }, 1, ""))];
 * strictEqual(canonicalDifference(gradedRowsJsonl(rows), rows), undefined);
 * strictEqual(canonicalDifference(gradedRowsJsonl(rows).replace("\n", "\r\n"), rows), "line 1: ends with CR (expected \\n line ends)");
 * ```
 */
export function canonicalDifference(text: string, rows: readonly GradedRow[]): string | undefined {
  const canonical = gradedRowsJsonl([...rows].sort((a, b) => compareCodePoints(a.row_id, b.row_id)));
  if (canonical === text) return undefined;
  const published = text.split("\n");
  const expected = canonical.split("\n");
  let at = 0;
  while (published[at] === expected[at]) at++;
  const got = published[at];
  const want = expected[at];
  if (got === undefined) return `line ${at}: the file must end with \\n`;
  let why: string;
  if (want === undefined || (want === "" && at === expected.length - 1)) {
    why = "extra content after the last row";
  } else if (got === "") why = "an empty line";
  else if (got.endsWith("\r")) why = "ends with CR (expected \\n line ends)";
  else {
    let gotId: unknown;
    try {
      gotId = (JSON.parse(got) as { row_id?: unknown }).row_id;
    } catch {
      gotId = undefined;
    }
    const wantId = (JSON.parse(want) as { row_id: string }).row_id;
    why = gotId !== wantId
      ? `holds ${JSON.stringify(gotId)}, expected ${wantId} (rows ordered by row id)`
      : `row ${wantId} is not in canonical form (sorted keys, Python spacing and number forms)`;
  }
  return `line ${at + 1}: ${why}`;
}

/** A parse or content failure becomes the failed check's detail; an unreadable file or an OS failure is thrown. */
function describe(error: unknown): string {
  if (error instanceof InputError && !(error instanceof UnreadableFileError)) return error.message;
  throw error;
}

/**
 * Runs every check on a results directory and returns them with the verdict and its scope (data, not text:
 * {@linkcode formatVerifyResult} prints it). `tasks` (rebuilt from the dataset) enables the per-row
 * re-derivation; without them those checks are listed as needing the dataset. A missing or invalid file is a
 * failed check; a file that is not valid UTF-8 or over its size cap (an `UnreadableFileError`) and an OS failure
 * (an `IoError`) are thrown.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { verifyResults } from "./qa_run.ts";
 * const result = await verifyResults(await Deno.makeTempDir(), loadContracts(embeddedSources())); // an empty directory
 * strictEqual(result.ok, false);
 * deepStrictEqual(result.checks.map((check) => check.verdict[0]).join(""), "ffffffnnn"); // six fail, three need the dataset
 * strictEqual(result.conclusion, "NOT verified: 6 of 9 checks failed");
 * ```
 */
export async function verifyResults(
  directory: string,
  contracts: Contracts,
  tasks?: readonly AnswerTask[],
): Promise<VerifyResult> {
  const { config } = contracts;
  const capacity = config.pool.qa_capacity;
  const checks: Check[] = [];
  const pass = (name: string): void => void checks.push({ name, verdict: "pass" });
  const fail = (name: string, detail: string): void => void checks.push({ name, verdict: "fail", detail });
  const record = (name: string, problems: readonly string[]): void => {
    if (problems.length === 0) pass(name);
    else {
      const shown = problems.slice(0, 3).join("; ");
      fail(name, problems.length > 3 ? `${problems.length} problems: ${shown}; …` : shown);
    }
  };

  const rowsPath = `${directory}/${ROWS_FILE}`;
  const schemaName =
    `${ROWS_FILE}: valid UTF-8, every line a graded row (schema, capacity ${capacity}, grader version)`;
  let text: string | undefined;
  let rows: GradedRow[] | undefined;
  try {
    text = await readTextIfExists(rowsPath, "graded rows");
    if (text === undefined) fail(schemaName, "missing");
    else {
      rows = parseGradedRows(text, rowsPath, config);
      pass(schemaName);
    }
  } catch (error) {
    fail(schemaName, describe(error));
  }

  const structureName =
    `${ROWS_FILE}: one row per (case, policy), no duplicates, row ids CASE__POLICY, ${capacity} kept facts each`;
  let sound = false;
  if (rows === undefined) fail(structureName, "not checked: the rows do not parse");
  else {
    const problems = structureProblems(rows, capacity);
    record(structureName, problems);
    sound = problems.length === 0;
  }

  const canonicalName =
    `${ROWS_FILE}: byte for byte the canonical serialisation of its rows (ordered by row id, sorted keys, Python spacing, \\n line ends)`;
  if (rows === undefined || text === undefined) fail(canonicalName, "not checked: the rows do not parse");
  else {
    const difference = canonicalDifference(text, rows);
    if (difference === undefined) pass(canonicalName);
    else fail(canonicalName, difference);
  }

  for (const [file, derive] of [["qa.summary.json", qaSummary], ["qa.stats.json", qaStats]] as const) {
    const name = `${file}: re-derived from the rows byte for byte`;
    let published: string | undefined;
    try {
      published = await readTextIfExists(`${directory}/${file}`, file);
    } catch (error) {
      fail(name, describe(error));
      continue;
    }
    if (published === undefined) fail(name, "missing");
    else if (rows === undefined || !sound) fail(name, "not derived: the rows fail the checks above");
    else {
      const derived = derive(rows, config);
      if (derived === published) pass(name);
      else {
        const index = [...derived].findIndex((char, at) => published[at] !== char);
        fail(name, `first difference at character ${index < 0 ? derived.length : index}`);
      }
    }
  }

  const markerName =
    `${MARKER_FILE}: schema version, protocol id, qa.model and exactly the five artifact hashes of the protocol in use`;
  try {
    const markerPath = `${directory}/${MARKER_FILE}`;
    const markerText = await readTextIfExists(markerPath, "run marker");
    if (markerText === undefined) fail(markerName, "missing");
    else {
      checkMarker(markerText, markerPath, contracts);
      pass(markerName);
    }
  } catch (error) {
    fail(markerName, describe(error));
  }

  const perRow: [string, (rows: readonly GradedRow[], tasks: readonly AnswerTask[]) => string[]][] = [
    [
      "every task has its row and every row is a task: row id, case, source, scenario, policy, capacity, kept facts and request fingerprint re-derived",
      identityProblems,
    ],
    [
      "question_type, support_all_retained and support_recall re-derived from the recomputed cases",
      caseFieldProblems,
    ],
    [
      "grade_correct and grade_rule re-derived by blind re-grading against the recomputed reference answers",
      gradeProblems,
    ],
  ];
  for (const [name, problemsOf] of perRow) {
    if (tasks === undefined) checks.push({ name, verdict: "needs-dataset", detail: "needs --dataset" });
    else if (rows === undefined) fail(name, "not checked: the rows do not parse");
    else record(name, problemsOf(rows, tasks));
  }

  const failed = checks.filter((check) => check.verdict === "fail").length;
  const scope: VerifyScope = tasks === undefined ? "structure-and-statistics" : "every-derivable-field";
  const conclusion = failed > 0
    ? `NOT verified: ${failed} of ${checks.length} checks failed`
    : scope === "structure-and-statistics"
    ? "structure and statistics verified; predictions and grades need --dataset"
    : `verified: every derivable field re-derived from the dataset; ${
      NOT_REDERIVABLE.join(", ")
    } are recorded, not re-derivable`;
  return { checks, ok: failed === 0, scope, notRederivable: NOT_REDERIVABLE, conclusion };
}

/** What `verify` reads: the protocol's files, the results directory and, optionally, the dataset. */
export interface VerifyRequest {
  contracts: ContractPaths;
  directory: string;
  /** The pinned dataset, for the per-row checks. */
  dataset?: string;
}

/**
 * The `verify` stage: refuses a missing directory, loads the contracts, with a dataset rebuilds the tasks, then
 * runs {@linkcode verifyResults}.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { InputError } from "../base/errors.ts";
 * import { verify } from "./qa_run.ts";
 * const directory = await Deno.makeTempDir();
 * await rejects(verify({ contracts: {}, directory: `${directory}/absent` }), InputError); // results directory not found
 * const result = await verify({ contracts: {}, directory }); // the embedded contracts; no dataset
 * strictEqual(result.scope, "structure-and-statistics");
 * strictEqual(result.ok, false); // nothing to verify in an empty directory
 * ```
 */
export async function verify(request: VerifyRequest): Promise<VerifyResult> {
  const { directory } = request;
  if (!await exists(directory)) throw new InputError("results directory not found", { path: directory });
  const contracts = await readContracts(request.contracts);
  const tasks = request.dataset === undefined
    ? undefined
    : buildAnswerTasks(contracts, (await prepareDataset(contracts, request.dataset)).cases);
  return await verifyResults(directory, contracts, tasks);
}

/**
 * The report: one line per check (✓ held, ✗ failed, – needs the dataset), the fields that are recorded but not
 * re-derivable, and the closing line saying exactly what was proved.
 *
 * @example
 * ```ts
 * import { formatVerifyResult } from "./qa_run.ts";
 * console.log(formatVerifyResult({
 *   checks: [{ name: "a", verdict: "pass" }],
 *   ok: true,
 *   scope: "structure-and-statistics",
 *   notRederivable: ["usage"],
 *   conclusion: "structure and statistics verified; predictions and grades need --dataset",
 * }));
 * ```
 */
export function formatVerifyResult(result: VerifyResult): string {
  const mark: Record<Verdict, string> = { pass: "✓", fail: "✗", "needs-dataset": "–" };
  const lines = result.checks.map((check) =>
    `${mark[check.verdict]} ${check.name}${check.detail ? ` — ${check.detail}` : ""}`
  );
  lines.push(`· recorded, not re-derivable: ${result.notRederivable.join(", ")}`);
  lines.push(result.conclusion);
  return lines.join("\n");
}
