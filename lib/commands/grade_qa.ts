/**
 * Stage 5, `grade-qa`: re-verifies a `run-qa` directory read-only, grades every prediction blindly against the
 * recomputed reference answer and writes the graded rows, the summary and the statistics, all together or not at
 * all.
 *
 * @module
 */

import {
  type AnswerTask,
  caseLevelLines,
  type EpochStats,
  epochStats,
  GRADED_OUTPUTS,
  MARKER_FILE,
  PARTIAL_RECORD_FILE,
  partialLine,
  type PolicyPair,
  policyPair,
  readMarker,
  responsePath,
  responsesDir,
  rowFileName,
  type RunCandidate,
  suiteLines,
  SUPERSEDED_DIR,
} from "../qa/mod.ts";
import {
  type FileContent,
  listDirectory,
  publishFiles,
  type PublishOptions,
  refuseExisting,
  refuseIfLocked,
  RowIntegrityError,
  RunFiles,
  runFilesOf,
  visible,
  writeAllOrNothing,
} from "../base/mod.ts";
import type { ContractPaths, Contracts } from "../protocol/mod.ts";
import { defineCommand, publishOptions } from "./_command.ts";
import type { GradedRun } from "./_grading.ts";

export type { GradedRun };
import { loadTaskProtocol } from "./_protocol.ts";
import { type ModuleRequest, moduleRequest, POLICY_MODULE_FLAG, runCandidateHooks } from "./_candidate.ts";
import { DATASET_FLAG, PROTOCOL_FLAGS, requiredDirectory, wroteLine } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";
import { gradePartial, partialDir } from "./_partial_grade.ts";
import { gradedFiles, type ReadAnswerRow, readAnswerRows } from "./_grading.ts";
import { runDirectories } from "./_epochs.ts";

/** The three files `grade-qa` writes. */
export const QA_OUTPUTS: typeof GRADED_OUTPUTS = GRADED_OUTPUTS;

/** What `grade-qa` reads: the protocol's files, the dataset and the run directory. */
export interface GradeQaRequest {
  contracts: ContractPaths;
  dataset: string | undefined;
  directory: string;
  /**
   * Told the files in a run directory's `responses/` that are not a task's row (not graded), before grading;
   * in a K-run directory, with the run (r of K) they are in.
   */
  onForeignFiles?: (names: string[], directory: string, run?: { run: number; of: number }) => void;
  /** How the three files are published (a test's hook sees each file operation). */
  publish?: PublishOptions;
  /** The candidate policy module the run was made with (`run-qa --policy-module`). */
  policyModule?: ModuleRequest;
}

/**
 * Stage 5 from files: refuses existing outputs before any work, loads the contracts, prepares the dataset,
 * builds the tasks, names foreign files in `responses/`, then grades ({@linkcode gradeRun}).
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { OverwriteError } from "../base/errors.ts";
 * import { gradeQa } from "./grade_qa.ts";
 * const directory = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${directory}/qa.stats.json`, "{}");
 * // An existing output refuses the run before the contracts or the dataset are read.
 * await rejects(gradeQa({ contracts: {}, dataset: undefined, directory }), OverwriteError);
 * ```
 */
export async function gradeQa(request: GradeQaRequest): Promise<GradedRun> {
  const { directory } = request;
  // Existing outputs refuse the run before any work (and gradeRun's all-or-nothing write refuses again).
  await refuseExisting(QA_OUTPUTS.map((name) => `${directory}/${name}`));
  // The module named must be the run's (by SHA-256); the baseline is the one the run recorded.
  // The marker is read once, for the module's check and the run's alike.
  const files = new RunFiles(directory);
  const hooks = runCandidateHooks(request.policyModule, files);
  const { contracts, tasks } = await loadTaskProtocol(request.contracts, request.dataset, hooks);
  const foreign = await foreignResponseFiles(directory, tasks);
  if (foreign.length > 0) request.onForeignFiles?.(foreign, directory);
  return await gradeRun(files, contracts, tasks, request.publish, hooks.recorded(), { partial: true });
}

/**
 * Stage 5 on a K-run directory (`run-qa --epochs K`): every run's outputs refused before any work, the protocol
 * loaded once, the foreign files of each run named, then the K runs graded together ({@linkcode gradeRuns}).
 */
export async function gradeEpochs(
  request: GradeQaRequest,
  directories: readonly string[],
): Promise<EpochGrades> {
  for (const directory of directories) await refuseExisting(QA_OUTPUTS.map((name) => `${directory}/${name}`));
  const files = new RunFiles(request.directory);
  const hooks = runCandidateHooks(request.policyModule, files);
  const { contracts, tasks } = await loadTaskProtocol(request.contracts, request.dataset, hooks);
  for (const [index, directory] of directories.entries()) {
    const foreign = await foreignResponseFiles(directory, tasks);
    if (foreign.length > 0) {
      request.onForeignFiles?.(foreign, directory, { run: index + 1, of: directories.length });
    }
  }
  const runs = [files, ...directories.slice(1)];
  return await gradeRuns(runs, contracts, tasks, request.publish, hooks.recorded());
}

