/**
 * `grade-qa` on a partial run: its complete pairs graded into `DIR/partial/` (the three outputs, the marker's
 * bytes and `partial.json`), all together or not at all; DIR's reference-named outputs are left to the full run.
 *
 * @module
 */

import {
  compareCodePoints,
  ensureDir,
  exists,
  OverwriteError,
  type PublishOptions,
  RowIntegrityError,
  writeAllOrNothing,
} from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import {
  type AnswerTask,
  MARKER_FILE,
  pairedTasks,
  PARTIAL_DIR,
  PARTIAL_RECORD_FILE,
  type PartialRecord,
  partialRecordJson,
  type PolicyPair,
  responsesDir,
} from "../qa/mod.ts";
import type { GradedRun } from "./_grading.ts";
import { gradedFiles, type ReadAnswerRow } from "./_grading.ts";

/** What a partial grading is made from: the run, its protocol's tasks and the rows there are. */
export interface PartialGrading {
  directory: string;
  contracts: Contracts;
  tasks: readonly AnswerTask[];
  present: readonly ReadAnswerRow[];
  pair: PolicyPair;
  /** The marker's text as checked: copied, so `partial/` is read as a results directory of its own. */
  markerText: string;
  publish: PublishOptions;
}

/** The folder a run's partial grading is written in. */
export function partialDir(directory: string): string {
  return `${directory}/${PARTIAL_DIR}`;
}

/**
 * Grades the complete pairs of a partial run into `DIR/partial/`; refuses (before writing) a run with no complete
 * pair, and a `partial/` that exists already (an earlier grading is never overwritten).
 */
export async function gradePartial(grading: PartialGrading): Promise<GradedRun> {
  const { directory, contracts, tasks, present, pair } = grading;
  const folder = partialDir(directory);
  if (await exists(folder)) {
    throw new OverwriteError(
      "holds an earlier partial grading, which is never overwritten: move it aside to grade again",
      { path: folder },
    );
  }
  const paired = new Set(pairedTasks(present.map((read) => read.task), pair));
  if (paired.size === 0) {
    throw new RowIntegrityError(
      `no case has both policies' rows yet (${present.length} of ${tasks.length} tasks): run run-qa to answer more`,
      { path: responsesDir(directory) },
    );
  }
  const record: PartialRecord = {
    complete_pairs: paired.size / 2,
    row_files: present.map(({ task, sha256 }) => ({ row_id: task.rowId, sha256 }))
      .sort((a, b) => compareCodePoints(a.row_id, b.row_id)),
    schema_version: 1,
    tasks: tasks.length,
    tasks_with_rows: present.length,
    unpaired: present.filter((read) => !paired.has(read.task)).map((read) => read.task.rowId)
      .sort(compareCodePoints),
  };
  const { graded, suites, files } = gradedFiles(
    folder,
    contracts,
    present.filter((read) => paired.has(read.task)),
    pair,
  );
  await ensureDir(folder, grading.publish);
  try {
    await writeAllOrNothing(folder, {
      ...files,
      [MARKER_FILE]: grading.markerText,
      [PARTIAL_RECORD_FILE]: partialRecordJson(record),
    }, grading.publish);
  } catch (error) {
    // Nothing half-written: the folder this grading made goes with its files.
    await Deno.remove(folder).catch(() => undefined);
    throw error;
  }
  return { rows: graded, suites, pair, partial: record };
}
