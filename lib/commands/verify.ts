/**
 * `verify`: proves offline that a published results directory follows from its rows.
 *
 * @module
 */

import { CommandFailedError, InputError } from "../base/errors.ts";
import { exists } from "../base/fs.ts";
import {
  type Check,
  checkLine,
  findPartialRun,
  formatVerifyResult,
  partialJson,
  verifyPartialRun,
  verifyPolicyRun,
  verifyResults,
  verifySweep,
} from "../verify/mod.ts";
import { isSweepDirectory } from "../report/mod.ts";
import { GRADED_ROWS_FILE } from "../qa/mod.ts";
import { POLICY_OUTPUTS } from "./run_policy.ts";
import type { Contracts } from "../protocol/mod.ts";
import type { StageProtocol } from "./_protocol.ts";
import { PUBLISHED_RUN, withPublishedRun } from "../protocol/mod.ts";
import { defineCommand, type Io, writeDocument } from "./_command.ts";
import { DATASET_FLAG, PROTOCOL_FLAGS } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";
import { loadProtocolIfDataset } from "./_protocol.ts";
import { timedStep } from "./_progress.ts";
import { moduleRequest, POLICY_MODULE_FLAG, runCandidateHooks } from "./_candidate.ts";

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
records its two policies. Writes nothing; no network. Exit 0 only when every check run holds.`,
  flags: {
    ...DATASET_FLAG,
    json: { type: "boolean", help: "print the checks and the verdict as one JSON document" },
    ...POLICY_MODULE_FLAG,
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, positionals, io }) {
    const directory = positionals[0];
    const json = flags.json ?? false;
    const hooks = runCandidateHooks(moduleRequest(flags), directory);
    const source = await protocolSource(flags, io, directory);
    const dataset = source.dataset;
    const load = () => loadProtocolIfDataset(source.contracts, dataset, hooks);
    const { contracts, stage } = dataset === undefined ? await load() : await timedStep(
      io,
      "verify",
      "preparing the dataset",
      "dataset prepared",
      "cases",
      load,
      (loaded) => loaded.stage?.prepared.cases.length ?? 0,
    );
    const check = async (path: string) => {
      // A run-policy directory is verified as one; anything else gets the QA checks, which say what is missing.
      if (await isPolicyRun(path)) {
        return await checkPolicyRun(path, contracts, stage, io, json);
      }
      if (await isSweepDirectory(path)) {
        const { checks, proved } = await verifySweep(path, contracts, stage?.prepared.cases);
        return printChecks({ directory: path, kind: "sweep", checks, proved }, io, json);
      }
      // A run with no full outputs but a partial grading is verified as one, and says so first.
      const partial = await findPartialRun(path);
      const options = { candidate: hooks.recorded() };
      const result = partial === undefined
        ? await verifyResults(path, contracts, stage?.tasks, options)
        : await verifyPartialRun(partial, contracts, stage?.tasks, options);
      if (json) {
        const named = { directory: directory ?? PUBLISHED_RUN, kind: "qa", ...result };
        writeDocument(
          io,
          JSON.stringify(partial ? { partial: partialJson(partial), ...named } : named, null, 2),
        );
      } else io.out(partial ? `${partial.line}\n${formatVerifyResult(result)}` : formatVerifyResult(result));
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
  directory: string,
  contracts: Contracts,
  stage: StageProtocol | undefined,
  io: Io,
  json: boolean,
): Promise<void> {
  const { checks, proved } = await verifyPolicyRun(directory, contracts, stage?.prepared.cases);
  printChecks({ directory, kind: "policy", checks, proved }, io, json);
}

/** Prints a policy run's or a sweep's checks and closing line (or one JSON document); fails if any failed. */
function printChecks(
  verified: { directory: string; kind: "policy" | "sweep"; checks: Check[]; proved: string },
  io: Io,
  json: boolean,
): void {
  const { directory, kind, checks, proved } = verified;
  const failed = checks.filter((check) => check.verdict === "fail").length;
  const conclusion = failed > 0 ? `NOT verified: ${failed} of ${checks.length} checks failed` : proved;
  if (json) {
    writeDocument(io, JSON.stringify({ directory, kind, checks, ok: failed === 0, conclusion }, null, 2));
  } else {
    for (const check of checks) io.out(checkLine(check));
    io.out(conclusion);
  }
  if (failed > 0) throw new CommandFailedError("a check does not hold");
}

/** A directory holding run-policy's rows and no graded QA rows (anything else gets the QA checks). */
async function isPolicyRun(path: string): Promise<boolean> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (info?.isDirectory !== true) return false;
  return await exists(`${path}/${POLICY_OUTPUTS[0]}`) && !await exists(`${path}/${GRADED_ROWS_FILE}`);
}