/** K graded runs and their case-level verdict. */
export interface EpochGrades {
  runs: GradedRun[];
  stats: EpochStats;
}

/**
 * Grades K runs all together or not at all: each run is checked and graded in memory as {@linkcode gradeRun}
 * grades one (a run missing a row refuses: no partial grading across K runs), then the K runs' files are
 * published in one all-or-nothing publish across their directories — the same staging, links and undo a
 * one-run grade's publish makes, so each run's three files are byte for byte a one-run grade's, and no reader
 * needs a marker. A bad row in any run, an I/O failure or a signal while publishing leaves no run graded.
 */
export async function gradeRuns(
  runs: readonly (string | RunFiles)[],
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  publish: PublishOptions = {},
  candidate?: RunCandidate,
): Promise<EpochGrades> {
  const staged: GradedRun[] = [];
  const files: [path: string, content: FileContent][] = [];
  for (const run of runs) {
    const checked = await checkedRun(run, contracts, tasks, candidate);
    refuseMissing(checked.directory, tasks, checked.present);
    const graded = gradedFiles(checked.directory, contracts, checked.present, checked.pair);
    staged.push({ rows: graded.graded, suites: graded.suites, pair: checked.pair });
    for (const [name, content] of Object.entries(graded.files)) {
      files.push([`${checked.directory}/${name}`, content]);
    }
  }
  await publishFiles(files, publish);
  return { runs: staged, stats: epochStats(staged.map((run) => run.rows), contracts.config, staged[0].pair) };
}

/**
 * Re-verifies a `run-qa` directory read-only — the marker's five hashes against the protocol in use, and every
 * one of the tasks' rows present and equal to its recomputed task (the first mismatch refuses, naming the row
 * file and the field) — then grades each prediction blindly against the recomputed reference answer and writes
 * `qa.rows.jsonl`, `qa.summary.json` and `qa.stats.json` all together or not at all, refusing (before any work)
 * to overwrite any of them. A task without its row refuses the run, unless `options.partial`: then the complete
 * pairs are graded into `DIR/partial/` instead (see `_partial_grade.ts`).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/mod.ts";
 * import { answerTasks, buildAnswerTasks } from "../qa/mod.ts";
 * import { gradeRun } from "./grade_qa.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const tasks = await buildAnswerTasks(contracts, cases), dir = await Deno.makeTempDir();
 * const provider = () => Promise.resolve({ prediction: "INSUFFICIENT", responseModel: "m", usage: {} }); // offline
 * await answerTasks(contracts, tasks, dir, { provider, retry: { maxAttempts: 1 }, workers: 4, source: { dirty: null, head: null } });
 * const { rows } = await gradeRun(dir, contracts, tasks); // and writes qa.rows.jsonl, qa.summary.json, qa.stats.json
 * deepStrictEqual([rows.length, rows.filter((row) => row.grade_correct).length], [90, 0]);
 * ```
 */
export async function gradeRun(
  run: string | RunFiles,
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  publish: PublishOptions = {},
  candidate?: RunCandidate,
  options: { partial?: boolean } = {},
): Promise<GradedRun> {
  const { directory, pair, markerText, present } = await checkedRun(run, contracts, tasks, candidate);
  if (present.length < tasks.length) {
    if (!options.partial) refuseMissing(directory, tasks, present);
    return await gradePartial({ directory, contracts, tasks, present, pair, markerText, publish });
  }
  const { graded, suites, files } = gradedFiles(directory, contracts, present, pair);
  await writeAllOrNothing(directory, files, publish);
  return { rows: graded, suites, pair };
}

/**
 * A run checked read-only before it is graded: not locked, its outputs absent, its marker the protocol's (and
 * the candidate's), and every row there is read and held to its task.
 */
async function checkedRun(
  run: string | RunFiles,
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  candidate: RunCandidate | undefined,
): Promise<{ directory: string; pair: PolicyPair; markerText: string; present: ReadAnswerRow[] }> {
  const held = runFilesOf(run);
  const { directory } = held;
  await refuseIfLocked(directory, "grade the run after it has finished");
  await refuseExisting(QA_OUTPUTS.map((name) => `${directory}/${name}`));
  await readMarker(held, contracts, candidate);
  // The marker's bytes as its check read them: a partial grading keeps a copy of them.
  const markerText = (await held.text(MARKER_FILE, "run marker"))!;
  const present = await readAnswerRows(directory, tasks);
  return { directory, pair: policyPair(candidate), markerText, present };
}

