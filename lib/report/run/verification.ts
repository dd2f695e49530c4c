/**
 * The report's verification step: the same checks `verify` runs, on either kind of run directory. Only a
 * directory whose checks all hold is reported.
 *
 * @module
 */

import {
  type AnswerTask,
  type GradedRow,
  MARKER_FILE,
  type PolicyPair,
  type ReusedRows,
  type RunCandidate,
} from "../../qa/mod.ts";
import type { Contracts, PreparedCase } from "../../protocol/mod.ts";
import { type RunFiles, runFilesOf } from "../../base/mod.ts";
import type { PolicyRawRow } from "../../policy/mod.ts";
import { type Check, type PolicyRunModule, verifyPolicyRun, verifyQaRun } from "../../verify/mod.ts";
import type { RunKind } from "./run_kind.ts";

/** What `verify` found: every check, whether they all hold, and what that proves. */
export interface Verification {
  checks: Check[];
  ok: boolean;
  /** One sentence: what the checks prove and what they leave unproved. */
  proved: string;
  /** Every check ran and held with the dataset: the rows were re-derived, not taken as recorded. */
  rederived: boolean;
  /** The run is bound to artifact hashes (a QA run by its `qa_run.json`). */
  bound: boolean;
  /** A QA run's rows taken from earlier runs, by source; absent when none was. */
  reused?: ReusedRows;
}

/** A verdict from its checks: whether none failed, and whether every one ran and held with the dataset. */
function verdictOf(
  checks: Check[],
  proved: string,
  withDataset: boolean,
  bound: boolean,
): Verification {
  const ok = checks.every((check) => check.verdict !== "fail");
  const rederived = withDataset && checks.every((check) => check.verdict === "pass");
  return { checks, ok, proved, rederived, bound };
}

/** A run's verdict and what its checks ran on: the rows parsed from the bytes they read, once. */
export interface VerifiedRun {
  verification: Verification;
  /** A QA run's two policies, as its rows were checked. */
  pair?: PolicyPair;
  /** A QA run's graded rows, when they parse. */
  rows?: readonly GradedRow[];
  /** A policy run's rows, when they parse. */
  policyRows?: readonly PolicyRawRow[];
}

/** What the per-row checks need, by kind: the QA tasks, or the prepared cases of a policy run. */
export interface Recomputed {
  tasks?: readonly AnswerTask[];
  cases?: readonly PreparedCase[];
}

/**
 * Runs the same checks as `verify` on a run directory. This is the one place the report calls `verifyResults`.
 * A QA directory without `qa_run.json` is accepted (the report then says the run is not bound to artifacts).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { runPolicy } from "../../commands/run_policy.ts";
 * import { verifyRun } from "./verification.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const dir = await Deno.makeTempDir(); // a policy run of two cases
 * await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, dir, new Date(0), { dirty: null, head: null });
 * const { verification } = await verifyRun("policy", dir, prepared.contracts);
 * strictEqual(verification.ok, true);
 * strictEqual(verification.checks.length, 3); // the rows' own consistency, summary.json, run.json
 * ```
 */
export async function verifyRun(
  kind: RunKind,
  directory: string | RunFiles,
  contracts: Contracts,
  recomputed: Recomputed = {},
  candidate?: RunCandidate,
  module?: PolicyRunModule,
): Promise<VerifiedRun> {
  return await VERIFIERS[kind](runFilesOf(directory), contracts, recomputed, candidate, module);
}

/** How each report model's run is verified. */
const VERIFIERS: Record<
  RunKind,
  (
    files: RunFiles,
    contracts: Contracts,
    recomputed: Recomputed,
    candidate?: RunCandidate,
    module?: PolicyRunModule,
  ) => Promise<VerifiedRun>
> = {
  policy: async (files, contracts, recomputed, _candidate, module) => {
    const { checks, proved, rows } = await verifyPolicyRun(files, contracts, recomputed.cases, module);
    return {
      verification: verdictOf(checks, proved, recomputed.cases !== undefined, true),
      policyRows: rows,
    };
  },
  qa: verifyQaModel,
};

/** A QA run's checks as a report states them: without a marker, the artifact hashes are not claimed. */
async function verifyQaModel(
  files: RunFiles,
  contracts: Contracts,
  recomputed: Recomputed,
  candidate?: RunCandidate,
): Promise<VerifiedRun> {
  const { result, pair, rows } = await verifyQaRun(files, contracts, recomputed.tasks, { candidate });
  // The marker as the checks read it (a missing one is what they found missing).
  const hasMarker = await files.bytes(MARKER_FILE, "run marker") !== undefined;
  // qa_run.json is optional for a report: without it the artifact hashes are simply not claimed.
  const checks = hasMarker
    ? result.checks
    : result.checks.filter((check) => !check.name.startsWith(MARKER_FILE));
  const conclusion = result.conclusion.replace(/^verified: /, "");
  const proved = hasMarker
    ? conclusion
    : `${conclusion}; no qa_run.json: the run is not bound to artifact hashes`;
  const withDataset = result.scope === "every-derivable-field";
  const verification = verdictOf(checks, proved, withDataset, hasMarker);
  return {
    verification: result.reused === undefined ? verification : { ...verification, reused: result.reused },
    pair,
    rows,
  };
}
