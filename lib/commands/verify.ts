/**
 * `verify`: proves offline that a published results directory follows from its rows.
 *
 * @module
 */

import { CommandFailedError, exists, InputError, RunFiles } from "../base/mod.ts";
import {
  type Check,
  checkLine,
  findPartialRun,
  formatVerifyResult,
  partialJson,
  recordedCandidate,
  refuseOtherProtocol,
  verifyPartialRun,
  verifyPolicyRun,
  verifyQaRun,
  verifySweep,
} from "../verify/mod.ts";
import { isSweepDirectory } from "../report/mod.ts";
import { policyPair } from "../qa/mod.ts";
import { POLICIES } from "../policy/mod.ts";
import { type Contracts, notPinnedLine, PUBLISHED_RUN, withPublishedRun } from "../protocol/mod.ts";
import type { StageProtocol } from "./_protocol.ts";
import { defineCommand, type Io, writeDocument } from "./_command.ts";
import { DATASET_FLAG, PROTOCOL_FLAGS } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";
import { loadProtocolIfDataset } from "./_protocol.ts";
import { timedStep } from "./_progress.ts";
import {
  datasetForRun,
  isPolicyRunDirectory,
  moduleRequest,
  POLICY_MODULE_FLAG,
  runCandidateHooks,
} from "./_candidate.ts";
import type { CustomPolicyRun } from "./_policy_module.ts";

/** The `verify` command. */
export const command = defineCommand({
  name: "verify",
  summary: "prove offline that a published results directory follows from its rows",
  positionals: [{ name: "RESULTS_DIR", optional: true }],
  description:
    `Without RESULTS_DIR, verifies the published run embedded in this program (results/pr4789-reproduction-v1).
Reads RESULTS_DIR (qa.rows.jsonl, qa.summary.json, qa.stats.json, qa_run.json) and lists each check with its
verdict: the rows' schema, QA capacity and grader version; one row per (case, policy) with the capacity's kept
facts; qa.rows.jsonl byte for byte the canonical serialisation of its rows; qa.summary.json and qa.stats.json
re-derived byte for byte; the run marker as grade-qa checks it. Without a dataset the closing line says that
predictions and grades are not re-derived. With one it rebuilds the tasks and re-derives every row's
identity, kept facts, fingerprint, question type, support fields, grade and rule; prediction text, usage,
attempts and response_model are recorded, not re-derivable. A policy run (policy.raw.jsonl, summary.json,
run.json) and a sweep (sweep.json, sweep.jsonl: its recorded SHA-256, each row where the grid puts it, sweep.json
re-derived from the rows; with a dataset every row recomputed) are verified as their kind. A run made with
run-qa --policy-module is verified with the dataset only given the same module (by SHA-256), against the
baseline its qa_run.json records; without the dataset, its structure and statistics are checked as the run
records its two policies. A policy run made with run-policy --policy-module is checked without the dataset as
any policy run; with it, its published rows are recomputed, and its module's rows too given the same
--policy-module (another module is refused by SHA-256). A run made under another protocol is refused in one
line naming the differing field. Writes nothing; no network. Exit 0 only when every check run holds.`,
  flags: {
    ...DATASET_FLAG,
    json: { type: "boolean", help: "print the checks and the verdict as one JSON document" },
    ...POLICY_MODULE_FLAG,
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, positionals, io }) {
    const directory = positionals[0];
    const json = flags.json ?? false;
    // Each file of the run is read once, by the module's check or the run's own: one set of bytes per verdict.
    const held = directory === undefined ? undefined : new RunFiles(directory);
    const hooks = runCandidateHooks(moduleRequest(flags), held);
    const source = await protocolSource(flags, io, directory);
    const dataset = await datasetForRun(held, moduleRequest(flags), flags.dataset, source.dataset);
    // Only a run that holds answers is re-derived on the tasks: a policy run or a sweep needs just the cases.
    const answers = directory === undefined ||
      !(await isPolicyRunDirectory(directory) || await isSweepDirectory(directory));
    const load = () => loadProtocolIfDataset(source.contracts, dataset, hooks, answers);
    const { contracts, stage, tasks } = dataset === undefined ? await load() : await timedStep(
      io,
      "verify",
      "preparing the dataset",
      "dataset prepared",
      "cases",
      load,
      (loaded) => loaded.stage?.prepared.cases.length ?? 0,
    );
    // A protocol that wears the pinned id without its bytes is told first, in either format.
    const notPinned = await notPinnedLine(contracts);
    if (notPinned !== undefined && !json) io.out(notPinned);
    const first = notPinned === undefined ? {} : { not_pinned: notPinned };
    const check = async (path: string) => {
      const files = held ?? new RunFiles(path);
      // A run of another protocol is told in one line, before any check is listed.
      if (await isRunDirectory(path)) await refuseOtherProtocol(files, contracts);
      // A run-policy directory is verified as one; anything else gets the QA checks, which say what is missing.
      if (await isPolicyRunDirectory(path)) {
        return await checkPolicyRun(files, contracts, stage, io, json, hooks.policyRun(), first);
      }
      if (await isSweepDirectory(path)) {
        const { checks, proved } = await verifySweep(files, contracts, stage?.prepared.cases);
        const policies = [...POLICIES];
        return printChecks({ directory: path, kind: "sweep", policies, checks, proved }, io, json, first);
      }
      // A run with no full outputs but a partial grading is verified as one, and says so first.
      const partial = await findPartialRun(path);
      const options = { candidate: hooks.recorded() };
      const { result, pair } = partial === undefined ? await verifyQaRun(files, contracts, tasks, options) : {
        result: await verifyPartialRun(partial, contracts, tasks, options),
        pair: policyPair(options.candidate ?? await recordedCandidate(files)),
      };
      if (json) {
        const named = {
          ...first,
          directory: directory ?? PUBLISHED_RUN,
          kind: "qa",
          policies: pair,
          ...result,
        };
        writeDocument(
          io,
          JSON.stringify(partial ? { partial: partialJson(partial), ...named } : named, null, 2),
        );
      } else {
        if (partial !== undefined) io.out(partial.line);
        io.out(runOf("a QA run", pair));
        io.out(formatVerifyResult(result));
      }
      if (!result.ok) throw new CommandFailedError("a check does not hold");
    };
    if (directory === undefined) {
      if (!json) io.out(`${PUBLISHED_RUN}: the published run embedded in this program`);
      await withPublishedRun(check);
      return;
    }
    if (!await exists(directory)) throw new InputError("results directory not found", { path: directory });
    await check(directory);
  },
});

