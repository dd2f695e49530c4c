/**
 * The report files `report` writes on request: Markdown and HTML, both or neither, never over an existing
 * file; `-` sends that one document to standard output instead.
 *
 * @module
 */

import { InputError, publishFiles, refuseExisting, visible } from "../base/mod.ts";
import { type Io, publishOptions, type TestSeams, writeDocument } from "./_command.ts";

/** `--markdown` and `--html`, declared once for `report`. */
export const REPORT_FILE_FLAGS = {
  markdown: {
    type: "string",
    value: "FILE",
    help: "also write the report as GitHub-flavoured Markdown (- for standard output)",
  },
  html: {
    type: "string",
    value: "FILE",
    help: "also write one self-contained HTML file, inline CSS and SVG charts (- for standard output)",
  },
} as const;

/** One requested document: where it goes and how to render it. */
export interface ReportFile {
  flag: "--markdown" | "--html";
  path: string;
  render: () => string;
}

/** Whether one of the documents goes to standard output (then the terminal text does not). */
export function toStandardOutput(files: readonly ReportFile[]): boolean {
  return files.some((file) => file.path === "-");
}

/** Refuses requested documents that cannot be written: two on standard output, no name, one name twice. */
function checkTargets(paths: readonly string[]): string[] {
  if (paths.filter((path) => path === "-").length > 1) {
    throw new InputError("only one of --markdown and --html can be - (standard output)");
  }
  const files = paths.filter((path) => path !== "-");
  if (files.some((path) => path === "")) throw new InputError("--markdown and --html need a file name");
  if (new Set(files).size !== files.length) throw new InputError("--markdown and --html name the same file");
  return files;
}

/**
 * Refuses, before anything is read or printed, the documents `--markdown` and `--html` ask for that cannot be
 * written or already exist (the publish refuses again if one appeared meanwhile).
 */
export async function refuseReportTargets(flags: { markdown?: string; html?: string }): Promise<void> {
  const paths = [flags.markdown, flags.html].filter((path) => path !== undefined);
  await refuseExisting(checkTargets(paths));
}

/**
 * Writes the requested documents: `-` to standard output, the others published together. Each `wrote FILE`
 * goes to standard output, or to standard error when a document is there (`-`, or the `--json` one that
 * `json` says was printed), so the document stays the whole of standard output.
 */
export async function writeReportFiles(
  files: readonly ReportFile[],
  io: Io,
  seams: TestSeams,
  json = false,
): Promise<void> {
  checkTargets(files.map((file) => file.path));
  const toStdout = files.filter((file) => file.path === "-");
  const paths = files.filter((file) => file.path !== "-");
  // A file, like a pipe, never carries a control byte: any outside text the renderer let through is escaped.
  const render = (file: ReportFile) => visible(file.render(), { keepLines: true });
  await publishFiles(paths.map((file) => [file.path, render(file)] as const), publishOptions(io, seams));
  for (const file of toStdout) writeDocument(io, render(file).replace(/\n$/, ""));
  const note = json || toStdout.length > 0 ? io.err : io.out;
  for (const file of paths) note(`wrote ${visible(file.path)}`);
}
