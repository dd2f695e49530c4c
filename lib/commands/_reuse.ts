/**
 * `run-qa --reuse DIR[,DIR…]`: the earlier runs whose answers identical requests take. Each is read through
 * the qa layer's structural checks; one that also holds graded outputs must pass `verify` as well.
 *
 * @module
 */

import { exists, InputError } from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import { type AnswerTask, GRADED_ROWS_FILE, readReuseSource, type ReuseSource } from "../qa/mod.ts";
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
