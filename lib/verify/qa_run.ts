/**
 * `verify`: proves offline what can be proved about a published results directory, and says exactly what that
 * is. Always: `qa.rows.jsonl` is the canonical serialisation of its parsed rows byte for byte, one row per (case,
 * policy) with the QA capacity's kept facts; the summary and statistics are re-derived byte for byte; the run
 * marker passes the check `grade-qa` applies; when the run keeps its `responses/`, every graded row is the answer
 * recorded there, field for field. With the dataset: every derivable field of every row (identity,
 * kept facts, fingerprint, question type, support fields, grade and rule) is re-derived from the recomputed
 * tasks. What no offline check can prove — the prediction text as the model's, usage, attempts, response model —
 * is named as recorded, not re-derivable.
 *
 * @module
 */

import {
  answerMismatch,
  type AnswerTask,
  checkMarker,
  GRADED_ROWS_FILE,
  type GradedRow,
  MARKER_FILE,
  parseAnswerRow,
  parseGradedRows,
  type PolicyPair,
  policyPair,
  QA_STATS_FILE,
  QA_SUMMARY_FILE,
  qaStats,
  qaSummary,
  readReusedRows,
  RESPONSES_DIR,
  type ReusedRows,
  rowFileName,
  type RunCandidate,
  runCandidateSchema,
} from "../qa/mod.ts";
import {
  ANSWER_ROW_CAP,
  decodeUtf8,
  exists,
  firstInvalidUtf8,
  GRADED_ROWS_CAP,
  InputError,
  readTextIfExists,
  type RunFiles,
  runFilesOf,
  UnreadableFileError,
} from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import { jsonObjectOf } from "../py/mod.ts";
import { CheckList, type VerifyResult } from "./checks.ts";
import { figureDetail } from "./figures.ts";
import {
  canonicalDifference,
  caseFieldProblems,
  gradeProblems,
  identityProblems,
  structureProblems,
} from "./row_checks.ts";

const ROWS_FILE = GRADED_ROWS_FILE;

/** A parse or content failure becomes the failed check's detail; an unreadable file or an OS failure is thrown. */
function describe(error: unknown): string {
  if (error instanceof InputError && !(error instanceof UnreadableFileError)) return error.message;
  throw error;
}

