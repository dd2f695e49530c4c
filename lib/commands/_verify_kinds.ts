/**
 * `verify`'s checks and lines for each shape of run (a QA run, a policy run, a sweep), as the run-kind
 * registry's entries name them.
 *
 * @module
 */

import { CommandFailedError, type RunFiles } from "../base/mod.ts";
import {
  type Check,
  checkLine,
  findPartialRun,
  formatVerifyResult,
  partialJson,
  recordedCandidate,
  verifyPartialRun,
  verifyPolicyRun,
  verifyQaRun,
  verifySweep,
} from "../verify/mod.ts";
import { type AnswerTask, caseLevelLines, policyPair, type RunCandidate } from "../qa/mod.ts";
import { POLICIES } from "../policy/mod.ts";
import type { Contracts, PreparedCase } from "../protocol/mod.ts";
import { type Io, writeDocument } from "./_command.ts";
import type { CustomPolicyRun } from "./_policy_module.ts";
import { type OtherRuns, verifyOtherRuns } from "./_epochs.ts";

/** What `verify` holds when it checks one run. */
export interface VerifyContext {
  /** The run's files, each read once. */
  files: RunFiles;
  /** The run as named in `--json` (the published run by its name). */
  name: string;
  contracts: Contracts;
  /** With the dataset: the protocol's prepared cases. */
  stage: { prepared: { cases: readonly PreparedCase[] } } | undefined;
  tasks: readonly AnswerTask[] | undefined;
  io: Io;
  json: boolean;
  /** The candidate a QA run records, held to `--policy-module`. */
  candidate: RunCandidate | undefined;
  /** The module of a policy run made with it, held to `--policy-module`. */
  module: CustomPolicyRun | undefined;
  /** The line a protocol wearing the pinned id without its bytes opens with (`not_pinned`, first in JSON). */
  notPinned?: string;
  /** The run's directories, run 1 first, as its registry entry holds them (K for a K-run directory). */
  runs: () => Promise<readonly string[]>;
}

/** The key a document opens with when the protocol is not the pinned one it names. */
function notPinnedKey({ notPinned }: VerifyContext): { not_pinned?: string } {
  return notPinned === undefined ? {} : { not_pinned: notPinned };
}

/** A kind's checks, printed (or one JSON document); a failed check is a `CommandFailedError`. */
export type VerifyRun = (context: VerifyContext) => Promise<void>;

/** A run-policy directory: every row recomputed with the dataset, the summary and run record always. */
export const verifyPolicyKind: VerifyRun = async (context) => {
  const { files, contracts, stage, module } = context;
  const { checks, proved, rows } = await verifyPolicyRun(files, contracts, stage?.prepared.cases, module);
  const policies = [...new Set([...POLICIES, ...(rows ?? []).map((row) => row.policy)])];
  const heading = runOf("a policy run", policies);
  printChecks({ directory: files.directory, kind: "policy", policies, checks, proved }, heading, context);
};

/** A sweep: its rows where the grid puts them, `sweep.json` re-derived; with the dataset every row recomputed. */
export const verifySweepKind: VerifyRun = async (context) => {
  const { files, contracts, stage } = context;
  const { checks, proved } = await verifySweep(files, contracts, stage?.prepared.cases);
  const policies = [...POLICIES];
  const heading = "a sweep of hybrid-v1's parameters against confidence";
  printChecks({ directory: files.directory, kind: "sweep", policies, checks, proved }, heading, context);
};

/**
 * A QA run (or a partial grading of one, which says so first); the runs after the first its entry holds (a K-run
 * directory's 2…K) after it, and the case-level verdict of all K.
 */
export const verifyQaKind: VerifyRun = async (context) => {
  const { files, contracts, tasks, io, json, name } = context;
  const partial = await findPartialRun(files.directory);
  const options = { candidate: context.candidate };
  const { result, pair, rows } = partial === undefined
    ? await verifyQaRun(files, contracts, tasks, options)
    : {
      result: await verifyPartialRun(partial, contracts, tasks, options),
      pair: policyPair(options.candidate ?? await recordedCandidate(files)),
      rows: undefined,
    };
  const directories = await context.runs();
  const others = directories.length === 1
    ? undefined
    : await verifyOtherRuns(directories, { rows, pair }, contracts, tasks, options);
  if (json) {
    const named = { ...notPinnedKey(context), directory: name, kind: "qa", policies: pair, ...result };
    const document = others === undefined ? named : { ...named, ...epochsJson(others) };
    writeDocument(
      io,
      JSON.stringify(
        partial ? { ...notPinnedKey(context), partial: partialJson(partial), ...document } : document,
        null,
        2,
      ),
    );
  } else {
    if (partial !== undefined) io.out(partial.line);
    io.out(runOf("a QA run", pair));
    io.out(formatVerifyResult(result));
    if (others !== undefined) printOtherRuns(others, io);
  }
  if (!result.ok || others?.runs.some((run) => !run.result.ok)) {
    throw new CommandFailedError("a check does not hold");
  }
};

/** Runs 2…K of a K-run directory, each as run 1 is printed, then the case-level verdict of all K. */
function printOtherRuns(others: OtherRuns, io: Io): void {
  for (const [index, run] of others.runs.entries()) {
    io.out(`run ${index + 2} (${run.directory}):`);
    io.out(formatVerifyResult(run.result));
  }
  if (others.stats !== undefined) { for (const line of caseLevelLines(others.stats)) io.out(line); }
}

/** `verify --json`'s keys for a K-run directory: each further run's checks and the case-level verdict. */
function epochsJson(others: OtherRuns): Record<string, unknown> {
  return {
    epochs: others.runs.length + 1,
    runs: others.runs.map((run, index) => ({ run: index + 2, directory: run.directory, ...run.result })),
    case_level: others.stats?.case_level ?? null,
  };
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
  heading: string,
  context: VerifyContext,
): void {
  const { io, json } = context;
  const { directory, kind, policies, checks, proved } = verified;
  const failed = checks.filter((check) => check.verdict === "fail").length;
  const conclusion = failed > 0 ? `NOT verified: ${failed} of ${checks.length} checks failed` : proved;
  if (json) {
    const document = {
      ...notPinnedKey(context),
      directory,
      kind,
      policies,
      checks,
      ok: failed === 0,
      conclusion,
    };
    writeDocument(io, JSON.stringify(document, null, 2));
  } else {
    io.out(heading);
    for (const check of checks) io.out(checkLine(check));
    io.out(conclusion);
  }
  if (failed > 0) throw new CommandFailedError("a check does not hold");
}

/** The line naming what a run compares: `a QA run of confidence and hybrid-v1`. */
function runOf(kind: string, policies: readonly string[]): string {
  const named = policies.length <= 2
    ? policies.join(" and ")
    : `${policies.slice(0, -1).join(", ")} and ${policies.at(-1)}`;
  return `${kind} of ${named}`;
}
