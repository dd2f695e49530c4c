/**
 * A QA run directory's layout, the one place its names are spelled:
 *
 * ```text
 * DIR/qa_run.json                                the run's identity (run_marker.ts)
 * DIR/run-qa.lock                                held while run-qa works (base/lock.ts spells it)
 * DIR/responses/<row_id>.json                    one answer row per task (answer_rows.ts)
 * DIR/responses/superseded/<row_id>.<ms>.json    rows that could not be reused, kept aside
 * DIR/qa.rows.jsonl, qa.summary.json, qa.stats.json    what grade-qa writes
 * ```
 *
 * @module
 */

import { RowIntegrityError } from "../../base/mod.ts";

export { LOCK_FILE } from "../../base/mod.ts";

/** The marker's file name inside a run directory. */
export const MARKER_FILE = "qa_run.json";

/** The directory of the answer rows, inside a run directory. */
export const RESPONSES_DIR = "responses";

/** Where rows that cannot be reused are moved, inside {@linkcode RESPONSES_DIR}. */
export const SUPERSEDED_DIR = "superseded";

/** The graded rows `grade-qa` writes. */
export const GRADED_ROWS_FILE = "qa.rows.jsonl";

/** Accuracy by source, scenario and policy. */
export const QA_SUMMARY_FILE = "qa.summary.json";

/** Exact McNemar and the paired bootstrap, per suite. */
export const QA_STATS_FILE = "qa.stats.json";

/** The three files `grade-qa` writes, all together or not at all. */
export const GRADED_OUTPUTS: readonly [
  typeof GRADED_ROWS_FILE,
  typeof QA_SUMMARY_FILE,
  typeof QA_STATS_FILE,
] = [
  GRADED_ROWS_FILE,
  QA_SUMMARY_FILE,
  QA_STATS_FILE,
];

/**
 * A row's file name, `<row_id>.json`. Row ids come from the dataset and manifests, so one that could leave the
 * directory is refused.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { RowIntegrityError } from "../../base/errors.ts";
 * import { rowFileName } from "./run_dir.ts";
 * strictEqual(rowFileName("05fdf179__confidence"), "05fdf179__confidence.json");
 * throws(() => rowFileName("../escape"), RowIntegrityError);
 * ```
 */
export function rowFileName(rowId: string): string {
  if (/[/\\]/.test(rowId) || rowId.startsWith(".") || rowId.includes("\0")) {
    throw new RowIntegrityError("is not usable as a file name", { path: rowId, field: "row_id" });
  }
  return `${rowId}.json`;
}

/** The marker's path in a run directory. */
export function markerPath(directory: string): string {
  return `${directory}/${MARKER_FILE}`;
}

/** The answer rows' directory in a run directory. */
export function responsesDir(directory: string): string {
  return `${directory}/${RESPONSES_DIR}`;
}

/**
 * The row file of a task (see {@linkcode rowFileName}).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { responsePath } from "./run_dir.ts";
 * strictEqual(responsePath("run", "05fdf179__confidence"), "run/responses/05fdf179__confidence.json");
 * ```
 */
export function responsePath(directory: string, rowId: string): string {
  return `${responsesDir(directory)}/${rowFileName(rowId)}`;
}

/** Where a run directory's superseded rows go. */
export function supersededDir(directory: string): string {
  return `${responsesDir(directory)}/${SUPERSEDED_DIR}`;
}

/**
 * A superseded row's file name: the row id and the time it was moved aside, in milliseconds.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { supersededName } from "./run_dir.ts";
 * strictEqual(supersededName("q1__hybrid-v1", 1700000000000), "q1__hybrid-v1.1700000000000.json");
 * ```
 */
export function supersededName(rowId: string, stampMs: number): string {
  return `${rowId}.${stampMs}.json`;
}
