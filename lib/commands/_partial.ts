/**
 * A partial run in `verify` and `report`: refused when its own checks fail, and never compared with another run
 * (its line is one of the report's notices).
 *
 * @module
 */

import { CommandFailedError, InputError } from "../base/mod.ts";
import { checkLine, findPartialRun, partialChecks, type PartialRun } from "../verify/mod.ts";
import type { AnswerTask } from "../qa/mod.ts";
import type { Io } from "./_command.ts";

/**
 * The partial run `report` shows, or `undefined`; either side of `--against` partial is refused in one line,
 * since a partial run is never compared as if it were the protocol.
 */
export async function partialToReport(directory: string, against?: string): Promise<PartialRun | undefined> {
  const partial = await findPartialRun(directory);
  if (against === undefined) return partial;
  const other = await findPartialRun(against);
  for (const [side, found] of [[directory, partial], [against, other]] as const) {
    if (found === undefined) continue;
    const { tasks_with_rows: k, tasks: n } = found.record;
    throw new InputError(`${side} is partial: ${k} of ${n} tasks; complete it with run-qa, then grade-qa`);
  }
  return undefined;
}

/** Refuses to report a partial grading whose own checks fail, printing them on standard error. */
export async function refuseUnsoundPartial(
  io: Io,
  partial: PartialRun,
  tasks: readonly AnswerTask[] | undefined,
): Promise<void> {
  const checks = await partialChecks(partial, tasks);
  const failed = checks.filter((check) => check.verdict === "fail");
  if (failed.length === 0) return;
  io.err(partial.line);
  for (const check of checks) io.err(checkLine(check));
  const message =
    `${partial.grading}: the partial grading does not verify (${failed.length} check(s) failed)`;
  io.err(`deermem-eval report: ${message}`);
  throw new CommandFailedError(message);
}