/** A run-policy directory: every row recomputed with the dataset, the summary and run record always. */
async function checkPolicyRun(
  files: RunFiles,
  contracts: Contracts,
  stage: StageProtocol | undefined,
  io: Io,
  json: boolean,
  module: CustomPolicyRun | undefined,
  first: { not_pinned?: string },
): Promise<void> {
  const { checks, proved, rows } = await verifyPolicyRun(files, contracts, stage?.prepared.cases, module);
  const policies = [...new Set([...POLICIES, ...(rows ?? []).map((row) => row.policy)])];
  printChecks({ directory: files.directory, kind: "policy", policies, checks, proved }, io, json, first);
}

/** Prints a policy run's or a sweep's checks and closing line (or one JSON document); fails if any failed. */
function printChecks(
  verified: {
    directory: string;
    kind: "policy" | "sweep";
    policies: string[];
    checks: Check[];
    proved: string;
  },
  io: Io,
  json: boolean,
  first: { not_pinned?: string },
): void {
  const { directory, kind, policies, checks, proved } = verified;
  const failed = checks.filter((check) => check.verdict === "fail").length;
  const conclusion = failed > 0 ? `NOT verified: ${failed} of ${checks.length} checks failed` : proved;
  if (json) {
    const document = { ...first, directory, kind, policies, checks, ok: failed === 0, conclusion };
    writeDocument(io, JSON.stringify(document, null, 2));
  } else {
    io.out(
      kind === "sweep"
        ? "a sweep of hybrid-v1's parameters against confidence"
        : runOf("a policy run", policies),
    );
    for (const check of checks) io.out(checkLine(check));
    io.out(conclusion);
  }
  if (failed > 0) throw new CommandFailedError("a check does not hold");
}

/** What marks each kind of run directory; a directory holding none of them is no run. */
const RUN_MARKS = ["qa.rows.jsonl", "qa_run.json", "policy.raw.jsonl", "sweep.jsonl"];

/**
 * Whether `path` is a directory holding a run; one that holds none of the files any run writes is refused in
 * one line. Anything but a directory is `false`, left to the checks, which name what cannot be read.
 */
async function isRunDirectory(path: string): Promise<boolean> {
  if (!(await Deno.stat(path)).isDirectory) return false;
  for (const mark of RUN_MARKS) if (await exists(`${path}/${mark}`)) return true;
  throw new InputError(`is no run directory: it holds none of ${RUN_MARKS.join(", ")}`, { path });
}

/** The line naming what a run compares: `a QA run of confidence and hybrid-v1`. */
function runOf(kind: string, policies: readonly string[]): string {
  const named = policies.length <= 2
    ? policies.join(" and ")
    : `${policies.slice(0, -1).join(", ")} and ${policies.at(-1)}`;
  return `${kind} of ${named}`;
}
