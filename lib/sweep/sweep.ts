/**
 * `sweep`: `hybrid-v1` over a grid of its parameters — weights on the simplex, both half-lives, the correction
 * reserve fraction and cap — at every capacity, against `confidence`, on the protocol's cases. Support retention
 * needs no model, so the grid is cheap; what costs is the production selector, so each distinct decision is
 * asked of it once (engine.ts). This module is the stage: read, evaluate, write `sweep.jsonl` and `sweep.json`.
 *
 * @module
 */

import { ensureDir, type FileContent, readText, writeAllOrNothing } from "../base/fs.ts";
import { type ContractPaths, prepareDataset, readContracts } from "../protocol/prepare.ts";
import { defaultGrid, parseGrid } from "./grid.ts";
import { runSweep, type SweepResult } from "./engine.ts";
import { sweepJsonlChunks, sweepRecord } from "./outputs.ts";

// cli.ts imports the summary from this module.

/** The two files `sweep` writes. */
export const SWEEP_OUTPUTS = ["sweep.jsonl", "sweep.json"] as const;

/**
 * Writes the sweep's files into `directory` (created if missing), all or nothing and never over an existing file.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { OverwriteError } from "../base/errors.ts";
 * import { writeSweepFiles } from "./sweep.ts";
 * const dir = `${await Deno.makeTempDir()}/sweep`; // created if missing
 * await writeSweepFiles(dir, { "sweep.jsonl": ["{}\n", "{}\n"], "sweep.json": "{}\n" });
 * strictEqual(await Deno.readTextFile(`${dir}/sweep.jsonl`), "{}\n{}\n");
 * await rejects(writeSweepFiles(dir, { "sweep.jsonl": "", "sweep.json": "" }), OverwriteError); // never over a file
 * ```
 */
export async function writeSweepFiles(
  directory: string,
  files: Readonly<Record<(typeof SWEEP_OUTPUTS)[number], FileContent>>,
): Promise<void> {
  await ensureDir(directory);
  await writeAllOrNothing(directory, files);
}

/** What `sweep` reads and where it writes. */
export interface SweepRequest {
  contracts: ContractPaths;
  dataset: string | undefined;
  directory: string;
  /** A grid file (YAML); the default grid around the published parameters when absent. */
  grid?: string;
  /** The program that writes `sweep.json` (its name and version). */
  tool: string;
}

/**
 * The `sweep` stage: loads the contracts and the grid, prepares the dataset, evaluates every parameter set and
 * writes `sweep.jsonl` and `sweep.json` all or nothing; returns the result and the protocol's capacities (for
 * {@linkcode sweepSummaryLines}).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { sweep } from "./sweep.ts";
 * const [demo, dir] = [await buildDemoProtocol(), await Deno.makeTempDir()];
 * const files = { c: demo.config, o: demo.official, s: demo.synthetic, g: "weights_step: 0.5\ncapacities: [7]\n" };
 * for (const [name, body] of Object.entries(files)) await Deno.writeTextFile(`${dir}/${name}`, body);
 * await Deno.writeFile(`${dir}/d`, demo.dataset);
 * const contracts = { config: `${dir}/c`, officialManifest: `${dir}/o`, syntheticManifest: `${dir}/s` };
 * const request = { contracts, dataset: `${dir}/d`, directory: `${dir}/out`, grid: `${dir}/g`, tool: "deermem-eval" };
 * const { result, capacities } = await sweep(request); // 6 weights × 3 × 3 half-lives × 2 reserves
 * deepStrictEqual([result.parameterSets, capacities, Deno.readDirSync(`${dir}/out`).toArray().length], [108, [5, 7, 9], 2]);
 * ```
 */
export async function sweep(
  request: SweepRequest,
): Promise<{ result: SweepResult; capacities: readonly number[] }> {
  const contracts = await readContracts(request.contracts);
  const grid = request.grid === undefined
    ? defaultGrid(contracts.config)
    : parseGrid(await readText(request.grid, "grid"), request.grid, contracts.config);
  const prepared = await prepareDataset(contracts, request.dataset);
  const result = runSweep(prepared, grid);
  await writeSweepFiles(request.directory, {
    "sweep.jsonl": sweepJsonlChunks(result),
    "sweep.json": sweepRecord(result, contracts, prepared.dataset.sha256, request.tool),
  });
  return { result, capacities: contracts.config.pool.capacities };
}
