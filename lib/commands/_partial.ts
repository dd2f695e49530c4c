/**
 * A partial run in `verify` and `report`: its line first in every format (as the synthetic notice is added, from
 * the command, without touching the renderers), and never compared with another run.
 *
 * @module
 */

import { CommandFailedError, InputError } from "../base/mod.ts";
import { escapeHtml } from "../report/mod.ts";
import { checkLine, findPartialRun, partialChecks, partialJson, type PartialRun } from "../verify/mod.ts";
import type { AnswerTask } from "../qa/mod.ts";
import type { Io } from "./_command.ts";
import type { ReportFile } from "./_report_files.ts";
import type { ReportFormat } from "./_synthetic.ts";

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

/** `document` with the partial run's line first, in the way of each format. */
export function labelPartial(partial: PartialRun, format: ReportFormat, document: string): string {
  const { line } = partial;
  if (format === "text") return `${line}\n${document}`;
  if (format === "markdown") return `> **${line}**\n\n${document}`;
  if (format === "json") {
    const value = JSON.stringify(partialJson(partial), null, 2).replace(/\n/g, "\n  ");
    return document.replace(/^\{\n/, `{\n  "partial": ${value},\n`);
  }
  return document.replace("<title>", "<title>PARTIAL — ").replace(
    /<body>\n?/,
    (body) => `${body}<p><strong>${escapeHtml(line)}</strong></p>\n`,
  );
}

/** The report files, each labelled as {@linkcode labelPartial} does. */
export function labelPartialFiles(
  partial: PartialRun | undefined,
  files: readonly ReportFile[],
): ReportFile[] {
  if (partial === undefined) return [...files];
  return files.map((file) => ({
    ...file,
    render: () => labelPartial(partial, file.flag === "--html" ? "html" : "markdown", file.render()),
  }));
}
