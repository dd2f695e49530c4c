/**
 * `run-qa --reuse DIR[,DIR…]`: the earlier runs whose answers identical requests take. Each is read, one at a
 * time, through the qa layer's structural checks; a source still being written is refused; a graded source
 * must pass `verify` and each of its answers must be the one its grades recorded; an ungraded source is refused
 * unless `--reuse-ungraded` is given (and `reuse.json` then marks its rows, which every reader shows).
 *
 * @module
 */

import { exists, InputError, refuseIfLocked, runFilesOf } from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import {
  type AnswerTask,
  endpointIdentity,
  epochDirectory,
  GRADED_ROWS_FILE,
  type GradedRow,
  lookAtReuseSource,
  PARTIAL_DIR,
  PARTIAL_RECORD_FILE,
  readReuseRows,
  reusableTasks,
  type ReuseSource,
  type RowPlan,
  unansweredTasks,
} from "../qa/mod.ts";
import { checkLine, verifyQaRun } from "../verify/mod.ts";

/** The `--reuse` and `--reuse-ungraded` flags. */
export const REUSE_FLAG = {
  reuse: {
    type: "list",
    of: "directories",
    value: "DIR[,DIR…]",
    help: "take the recorded answer of every task whose request (fingerprint and endpoint)\n" +
      "an earlier, graded run directory answered; call only the rest",
  },
  "reuse-ungraded": {
    type: "boolean",
    help: "with --reuse: also take answers from a run not graded (nothing proves them;\n" +
      "verify and report then say so)",
  },
} as const;

/** What a source being written refuses with. */
const LOCKED_SOURCE = "a run-qa is answering into this --reuse source; reuse it once that run has finished";

/**
 * Reads every source in order, one at a time, holding only the rows of requests no earlier source answers (so
 * memory does not grow with the number of sources); a skipped one
 * is told through `warn` and gives nothing. Refused: a locked source, a graded one that `verify` does not pass
 * or whose answers differ from its grades, an ungraded one without `ungraded`.
 */
export async function readReuseSources(
  directories: readonly string[],
  contracts: Contracts,
  endpoint: string,
  tasks: readonly AnswerTask[],
  options: { warn: (line: string) => void; ungraded: boolean },
): Promise<ReuseSource[]> {
  const sources: ReuseSource[] = [];
  let open: readonly AnswerTask[] = tasks;
  for (const directory of directories) {
    await refuseIfLocked(directory, LOCKED_SOURCE);
    const look = await lookAtReuseSource(directory, contracts, endpoint);
    if (look.kind === "skipped") {
      options.warn(`reuse: nothing taken from ${directory}: ${look.reason}`);
      continue;
    }
    const graded = await gradedAnswers(directory, contracts, options.ungraded);
    // Every source is proved; each holds only the answers no earlier source gives (the first source's win).
    const source = await readReuseRows(directory, look.marker, contracts, tasks, graded, open);
    sources.push(source);
    open = unansweredTasks(open, [source]);
  }
  return sources;
}

/**
 * The sources of each of K runs (reuse keys on the run number too): run r reads each source's run r, its
 * directory itself for run 1 and `epoch-r/` after; a source without that run (a one-run source, for r > 1)
 * gives that run nothing.
 */
export async function readReuseSourcesByRun(
  directories: readonly string[],
  epochs: number,
  from: {
    contracts: Contracts;
    endpoint: string;
    tasks: readonly AnswerTask[];
    warn: (line: string) => void;
    ungraded: boolean;
  },
): Promise<ReuseSource[][]> {
  const runs: ReuseSource[][] = [];
  for (let run = 1; run <= epochs; run++) {
    const present: string[] = [];
    for (const directory of directories.map((source) => epochDirectory(source, run))) {
      if (run === 1 || await exists(directory)) present.push(directory);
    }
    const options = { warn: from.warn, ungraded: from.ungraded };
    runs.push(await readReuseSources(present, from.contracts, from.endpoint, from.tasks, options));
  }
  return runs;
}

/**
 * Per run, the rows a dry run with `--reuse` would take from earlier runs: the endpoint is the base URL
 * variable's (the key is not read), so a dry run prices only what would be called.
 */
export async function dryRunReuse(
  request: {
    reuse?: readonly string[];
    reuseUngraded?: boolean;
    env: (name: string) => string | undefined;
    onNotice?: (line: string) => void;
  },
  stage: { contracts: Contracts; tasks: readonly AnswerTask[]; epochs: number },
  plans: readonly (RowPlan[] | undefined)[],
): Promise<Set<string>[]> {
  if ((request.reuse ?? []).length === 0) return plans.map(() => new Set());
  const { contracts, tasks } = stage;
  const variable = contracts.config.qa.base_url_env;
  const baseUrl = Deno.permissions.querySync({ name: "env", variable }).state === "granted"
    ? request.env(variable)
    : undefined;
  if (baseUrl === undefined || !URL.canParse(baseUrl)) {
    throw new InputError(
      `--reuse matches answers by endpoint: set ${variable} to its base URL for the dry run too (the key is ` +
        "not read)",
    );
  }
  const byRun = await readReuseSourcesByRun(request.reuse!, stage.epochs, {
    contracts,
    endpoint: endpointIdentity(baseUrl),
    tasks,
    warn: request.onNotice ?? (() => {}),
    ungraded: request.reuseUngraded ?? false,
  });
  return plans.map((runPlans, index) =>
    reusableTasks(
      runPlans ?? tasks.map((task) => ({ task, path: "", state: "missing" as const })),
      byRun[index],
    )
  );
}

/** A graded source's verified rows by row id; `undefined` for an ungraded one taken with the flag. */
async function gradedAnswers(
  directory: string,
  contracts: Contracts,
  ungraded: boolean,
): Promise<Map<string, GradedRow> | undefined> {
  if (!await exists(`${directory}/${GRADED_ROWS_FILE}`)) {
    if (ungraded) return undefined;
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
  const { result, rows } = await verifyQaRun(runFilesOf(directory), contracts);
  if (!result.ok || rows === undefined) {
    const failed = result.checks.find((check) => check.verdict === "fail");
    const first = failed === undefined ? "" : `; the first: ${checkLine(failed)}`;
    throw new InputError(`not reused: ${result.conclusion}${first} (run verify on it)`, { path: directory });
  }
  return new Map(rows.map((row) => [row.row_id, row]));
}
