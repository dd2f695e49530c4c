/**
 * `verify`: proves offline that a published results directory follows from its rows.
 *
 * @module
 */

import { exists, InputError, RunFiles } from "../base/mod.ts";
import { refuseOtherProtocol } from "../verify/mod.ts";
import { embeddedOr, notPinnedLine, PUBLISHED_RUN, withPublishedRun } from "../protocol/mod.ts";
import { defineCommand } from "./_command.ts";
import { DATASET_FLAG, PROTOCOL_FLAGS } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";
import { loadProtocolIfDataset } from "./_protocol.ts";
import { timedStep } from "./_progress.ts";
import { datasetForRun, moduleRequest, POLICY_MODULE_FLAG, runCandidateHooks } from "./_candidate.ts";
import { recogniseRun, type RunKind, runKindNamed } from "./_run_kinds.ts";

/** The `verify` command. */
export const command = defineCommand({
  name: "verify",
  summary: "prove offline that a published results directory follows from its rows",
  positionals: [{ name: "RESULTS_DIR", optional: true }],
  description:
    `Without RESULTS_DIR (or with results/pr4789-reproduction-v1 where no such directory is), verifies the
published run embedded in this program.
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
line naming the differing field. A K-run directory (run-qa --epochs K) has every run verified as the first,
and the case-level verdict of the K runs re-derived from their rows. Writes nothing; no network. Exit 0 only when every check run holds.`,
  flags: {
    ...DATASET_FLAG,
    json: { type: "boolean", help: "print the checks and the verdict as one JSON document" },
    ...POLICY_MODULE_FLAG,
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, positionals, io }) {
    const directory = await embeddedOr(positionals[0]);
    const json = flags.json ?? false;
    // Each file of the run is read once, by the module's check or the run's own: one set of bytes per verdict.
    const held = directory === undefined ? undefined : new RunFiles(directory);
    const hooks = runCandidateHooks(moduleRequest(flags), held);
    const source = await protocolSource(flags, io, directory);
    const dataset = await datasetForRun(held, moduleRequest(flags), flags.dataset, source.dataset);
    // Only a run that holds answers is re-derived on the tasks: a policy run or a sweep needs just the cases.
    const answers = (await recogniseRun(held) ?? runKindNamed("qa")).answers;
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
    const check = async (path: string) => {
      const files = held ?? new RunFiles(path);
      const kind = await recogniseRun(directory === undefined ? undefined : files);
      // A run of another protocol is told in one line, before any check is listed.
      if (await isRunDirectory(path, kind)) await refuseOtherProtocol(files, contracts);
      // Anything the registry does not recognise gets the QA checks, which say what is missing.
      const name = directory ?? PUBLISHED_RUN;
      const candidate = hooks.recorded(), module = hooks.policyRun();
      const entry = kind ?? runKindNamed("qa");
      const runs = () => entry.runs(files);
      const context = { files, name, contracts, stage, tasks, io, json, candidate, module, notPinned, runs };
      await entry.verify(context);
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

/**
 * Whether `path` is a directory holding a run; one that holds none of the files any run writes is refused in
 * one line. Anything but a directory is `false`, left to the checks, which name what cannot be read.
 */
async function isRunDirectory(path: string, kind: RunKind | undefined): Promise<boolean> {
  if (!(await Deno.stat(path)).isDirectory) return false;
  if (kind !== undefined) return true;
  const marks = ["qa.rows.jsonl", "qa_run.json", "policy.raw.jsonl", "sweep.jsonl"];
  throw new InputError(`is no run directory: it holds none of ${marks.join(", ")}`, { path });
}