/** Refuses a run in which a task has no answer row, naming the first such row's file. */
function refuseMissing(
  directory: string,
  tasks: readonly AnswerTask[],
  present: readonly ReadAnswerRow[],
): void {
  if (present.length === tasks.length) return;
  const missing = tasks.find((task) => !present.some((read) => read.task === task))!;
  throw new RowIntegrityError("missing: every task needs its answer row (run run-qa to resume)", {
    path: responsePath(directory, missing.rowId),
  });
}

/**
 * The entries of a run's `responses/` that are not the row file of one of `tasks` (nor run-qa's
 * `superseded/`): stray or foreign files, which `grade-qa` does not grade and names in a warning.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { foreignResponseFiles } from "./grade_qa.ts";
 * const dir = await Deno.makeTempDir();
 * deepStrictEqual(await foreignResponseFiles(dir, []), []); // no responses/ yet
 * await Deno.mkdir(`${dir}/responses/superseded`, { recursive: true }); // run-qa's own
 * await Deno.writeTextFile(`${dir}/responses/notes.txt`, "");
 * deepStrictEqual(await foreignResponseFiles(dir, []), ["notes.txt"]);
 * ```
 */
export async function foreignResponseFiles(
  directory: string,
  tasks: readonly AnswerTask[],
): Promise<string[]> {
  const names = await listDirectory(responsesDir(directory)) ?? [];
  const rows = new Set(tasks.map((task) => rowFileName(task.rowId)));
  return names.filter((name) => name !== SUPERSEDED_DIR && !rows.has(name));
}

/** What a line about run r of a K-run directory starts with (`run r/K: `); nothing for a one-run directory. */
function runLabel(run: { run: number; of: number } | undefined): string {
  return run === undefined ? "" : `run ${run.run}/${run.of}: `;
}

/** The `grade-qa` command. */
export const command = defineCommand({
  name: "grade-qa",
  summary: "re-verify a QA run read-only, grade blindly, write rows, summary and statistics",
  description:
    `Re-verifies the run in DIR without changing it: qa_run.json must carry the five artifact hashes of the
protocol in use; every task is recomputed, and each of its rows must exist and equal it in row id, case id,
source, scenario, policy, capacity, kept facts and request fingerprint — the first that does not refuses the
directory, naming the row and the field. Then grades every prediction blindly against the reference answer of
the recomputed case (never one a row names) and writes into DIR:
  qa.rows.jsonl     the graded rows
  qa.summary.json   accuracy by source, scenario and policy
  qa.stats.json     exact McNemar and the seeded paired bootstrap, per suite
Refuses to overwrite any of them. A partial run (run-qa --limit, or interrupted) is graded on its complete pairs
into DIR/partial (the three files, qa_run.json and partial.json), never into DIR's own files; verify and report
then read it as "partial: K of N tasks". A K-run directory (run-qa --epochs K) has every run graded, each into
its own directory, all K or none, and the case-level verdict printed: per suite the exact sign-flip test over the cases, K
runs each, and the cases whose grade flips between runs. No network. A run made with --policy-module is graded only with the same
module (by SHA-256), its candidate against the baseline qa_run.json records.`,
  flags: {
    ...DATASET_FLAG,
    "output-dir": { type: "string", value: "DIR", help: "the run-qa directory", required: true },
    ...POLICY_MODULE_FLAG,
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, io, seams }) {
    const directory = requiredDirectory(flags["output-dir"]);
    const request: GradeQaRequest = {
      ...await protocolSource(flags, io, directory),
      directory,
      onForeignFiles: (foreign, where, run) =>
        io.err(
          `${runLabel(run)}warning: ${
            visible(where)
          }/responses holds ${foreign.length} file(s) that are not ` +
            `a task's row, not graded: ${foreign.map((name) => visible(name)).join(", ")}`,
        ),
      publish: publishOptions(io, seams),
      policyModule: moduleRequest(flags),
    };
    const directories = await runDirectories(directory);
    if (directories.length > 1) {
      const { runs, stats } = await gradeEpochs(request, directories);
      for (const [index, run] of runs.entries()) {
        const label = runLabel({ run: index + 1, of: runs.length });
        for (const line of suiteLines(run.rows, run.suites, run.pair)) io.out(label + line);
      }
      for (const line of caseLevelLines(stats)) io.out(line);
      io.out(
        `wrote ${QA_OUTPUTS.join(", ")} into each of the ${runs.length} runs: ${directories.join(", ")}`,
      );
      return;
    }
    const { rows, suites, pair, partial } = await gradeQa(request);
    if (partial !== undefined) io.out(partialLine(partial));
    for (const line of suiteLines(rows, suites, pair)) io.out(line);
    if (partial === undefined) io.out(wroteLine(directory, QA_OUTPUTS));
    else io.out(wroteLine(partialDir(directory), [...QA_OUTPUTS, PARTIAL_RECORD_FILE]));
  },
});
