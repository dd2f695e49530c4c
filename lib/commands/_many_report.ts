/**
 * `report RUN RUN…`: several candidate runs of one protocol and one baseline in one table. Every run's marker
 * is checked first (the protocol in use, then one baseline for all: a mismatch is one line), then every run
 * must pass `verify`'s structure-and-statistics checks — each of a K-run directory's runs (`run-qa --epochs
 * K`), which the table then tests over its cases; under the published protocol the published hybrid-v1 joins
 * as a reference on the cases it shares. The page opens with the notices a run's report would show (decided by
 * the protocol's content and the answers' models), the verdict and what was checked.
 *
 * @module
 */

import { CommandFailedError, GRADED_ROWS_CAP, InputError, readTextIfExists, RunFiles } from "../base/mod.ts";
import { type ContractPaths, type Contracts, readContracts, withPublishedRun } from "../protocol/mod.ts";
import { GRADED_ROWS_FILE, type GradedRow, parseGradedRows, policyPair, readMarker } from "../qa/mod.ts";
import {
  type CandidateRunInput,
  checkOneBaseline,
  manyCandidates,
  renderManyCandidates,
  reportNotices,
} from "../report/mod.ts";
import { verifyQaRun } from "../verify/mod.ts";
import { runDirectories } from "./_epochs.ts";
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
  const verified: VerifiedRuns[] = [];
  for (const run of runs) verified.push(await verifiedRuns(run, contracts, io));
  const reference = await publishedReference(contracts);
  // The answers' models of every run shown: a stand-in's answers say so, on any data.
  const models = verified.flatMap(({ epochs }) => epochs.flat().map((row) => row.response_model));
  const notices = await reportNotices(contracts, { responseModels: models });
  const reused = verified.reduce((total, { reused }) => total + reused, 0);
  const table = manyCandidates(runs, contracts.config.statistics, reference, { notices, reused });
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

/** A candidate directory's runs as verified: each run's rows (run 1 first), and the rows they reused. */
interface VerifiedRuns {
  epochs: GradedRow[][];
  reused: number;
}

/**
 * Verifies every run of `run`'s directory (one, or K of a K-run directory) as `verify` does without the
 * dataset, and takes each run's rows from the bytes its checks read; a run that fails is refused, named.
 */
async function verifiedRuns(run: CandidateRunInput, contracts: Contracts, io: Io): Promise<VerifiedRuns> {
  const epochs: GradedRow[][] = [];
  let reused = 0;
  for (const directory of await runDirectories(run.directory)) {
    const verified = await verifyQaRun(new RunFiles(directory), contracts);
    if (!verified.result.ok || verified.rows === undefined) {
      io.err(`deermem-eval report: ${directory}: ${verified.result.conclusion} (run verify on it)`);
      throw new CommandFailedError(verified.result.conclusion);
    }
    epochs.push(verified.rows);
    reused += verified.result.reused?.rows ?? 0;
  }
  run.rows = epochs[0];
  if (epochs.length > 1) run.epochs = epochs;
  return { epochs, reused };
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
