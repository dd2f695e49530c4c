/**
 * Which report model a run directory is read into: QA results or a policy run (the commands' run-kind
 * registry, `commands/_run_kinds.ts`, tells every kind apart).
 *
 * @module
 */

import { GRADED_OUTPUTS, MARKER_FILE } from "../../qa/mod.ts";
import { exists, InputError } from "../../base/mod.ts";

/** The two kinds of run directory a report reads. */
export type RunKind = "qa" | "policy";

/** The files that mark each kind of run directory. */
export const RUN_FILES: Record<RunKind, readonly string[]> = {
  qa: [...GRADED_OUTPUTS, MARKER_FILE],
  policy: ["policy.raw.jsonl", "summary.json", "run.json"],
};

/**
 * Which kind of run `directory` holds: `qa.rows.jsonl` makes a QA results directory, `policy.raw.jsonl` a
 * policy run; neither is an {@linkcode InputError}.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { InputError } from "../../base/errors.ts";
 * import { detectRunKind } from "./run_kind.ts";
 * const dir = await Deno.makeTempDir();
 * await rejects(detectRunKind(dir), InputError); // neither kind of run
 * await Deno.writeTextFile(`${dir}/policy.raw.jsonl`, "");
 * strictEqual(await detectRunKind(dir), "policy");
 * ```
 */
export async function detectRunKind(directory: string): Promise<RunKind> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(directory);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound ? "not found" : (error as Error).message;
    throw new InputError(`cannot read the run directory: ${reason}`, { path: directory, cause: error });
  }
  if (!info.isDirectory) throw new InputError("is not a directory", { path: directory });
  if (await exists(`${directory}/qa.rows.jsonl`)) return "qa";
  if (await exists(`${directory}/policy.raw.jsonl`)) return "policy";
  throw new InputError(
    "is neither a QA results directory (qa.rows.jsonl, qa.summary.json, qa.stats.json) nor a policy run (policy.raw.jsonl, summary.json, run.json)",
    { path: directory },
  );
}
