/**
 * `report RUN RUN…`: several candidate runs of one protocol and one baseline in one table. Every run's marker
 * is checked first (the protocol in use, then one baseline for all: a mismatch is one line), then every run
 * must pass `verify`'s structure-and-statistics checks; under the published protocol the published hybrid-v1
 * joins as a reference on the cases it shares.
 *
 * @module
 */

import { CommandFailedError, GRADED_ROWS_CAP, InputError, readTextIfExists } from "../base/mod.ts";
import { type ContractPaths, type Contracts, readContracts, withPublishedRun } from "../protocol/mod.ts";
import { GRADED_ROWS_FILE, type GradedRow, parseGradedRows, policyPair, readMarker } from "../qa/mod.ts";
import {
  type CandidateRunInput,
  checkOneBaseline,
  manyCandidates,
  renderManyCandidates,
} from "../report/mod.ts";
import { verifyResults } from "../verify/mod.ts";
import { type FlagValues, type Io, type TestSeams, writeDocument } from "./_command.ts";
import {
  type REPORT_FILE_FLAGS,
  type ReportFile,
  toStandardOutput,
  writeReportFiles,
} from "./_report_files.ts";

/** The flags that report one run and have no meaning for many. */
const ONE_RUN_FLAGS = [
  "against",
  "dataset",
  "policy-module",
  "policy-time-limit",
  "price-input",
  "price-output",
];

/** Reports `directories` as one table of candidates (text, Markdown, HTML or JSON as the flags ask). */
export async function reportManyCandidates(
  directories: readonly string[],
  paths: ContractPaths,
  flags: FlagValues<typeof REPORT_FILE_FLAGS> & { json?: boolean } & Record<string, unknown>,
  io: Io,
  seams: TestSeams,
): Promise<void> {
  const given = ONE_RUN_FLAGS.find((flag) => flags[flag] !== undefined);
  if (given !== undefined) {
    throw new InputError(`--${given} reports one run; several runs are reported as one table of candidates`);
  }
  if (flags.json && (flags.markdown === "-" || flags.html === "-")) {
    throw new InputError("--json prints to standard output, which --markdown - or --html - would share");
  }
  const contracts = await readContracts(paths);
  const runs: CandidateRunInput[] = [];
  for (const directory of directories) runs.push(await markedRun(directory, contracts));
  checkOneBaseline(runs); // one line for a second baseline, before any run is verified
  for (const run of runs) run.rows = await verifiedRows(run, contracts, io);
  const reference = await publishedReference(contracts);
  const table = manyCandidates(runs, contracts.config.statistics, reference);
  const files: ReportFile[] = (["markdown", "html"] as const).flatMap((format) => {
    const path = flags[format];
    return path === undefined
      ? []
      : [{ flag: `--${format}` as const, path, render: () => renderManyCandidates(table, format) }];
  });
  if (!toStandardOutput(files)) {
    if (flags.json) writeDocument(io, renderManyCandidates(table, "json"));
    else io.out(renderManyCandidates(table, "text", io.columns));
  }
  await writeReportFiles(files, io, seams, flags.json);
}

async function markedRun(directory: string, contracts: Contracts): Promise<CandidateRunInput> {
  const marker = await readMarker(directory, contracts, "as recorded");
  const [baseline, candidate] = policyPair(marker.candidate);
  return { directory, baseline, candidate, rows: [] };
}

async function verifiedRows(run: CandidateRunInput, contracts: Contracts, io: Io): Promise<GradedRow[]> {
  const verified = await verifyResults(run.directory, contracts);
  if (!verified.ok) {
    io.err(`deermem-eval report: ${run.directory}: ${verified.conclusion} (run verify on it)`);
    throw new CommandFailedError(verified.conclusion);
  }
  const path = `${run.directory}/${GRADED_ROWS_FILE}`;
  const text = await readTextIfExists(path, "graded rows", GRADED_ROWS_CAP);
  return parseGradedRows(text!, path, contracts.config, [run.baseline, run.candidate]);
}

/** The published run's hybrid-v1 rows when the runs are of its protocol (else no reference). */
async function publishedReference(
  contracts: Contracts,
): Promise<{ name: string; policy: string; rows: GradedRow[] } | undefined> {
  return await withPublishedRun(async (directory) => {
    try {
      await readMarker(directory, contracts, "as recorded");
    } catch (error) {
      if (error instanceof InputError) return undefined; // another protocol: no shared cases
      throw error;
    }
    const path = `${directory}/${GRADED_ROWS_FILE}`;
    const text = await readTextIfExists(path, "graded rows", GRADED_ROWS_CAP);
    const rows = parseGradedRows(text!, path, contracts.config);
    return { name: "the published run", policy: "hybrid-v1", rows };
  });
}
