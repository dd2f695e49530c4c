/**
 * What `grade-qa` grades from: each answer row there is, read once, parsed and held to its task; and the three
 * outputs its rows make.
 *
 * @module
 */

import {
  ANSWER_ROW_CAP,
  compareCodePoints,
  decodeUtf8,
  type FileContent,
  GRADED_ROWS_CAP,
  ReadBudget,
  readBytesIfExists,
  refuseOverCap,
  sha256Hex,
} from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import {
  type AnswerRow,
  type AnswerTask,
  checkRowIdentity,
  type GRADED_OUTPUTS,
  GRADED_ROWS_FILE,
  type GradedRow,
  gradedRow,
  gradedRowLine,
  parseAnswerRow,
  type PartialRecord,
  type PolicyPair,
  QA_STATS_FILE,
  QA_SUMMARY_FILE,
  qaStatsOf,
  type QaStatsSuites,
  qaStatsSuites,
  qaSummary,
  responsePath,
} from "../qa/mod.ts";

/** A task's answer row as read: parsed, held to its task, and the SHA-256 of its bytes. */
export interface ReadAnswerRow {
  task: AnswerTask;
  row: AnswerRow;
  sha256: string;
}

/** The three outputs and what they were made from. */
export interface GradedFiles {
  graded: GradedRow[];
  suites: QaStatsSuites;
  files: Record<(typeof GRADED_OUTPUTS)[number], FileContent>;
}

/** Reads, parses and checks against its task every row there is (row files missing are left out). */
export async function readAnswerRows(
  directory: string,
  tasks: readonly AnswerTask[],
): Promise<ReadAnswerRow[]> {
  // The rows are held together, and what they make verify and report read through the same cap.
  const budget = new ReadBudget(GRADED_ROWS_CAP, "the run's answer rows", GRADED_ROWS_FILE);
  const present: ReadAnswerRow[] = [];
  for (const task of tasks) {
    const path = responsePath(directory, task.rowId);
    const bytes = await readBytesIfExists(path, "answer row", ANSWER_ROW_CAP, budget);
    if (bytes === undefined) continue;
    const row = parseAnswerRow(decodeUtf8(bytes, path), path);
    checkRowIdentity(row, task, path);
    present.push({ task, row, sha256: await sha256Hex(bytes) });
  }
  return present;
}

/** The three outputs of `present`'s rows (all a run's, or a partial run's complete pairs), ordered by row id. */
export function gradedFiles(
  directory: string,
  contracts: Contracts,
  present: readonly ReadAnswerRow[],
  pair: PolicyPair,
): GradedFiles {
  const graded = present.map(({ task, row }) => gradedRow(task, row));
  graded.sort((a, b) => compareCodePoints(a.row_id, b.row_id));
  const suites = qaStatsSuites(graded, contracts.config, pair);
  // Its lines are made as they are measured and streamed: the rows are never held a second time as text.
  const lines: Iterable<string> = {
    *[Symbol.iterator]() {
      for (const row of graded) yield gradedRowLine(row);
    },
  };
  refuseOverCap(`${directory}/${GRADED_ROWS_FILE}`, "graded rows", lines, GRADED_ROWS_CAP);
  const files = {
    [GRADED_ROWS_FILE]: lines,
    [QA_SUMMARY_FILE]: qaSummary(graded, contracts.config),
    [QA_STATS_FILE]: qaStatsOf(suites, contracts.config, pair),
  };
  return { graded, suites, files };
}

/** A graded run: its rows, ordered by row id, and the statistics `qa.stats.json` holds, as values. */
export interface GradedRun {
  rows: GradedRow[];
  suites: QaStatsSuites;
  /** The two policies compared, `[first, second]`. */
  pair: PolicyPair;
  /** A partial run's record: the rows and statistics are its complete pairs', written under `partial/`. */
  partial?: PartialRecord;
}
