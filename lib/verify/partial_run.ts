/**
 * A partial run's grading (`DIR/partial/`, see `qa/run/partial.ts`) found and verified: every check of a full run
 * restricted to its complete pairs (each graded row's answer the one in the run's `responses/`, field for field),
 * plus that each row file it graded still has the recorded SHA-256 and that its copy of the marker is the run's,
 * byte for byte.
 *
 * @module
 */

import { exists, readBytesIfExists, readTextIfExists, sha256Hex } from "../base/mod.ts";
import { firstByteDifference } from "./checks.ts";
import {
  type AnswerTask,
  GRADED_ROWS_FILE,
  gradedRowIds,
  MARKER_FILE,
  parsePartialRecord,
  PARTIAL_DIR,
  PARTIAL_RECORD_FILE,
  partialLine,
  type PartialRecord,
  responsePath,
  RESPONSES_DIR,
} from "../qa/mod.ts";
import { type Check, CheckList, type VerifyResult } from "./checks.ts";
import { type VerifyInputs, verifyResults } from "./qa_run.ts";

/** A partial run as found: the run directory, the folder of its grading and what `partial.json` records. */
export interface PartialRun {
  /** The run-qa directory (its `responses/` and `qa_run.json`). */
  run: string;
  /** The folder holding the partial grading's files. */
  grading: string;
  record: PartialRecord;
  /** "partial: K of N tasks; statistics on P complete pairs", every output's first line. */
  line: string;
}

/** What a partial run says of itself in a JSON document's first key. */
export interface PartialJson {
  line: string;
  tasks: number;
  tasks_with_rows: number;
  complete_pairs: number;
  unpaired: string[];
  grading: string;
}

/** The `"partial"` key of a JSON document about `partial`. */
export function partialJson(partial: PartialRun): PartialJson {
  const { record } = partial;
  return {
    line: partial.line,
    tasks: record.tasks,
    tasks_with_rows: record.tasks_with_rows,
    complete_pairs: record.complete_pairs,
    unpaired: record.unpaired,
    grading: partial.grading,
  };
}

function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const at = trimmed.lastIndexOf("/");
  return at < 0 ? "." : at === 0 ? "/" : trimmed.slice(0, at);
}

/**
 * The partial run at `path` — a run directory with no full outputs and a `partial/` grading, or that folder
 * itself — or `undefined` (a directory with full outputs is never partial). A `partial.json` that does not
 * parse is a `ContractError` naming the field.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { findPartialRun } from "./partial_run.ts";
 * strictEqual(await findPartialRun(await Deno.makeTempDir()), undefined); // no grading at all
 * ```
 */
export async function findPartialRun(path: string): Promise<PartialRun | undefined> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (info?.isDirectory !== true) return undefined;
  let grading: string, run: string;
  if (await exists(`${path}/${PARTIAL_RECORD_FILE}`)) [grading, run] = [path, parentOf(path)];
  else if (await exists(`${path}/${GRADED_ROWS_FILE}`)) return undefined;
  else if (await exists(`${path}/${PARTIAL_DIR}/${PARTIAL_RECORD_FILE}`)) {
    [grading, run] = [`${path}/${PARTIAL_DIR}`, path];
  } else return undefined;
  const recordPath = `${grading}/${PARTIAL_RECORD_FILE}`;
  const record = parsePartialRecord((await readTextIfExists(recordPath, "partial record"))!, recordPath);
  return { run, grading, record, line: partialLine(record) };
}

/** The checks only a partial grading has: its row files unchanged, its marker the run's. */
export async function partialChecks(partial: PartialRun, tasks?: readonly AnswerTask[]): Promise<Check[]> {
  const list = new CheckList();
  const problems: string[] = [];
  for (const { row_id, sha256 } of partial.record.row_files) {
    const bytes = await readBytesIfExists(responsePath(partial.run, row_id), "answer row");
    const name = `${RESPONSES_DIR}/${row_id}.json`;
    if (bytes === undefined) problems.push(`${name}: missing`);
    else {
      const now = await sha256Hex(bytes);
      if (now !== sha256) problems.push(`${name}: SHA-256 ${now}, recorded ${sha256}`);
    }
  }
  if (tasks !== undefined) {
    if (partial.record.tasks !== tasks.length) {
      problems.push(`tasks is ${partial.record.tasks}, the protocol has ${tasks.length}`);
    }
    const known = new Set(tasks.map((task) => task.rowId));
    for (const { row_id } of partial.record.row_files) {
      if (!known.has(row_id)) problems.push(`${row_id}: not a task of this protocol`);
    }
  }
  list.record(
    `${PARTIAL_DIR}/${PARTIAL_RECORD_FILE}: every row file graded still has the recorded SHA-256 (with the dataset: each a task, N the protocol's)`,
    problems,
  );
  const markerName = `${PARTIAL_DIR}/${MARKER_FILE}: the run's ${MARKER_FILE} byte for byte`;
  const [copy, original] = await Promise.all(
    [partial.grading, partial.run].map((folder) =>
      readBytesIfExists(`${folder}/${MARKER_FILE}`, "run marker")
    ),
  );
  if (copy === undefined || original === undefined) list.fail(markerName, "missing");
  else {
    const at = firstByteDifference(copy, original);
    if (at === undefined) list.pass(markerName);
    else list.fail(markerName, `byte ${at} differs`);
  }
  return list.checks;
}

/** The tasks a partial grading holds (its complete pairs), for the per-row re-derivation. */
export function gradedTasks(partial: PartialRun, tasks: readonly AnswerTask[]): AnswerTask[] {
  const ids = gradedRowIds(partial.record);
  return tasks.filter((task) => ids.has(task.rowId));
}

/**
 * Verifies a partial grading: its own checks first, then every check of {@linkcode verifyResults} on its folder,
 * restricted to its complete pairs; the conclusion says partial.
 */
export async function verifyPartialRun(
  partial: PartialRun,
  ...[contracts, tasks, options]: VerifyInputs
): Promise<VerifyResult> {
  const own = await partialChecks(partial, tasks);
  const result = await verifyResults(
    partial.grading,
    contracts,
    tasks && gradedTasks(partial, tasks),
    { ...options, responses: `${partial.run}/${RESPONSES_DIR}` }, // each graded row's answer is its responses/ file's
  );
  const list = new CheckList();
  list.checks.push(...own, ...result.checks);
  const combined = list.result(result.scope);
  const { tasks_with_rows: k, tasks: n } = partial.record;
  return { ...combined, conclusion: `partial (${k} of ${n} tasks): ${combined.conclusion}` };
}
