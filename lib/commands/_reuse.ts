/**
 * `run-qa --reuse DIR[,DIR…]`: the earlier runs whose answers identical requests take. Each is read through
 * the qa layer's structural checks; one that also holds graded outputs must pass `verify` as well.
 *
 * @module
 */

import { exists, InputError } from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import {
  type AnswerTask,
  epochDirectory,
  GRADED_ROWS_FILE,
  readReuseSource,
  type ReuseSource,
} from "../qa/mod.ts";
import { verifyResults } from "../verify/mod.ts";

/** The `--reuse` flag: directories separated by commas. */
export const REUSE_FLAG = {
  reuse: {
    type: "list",
    of: "directories",
    value: "DIR[,DIR…]",
    help: "take the recorded answer of every task whose request (fingerprint and endpoint)\n" +
      "an earlier run directory answered; call only the rest",
  },
} as const;

/**
 * Reads every source in order; a skipped one is told through `warn` and gives nothing. A source with graded
 * outputs that `verify` does not pass is refused.
 */
export async function readReuseSources(
  directories: readonly string[],
  contracts: Contracts,
  endpoint: string,
  tasks: readonly AnswerTask[],
  warn: (line: string) => void,
): Promise<ReuseSource[]> {
  const sources: ReuseSource[] = [];
  for (const directory of directories) {
    const read = await readReuseSource(directory, contracts, endpoint, tasks);
    if (read.kind === "skipped") {
      warn(`reuse: nothing taken from ${directory}: ${read.reason}`);
      continue;
    }
    if (await exists(`${directory}/${GRADED_ROWS_FILE}`)) {
      const verified = await verifyResults(directory, contracts);
      if (!verified.ok) {
        throw new InputError(`not reused: ${verified.conclusion} (run verify on it)`, { path: directory });
      }
    }
    sources.push(read.source);
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
  },
): Promise<ReuseSource[][]> {
  const runs: ReuseSource[][] = [];
  for (let run = 1; run <= epochs; run++) {
    const present: string[] = [];
    for (const directory of directories.map((source) => epochDirectory(source, run))) {
      if (run === 1 || await exists(directory)) present.push(directory);
    }
    runs.push(await readReuseSources(present, from.contracts, from.endpoint, from.tasks, from.warn));
  }
  return runs;
}
