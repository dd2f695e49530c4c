/**
 * A run directory (and the one it is compared with) detected, verified against the protocol and collected into
 * its report.
 *
 * @module
 */

import type { Contracts, PreparedCase } from "../../protocol/mod.ts";
import { type RunFiles, runFilesOf } from "../../base/mod.ts";
import { NotVerifiedError } from "../../verify/mod.ts";
import type { AnswerTask, RunCandidate } from "../../qa/mod.ts";
import { policyReport, qaReport } from "./collect.ts";
import type { Prices, RunReport } from "./run_report.ts";
import { detectRunKind, type RunKind } from "./run_kind.ts";
import { type Recomputed, type VerifiedRun, verifyRun } from "./verification.ts";
import { type PolicyRunModule, refuseOtherProtocol } from "../../verify/mod.ts";

/**
 * Detects, verifies and collects the report of a run directory, each of its files read once: what is reported
 * is what was verified. Throws `NotVerifiedError` (from `base/errors.ts`) when any check fails.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { runPolicy } from "../../commands/run_policy.ts";
 * import { buildReport } from "./load.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const dir = await Deno.makeTempDir(); // a policy run of two cases
 * await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, dir, new Date(0), { dirty: null, head: null });
 * const report = await buildReport(dir, prepared.contracts); // detected, verified, collected
 * strictEqual(report.kind === "policy" && report.entries.length, 12);
 * ```
 */
export async function buildReport(
  directory: string | RunFiles,
  contracts: Contracts,
  options: { recomputed?: Recomputed; prices?: Prices; candidate?: RunCandidate; module?: PolicyRunModule } =
    {},
): Promise<RunReport> {
  const files = runFilesOf(directory);
  const kind = await detectRunKind(files.directory);
  // A run of another protocol is told in one line, before any check is listed.
  await refuseOtherProtocol(files, contracts);
  const verified = await verifyRun(
    kind,
    files,
    contracts,
    options.recomputed,
    options.candidate,
    options.module,
  );
  const { verification } = verified;
  if (!verification.ok) throw new NotVerifiedError(files.directory, verification);
  return await MODELS[kind].collect(files, contracts, verified, options.prices);
}

/** What each report model is re-derived from and how it is collected once verified. */
const MODELS: Record<RunKind, {
  rederive: (recomputed: RecomputedProtocol) => Recomputed;
  collect: (
    files: RunFiles,
    contracts: Contracts,
    verified: VerifiedRun,
    prices?: Prices,
  ) => Promise<RunReport>;
}> = {
  qa: {
    rederive: (recomputed) => ({ tasks: recomputed.tasks }),
    collect: (files, contracts, verified, prices) => qaReport(files, contracts, verified, prices),
  },
  policy: {
    rederive: (recomputed) => ({ cases: recomputed.cases }),
    // Verified: the rows parsed.
    collect: (files, _contracts, verified) =>
      policyReport(files, verified.policyRows!, verified.verification),
  },
};

/** With the dataset: the protocol's prepared cases and answer tasks, for the per-row checks. */
export interface RecomputedProtocol {
  cases: readonly PreparedCase[];
  tasks: readonly AnswerTask[];
}

/** What {@linkcode reportRuns} reports: a run, optionally one to compare with, and what to re-derive them from. */
export interface RunsRequest {
  contracts: Contracts;
  /** The run (its files as already held, when a stage read some of them first). */
  directory: string | RunFiles;
  /** Another run of the same kind to compare with. */
  against?: string | RunFiles;
  /** The protocol prepared from the pinned dataset: also re-derive every row. */
  recomputed?: RecomputedProtocol;
  prices?: Prices;
  /** The candidate `directory` was made with (`--policy-module`, its baseline from the marker). */
  candidate?: RunCandidate;
  /** The module a policy run `directory` was made with (`--policy-module`, held to its run.json). */
  module?: PolicyRunModule;
  /** What the other run is re-derived from, when not `recomputed` (a candidate's tasks are its own). */
  againstRecomputed?: RecomputedProtocol;
}

/** The verified reports of a run and, when asked, of the run it is compared with. */
export interface RunsReport {
  report: RunReport;
  against?: RunReport;
}

/**
 * Verifies and collects the run (and the one to compare with), each re-derived from the recomputed protocol when
 * given; throws `NotVerifiedError` when a check fails.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { runPolicy } from "../../commands/run_policy.ts";
 * import { reportRuns } from "./load.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), dir = await Deno.makeTempDir();
 * await runPolicy(prepared, dir, new Date(0), { dirty: null, head: null });
 * const runs = await reportRuns({ contracts: prepared.contracts, directory: dir, against: dir });
 * strictEqual(runs.report.kind === "policy" && runs.against?.kind, "policy");
 * ```
 */
export async function reportRuns(request: RunsRequest): Promise<RunsReport> {
  const { contracts } = request;
  const build = async (
    directory: string | RunFiles,
    candidate?: RunCandidate,
    recomputed = request.recomputed,
    module?: PolicyRunModule,
  ) => {
    const kind = await detectRunKind(runFilesOf(directory).directory);
    const rederive = recomputed === undefined ? {} : MODELS[kind].rederive(recomputed);
    return await buildReport(directory, contracts, {
      recomputed: rederive,
      prices: request.prices,
      candidate,
      module,
    });
  };
  const runs: RunsReport = {
    report: await build(request.directory, request.candidate, request.recomputed, request.module),
  };
  if (request.against !== undefined) {
    runs.against = await build(request.against, undefined, request.againstRecomputed ?? request.recomputed);
  }
  return runs;
}
