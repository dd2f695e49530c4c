/**
 * The `report` stage: loads the contracts, then detects, verifies and collects a run directory (and the one
 * it is compared with) — or reads a sweep directory's report.
 *
 * @module
 */

import type { Contracts } from "../protocol/contracts.ts";
import { InputError, NotVerifiedError } from "../base/errors.ts";
import { readTextIfExists } from "../base/fs.ts";
import { parsePolicyRawRows } from "../policy/mod.ts";
import { type ContractPaths, prepareDataset, readContracts } from "../protocol/prepare.ts";
import { buildAnswerTasks } from "../qa/mod.ts";
import { policyReport, qaReport } from "./collect.ts";
import type { Prices, RunReport } from "./run_report.ts";
import { detectRunKind, isSweepDirectory } from "./run_kind.ts";
import { readSweepReport, type SweepReport } from "./sweep.ts";
import { type Recomputed, verifyRun } from "./verification.ts";

/**
 * Detects, verifies and collects the report of a run directory; throws `NotVerifiedError` (from
 * `base/errors.ts`) when any check fails.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { runPolicy } from "../commands/run_policy.ts";
 * import { buildReport } from "./load.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const dir = await Deno.makeTempDir(); // a policy run of two cases
 * await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, dir, new Date(0), { dirty: null, head: null });
 * const report = await buildReport(dir, prepared.contracts); // detected, verified, collected
 * strictEqual(report.kind === "policy" && report.entries.length, 12);
 * ```
 */
export async function buildReport(
  directory: string,
  contracts: Contracts,
  options: { recomputed?: Recomputed; prices?: Prices } = {},
): Promise<RunReport> {
  const kind = await detectRunKind(directory);
  const verification = await verifyRun(kind, directory, contracts, options.recomputed);
  if (!verification.ok) throw new NotVerifiedError(directory, verification);
  if (kind === "qa") return await qaReport(directory, contracts, verification, options.prices);
  const path = `${directory}/policy.raw.jsonl`;
  const rows = parsePolicyRawRows((await readTextIfExists(path)) ?? "", path);
  return await policyReport(directory, rows, verification);
}

/** What `report` reads: the protocol's files, the run directory, optionally a second run and the dataset. */
export interface ReportRequest {
  contracts: ContractPaths;
  directory: string;
  /** Another run of the same kind to compare with. */
  against?: string;
  /** The pinned dataset: also re-derive every row. */
  dataset?: string;
  prices?: Prices;
}

/**
 * The verified report of a run and, when asked, of the run it is compared with — or, for a sweep directory, the
 * sweep's report.
 */
export type ReportResult =
  | { kind: "run"; contracts: Contracts; report: RunReport; against?: RunReport }
  | { kind: "sweep"; directory: string; sweep: SweepReport };

/**
 * The `report` stage: loads the contracts, then verifies and collects the run (and the one to compare with),
 * each re-derived from the dataset when one is given; throws `NotVerifiedError` when a check fails.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { runPolicy } from "../commands/run_policy.ts";
 * import { report } from "./load.ts";
 * const demo = await buildDemoProtocol(), dir = await Deno.makeTempDir(); // the contracts as files, and a run
 * const contracts = { config: `${dir}/c.yaml`, officialManifest: `${dir}/o.json`, syntheticManifest: `${dir}/s.json` };
 * const bodies = [demo.config, demo.official, demo.synthetic];
 * await Promise.all(Object.values(contracts).map((path, index) => Deno.writeTextFile(path, bodies[index])));
 * await runPolicy(await prepareDemoProtocol(demo), dir, new Date(0), { dirty: null, head: null });
 * const result = await report({ contracts, directory: dir }); // the contracts read from those files
 * strictEqual(result.kind === "run" && result.report.kind, "policy");
 * ```
 */
export async function report(request: ReportRequest): Promise<ReportResult> {
  const contracts = await readContracts(request.contracts);
  if (await isSweepDirectory(request.directory)) {
    if (request.against !== undefined || request.dataset !== undefined || request.prices !== undefined) {
      throw new InputError(
        "a sweep directory is reported from sweep.json and sweep.jsonl alone: --against, --dataset and the prices do not apply",
        { path: request.directory },
      );
    }
    return { kind: "sweep", directory: request.directory, sweep: await readSweepReport(request.directory) };
  }
  const build = async (directory: string) =>
    await buildReport(directory, contracts, {
      recomputed: await recomputedFor(directory, contracts, request.dataset),
      prices: request.prices,
    });
  const result: ReportResult = { kind: "run", contracts, report: await build(request.directory) };
  if (request.against !== undefined) result.against = await build(request.against);
  return result;
}

/** With a dataset, what the per-row checks of a run directory need (tasks for QA, cases for a policy run). */
async function recomputedFor(
  directory: string,
  contracts: Contracts,
  dataset: string | undefined,
): Promise<Recomputed> {
  if (dataset === undefined) return {};
  const kind = await detectRunKind(directory);
  const prepared = await prepareDataset(contracts, dataset);
  return kind === "qa" ? { tasks: buildAnswerTasks(contracts, prepared.cases) } : { cases: prepared.cases };
}
