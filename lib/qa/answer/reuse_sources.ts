/**
 * `run-qa --reuse DIR[,DIR…]`: the earlier runs whose answers identical requests take, read for each of K runs.
 * Each source is read, one at a time, through the structural checks of `answer_reuse`; a source still being
 * written is refused; a graded source is proved by the caller's `prove` (the layer above verifies it) and each
 * of its answers must be the one its grades recorded; an ungraded source is refused unless `ungraded` is given
 * (and `reuse.json` then marks its rows, which every reader shows).
 *
 * @module
 */

import { exists, InputError, refuseIfLocked } from "../../base/mod.ts";
import type { Contracts } from "../../protocol/mod.ts";
import { epochDirectory } from "../run/epochs.ts";
import { GRADED_ROWS_FILE } from "../run/run_dir.ts";
import { PARTIAL_DIR, PARTIAL_RECORD_FILE } from "../run/partial.ts";
import type { AnswerTask } from "../run/tasks.ts";
import type { GradedRow } from "../grade/graded_rows.ts";
import {
  lookAtReuseSource,
  readReuseRows,
  reusableTasks,
  type ReuseSource,
  unansweredTasks,
} from "./answer_reuse.ts";
import type { RowPlan } from "./resume.ts";

/** Where a run's reused answers come from, and how a graded source is proved. */
export interface ReuseRequest {
  /** The earlier run directories, in order (the first source that answers a request gives it). */
  directories: readonly string[];
  /** Take answers from an ungraded source too (unproved; recorded as such). */
  ungraded: boolean;
  /** Told each source that gives nothing, and why. */
  warn: (line: string) => void;
  /** A graded source's verified rows by row id; refuses (an `InputError`) one that does not verify. */
  prove: (directory: string, contracts: Contracts) => Promise<Map<string, GradedRow>>;
}

/** What a source being written refuses with. */
const LOCKED_SOURCE = "a run-qa is answering into this --reuse source; reuse it once that run has finished";

/**
 * The sources of each of K runs (reuse keys on the run number too): run r reads each source's run r, its
 * directory itself for run 1 and `epoch-r/` after; a source without that run (a one-run source, for r > 1)
 * gives that run nothing. Every source of every run is read and checked before the caller writes or calls.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { readReuseSourcesByRun } from "./reuse_sources.ts";
 * const prove = () => Promise.resolve(new Map()); // no directory named: nothing read, nothing proved
 * const request = { directories: [], ungraded: false, warn: () => {}, prove };
 * deepStrictEqual(await readReuseSourcesByRun(request, { contracts: undefined!, endpoint: "e", tasks: [] }, 2), [[], []]);
 * ```
 */
export async function readReuseSourcesByRun(
  request: ReuseRequest,
  stage: { contracts: Contracts; endpoint: string; tasks: readonly AnswerTask[] },
  epochs: number,
): Promise<ReuseSource[][]> {
  const runs: ReuseSource[][] = [];
  for (let run = 1; run <= epochs; run++) {
    const present: string[] = [];
    for (const directory of request.directories.map((source) => epochDirectory(source, run))) {
      if (run === 1 || await exists(directory)) present.push(directory);
    }
    runs.push(await readReuseSources(present, request, stage));
  }
  return runs;
}

/**
 * Per run, the row ids a dry run would take from earlier runs instead of calling: the tasks of each run's plans
 * (all missing for a run without a directory) that no row of its own answers and a source does.
 */
export async function dryRunReused(
  request: ReuseRequest,
  stage: { contracts: Contracts; endpoint: string; tasks: readonly AnswerTask[] },
  plans: readonly (readonly RowPlan[] | undefined)[],
): Promise<Set<string>[]> {
  const byRun = await readReuseSourcesByRun(request, stage, plans.length);
  return plans.map((runPlans, index) =>
    reusableTasks(
      runPlans ?? stage.tasks.map((task) => ({ task, path: "", state: "missing" as const })),
      byRun[index],
    )
  );
}

/**
 * Reads every source in order, one at a time, holding only the rows of requests no earlier source answers (so
 * memory does not grow with the number of sources); a skipped one is told through `warn` and gives nothing.
 * Refused: a locked source, a graded one `prove` refuses or whose answers differ from its grades, an ungraded
 * one without `ungraded`.
 */
async function readReuseSources(
  directories: readonly string[],
  request: ReuseRequest,
  stage: { contracts: Contracts; endpoint: string; tasks: readonly AnswerTask[] },
): Promise<ReuseSource[]> {
  const { contracts, endpoint, tasks } = stage;
  const sources: ReuseSource[] = [];
  let open: readonly AnswerTask[] = tasks;
  for (const directory of directories) {
    await refuseIfLocked(directory, LOCKED_SOURCE);
    const look = await lookAtReuseSource(directory, contracts, endpoint);
    if (look.kind === "skipped") {
      request.warn(`reuse: nothing taken from ${directory}: ${look.reason}`);
      continue;
    }
    const graded = await gradedAnswers(directory, contracts, request);
    // Every source is proved; each holds only the answers no earlier source gives (the first source's win).
    const source = await readReuseRows(directory, look.marker, contracts, tasks, graded, open);
    sources.push(source);
    open = unansweredTasks(open, [source]);
  }
  return sources;
}

/** A graded source's proved rows by row id; `undefined` for an ungraded one taken with `ungraded`. */
async function gradedAnswers(
  directory: string,
  contracts: Contracts,
  request: ReuseRequest,
): Promise<Map<string, GradedRow> | undefined> {
  if (!await exists(`${directory}/${GRADED_ROWS_FILE}`)) {
    if (request.ungraded) return undefined;
    // A partial grading proves only its rows: the source is refused as ungraded, and the refusal says why.
    const partial = await exists(`${directory}/${PARTIAL_DIR}/${PARTIAL_RECORD_FILE}`);
    throw new InputError(
      (partial
        ? `not reused: it is graded only in part (${PARTIAL_DIR}/), which does not prove a source's answers ` +
          "(answer and grade the rest, or give "
        : "not reused: it is not graded, so nothing proves its answers (grade it with grade-qa, or give ") +
        "--reuse-ungraded to take them unproved)",
      { path: directory },
    );
  }
  return await request.prove(directory, contracts);
}
