/**
 * A K-run directory (`run-qa --epochs K`) as grade-qa, verify and report read it: its K run directories, each
 * checked present, and the case-level verdict of their graded rows.
 *
 * @module
 */

import { InputError, RunFiles } from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import {
  type AnswerTask,
  epochRunDirectories,
  type EpochStats,
  epochStats,
  type GradedRow,
  type PolicyPair,
  type RunCandidate,
} from "../qa/mod.ts";
import { verifyQaRun, type VerifyResult } from "../verify/mod.ts";

/**
 * The run directories of a directory, run 1 (the directory itself) first: one for a one-run directory, K for a
 * directory whose `epochs.json` records K; a recorded run with no `qa_run.json` is bad input naming it.
 */
export const runDirectories: (source: string | RunFiles) => Promise<string[]> = epochRunDirectories;

/** Runs 2…K of a K-run directory verified as run 1 is, and the case-level verdict of all K. */
export interface OtherRuns {
  runs: { directory: string; result: VerifyResult }[];
  /** The case-level verdict, when every run's rows parsed and hold the same tasks. */
  stats?: EpochStats;
}

/**
 * Verifies runs 2…K (`directories` after the first) exactly as run 1 (`first`) was, then derives the
 * case-level verdict of the K runs' rows.
 */
export async function verifyOtherRuns(
  directories: readonly string[],
  first: { rows?: readonly GradedRow[]; pair: PolicyPair },
  contracts: Contracts,
  tasks: readonly AnswerTask[] | undefined,
  options: { candidate?: RunCandidate },
): Promise<OtherRuns> {
  const runs: OtherRuns["runs"] = [];
  const rows: (readonly GradedRow[] | undefined)[] = [first.rows];
  for (const directory of directories.slice(1)) {
    const verified = await verifyQaRun(new RunFiles(directory), contracts, tasks, options);
    runs.push({ directory, result: verified.result });
    rows.push(verified.rows);
  }
  const complete = rows.every((run) => run !== undefined) && runs.every((run) => run.result.ok);
  if (!complete) return { runs };
  try {
    return { runs, stats: epochStats(rows as GradedRow[][], contracts.config, first.pair) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new InputError(`the runs do not hold the same tasks: ${error.message}`, {
      path: directories[0],
    });
  }
}