/** The rows as read and parsed, and whether they passed the structure check. */
interface RowsRead {
  /** The file's bytes, as the canonical serialisation's are compared with them. */
  bytes?: Uint8Array;
  rows?: GradedRow[];
  sound: boolean;
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
 * import { embeddedSources, loadContracts } from "../protocol/mod.ts";
 * import { verifyResults } from "./qa_run.ts";
 * const result = await verifyResults(await Deno.makeTempDir(), await loadContracts(embeddedSources())); // an empty directory
 * strictEqual(result.ok, false);
 * deepStrictEqual(result.checks.map((check) => check.verdict[0]).join(""), "ffffffnnn"); // six fail, three need the dataset
 * strictEqual(result.conclusion, "NOT verified: 6 of 9 checks failed");
 * ```
 */
export async function verifyResults(
  directory: string | RunFiles,
  ...inputs: VerifyInputs
): Promise<VerifyResult> {
  return (await verifyQaRun(runFilesOf(directory), ...inputs)).result;
}

/** What {@linkcode verifyQaRun} found, and the rows its checks ran on (what a report shows). */
export interface QaRunVerification {
  result: VerifyResult;
  /** The two policies the rows were checked as. */
  pair: PolicyPair;
  /** The rows parsed from the bytes the checks read, when they parse. */
  rows?: GradedRow[];
}

/**
 * {@linkcode verifyResults} on files held once (`files`): the rows the checks ran on come back with the verdict,
 * so whatever shows them shows the bytes that were verified.
 */
export async function verifyQaRun(
  files: RunFiles,
  ...[contracts, tasks, options = {}]: VerifyInputs
): Promise<QaRunVerification> {
  const list = new CheckList();
  // Without the module or the dataset, the run's own record says which two policies it compares.
  const candidate = options.candidate ??
    (tasks === undefined ? "as recorded" as const : undefined);
  const pair = candidate === "as recorded"
    ? policyPair(await recordedCandidate(files))
    : policyPair(candidate);
  const read = await checkRowsFile(list, files, contracts, pair);
  await checkDerivedFiles(list, files, contracts, read, pair);
  await checkMarkerFile(list, files, contracts, candidate);
  await checkResponses(list, options.responses ?? files.path(RESPONSES_DIR), read.rows);
  checkRowsAgainstTheirTasks(list, read.rows, tasks);
  const result = list.result(tasks === undefined ? "structure-and-statistics" : "every-derivable-field");
  const reused = await reusedOf(files, read.rows);
  return { result: reused === undefined ? result : { ...result, reused }, pair, rows: read.rows };
}

/**
 * The rows the run took from earlier runs, as its `reuse.json` records them (only rows the graded rows hold); a
 * malformed `reuse.json` is refused like any malformed record.
 */
async function reusedOf(
  files: RunFiles,
  rows: readonly GradedRow[] | undefined,
): Promise<ReusedRows | undefined> {
  return await readReusedRows(files, rows === undefined ? undefined : new Set(rows.map((row) => row.row_id)));
}

/** Options of {@linkcode verifyResults}. */
export interface VerifyOptions {
  /** The candidate the run must have been made with (`--policy-module`, its baseline from the marker). */
  candidate?: RunCandidate;
  /** Where the run keeps its answers when they are not beside the rows (a partial grading's run's `responses/`). */
  responses?: string;
}

/**
 * What a verification takes besides the files: the contracts, the tasks rebuilt from the dataset (without them
 * the per-row re-derivation is listed as needing the dataset) and the options.
 */
export type VerifyInputs = [contracts: Contracts, tasks?: readonly AnswerTask[], options?: VerifyOptions];

/** The candidate a run's marker records, read leniently (a marker that does not parse fails its own check). */
export async function recordedCandidate(directory: string | RunFiles): Promise<RunCandidate | undefined> {
  try {
    const text = await runFilesOf(directory).text(MARKER_FILE, "run marker");
    const parsed = text === undefined
      ? undefined
      : runCandidateSchema.safeParse(jsonObjectOf(text)?.candidate);
    return parsed?.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function checkRowsFile(
  list: CheckList,
  files: RunFiles,
  contracts: Contracts,
  pair: PolicyPair,
): Promise<RowsRead> {
  const capacity = contracts.config.pool.qa_capacity;
  const rowsPath = files.path(ROWS_FILE);
  const schemaName =
    `${ROWS_FILE}: valid UTF-8, every line a graded row (schema, capacity ${capacity}, grader version)`;
  const read: RowsRead = { sound: false };
  try {
    read.bytes = await files.bytes(ROWS_FILE, "graded rows", GRADED_ROWS_CAP);
    if (read.bytes === undefined) list.fail(schemaName, "missing");
    else {
      // Invalid UTF-8 is refused as every text read refuses it; valid, the rows are parsed a line at a time.
      if (firstInvalidUtf8(read.bytes) >= 0) decodeUtf8(read.bytes, rowsPath);
      read.rows = parseGradedRows(read.bytes, rowsPath, contracts.config, pair);
      list.pass(schemaName);
    }
  } catch (error) {
    list.fail(schemaName, describe(error));
  }
  const structureName =
    `${ROWS_FILE}: one row per (case, policy), no duplicates, row ids CASE__POLICY, ${capacity} kept facts each`;
  const canonicalName =
    `${ROWS_FILE}: byte for byte the canonical serialisation of its rows (ordered by row id, sorted keys, Python spacing, \\n line ends)`;
  if (read.rows === undefined || read.bytes === undefined) {
    list.fail(structureName, "not checked: the rows do not parse");
    list.fail(canonicalName, "not checked: the rows do not parse");
    return read;
  }
  const problems = structureProblems(read.rows, capacity, pair);
  list.record(structureName, problems);
  read.sound = problems.length === 0;
  const difference = canonicalDifference(read.bytes, read.rows);
  if (difference === undefined) list.pass(canonicalName);
  else list.fail(canonicalName, difference);
  return read;
}

async function checkDerivedFiles(
  list: CheckList,
  files: RunFiles,
  contracts: Contracts,
  read: RowsRead,
  pair: PolicyPair,
): Promise<void> {
  const stats = (rows: readonly GradedRow[], config: Contracts["config"]) => qaStats(rows, config, pair);
  for (const [file, derive] of [[QA_SUMMARY_FILE, qaSummary], [QA_STATS_FILE, stats]] as const) {
    const name = `${file}: re-derived from the rows byte for byte`;
    let published: Uint8Array | undefined;
    try {
      published = await files.bytes(file, file);
      if (published !== undefined) decodeUtf8(published, files.path(file)); // invalid UTF-8 is refused, as every text read
    } catch (error) {
      list.fail(name, describe(error));
      continue;
    }
    if (published === undefined) list.fail(name, "missing");
    else if (read.rows === undefined || !read.sound) {
      list.fail(name, "not derived: the rows fail the checks above");
    } else {
      const difference = figureDetail(published, derive(read.rows, contracts.config));
      if (difference === undefined) list.pass(name);
      else list.fail(name, difference);
    }
  }
}

async function checkMarkerFile(
  list: CheckList,
  files: RunFiles,
  contracts: Contracts,
  candidate: RunCandidate | "as recorded" | undefined,
): Promise<void> {
  const markerName =
    `${MARKER_FILE}: exactly the keys run-qa writes; schema version, protocol id, qa.model and the five artifact hashes of the protocol in use`;
  try {
    const markerText = await files.text(MARKER_FILE, "run marker");
    if (markerText === undefined) list.fail(markerName, "missing");
    else {
      checkMarker(markerText, files.path(MARKER_FILE), contracts, candidate);
      list.pass(markerName);
    }
  } catch (error) {
    list.fail(markerName, describe(error));
  }
}

/**
 * Where the run kept its answers (`responses/`, absent from a published run's files): every graded row's answer
 * must be the one recorded in its `responses/<row_id>.json`, field for field, so an answer edited after grading
 * fails here, naming the file and field. Each file is read once, one at a time.
 */
async function checkResponses(
  list: CheckList,
  responses: string,
  rows: readonly GradedRow[] | undefined,
): Promise<void> {
  if (!await exists(responses)) return;
  const name =
    `${RESPONSES_DIR}/: every graded row's answer is the one recorded in ${RESPONSES_DIR}/<row_id>.json, field for field`;
  if (rows === undefined) return list.fail(name, "not checked: the rows do not parse");
  const problems: string[] = [];
  for (const graded of rows) {
    try {
      const path = `${responses}/${rowFileName(graded.row_id)}`;
      // Read, compared and let go (not held with the run's files): no reader shows a response's bytes.
      const text = await readTextIfExists(path, "answer row", ANSWER_ROW_CAP);
      if (text === undefined) problems.push(`${path}: missing`);
      else {
        const mismatch = answerMismatch(parseAnswerRow(text, path), graded);
        if (mismatch !== undefined) problems.push(`${path}: ${mismatch.field}: ${mismatch.reason}`);
      }
    } catch (error) {
      problems.push(describe(error));
    }
  }
  list.record(name, problems);
}

const PER_ROW: readonly [string, (rows: readonly GradedRow[], tasks: readonly AnswerTask[]) => string[]][] = [
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

function checkRowsAgainstTheirTasks(
  list: CheckList,
  rows: readonly GradedRow[] | undefined,
  tasks: readonly AnswerTask[] | undefined,
): void {
  for (const [name, problemsOf] of PER_ROW) {
    if (tasks === undefined) list.needsDataset(name);
    else if (rows === undefined) list.fail(name, "not checked: the rows do not parse");
    else list.record(name, problemsOf(rows, tasks));
  }
}
