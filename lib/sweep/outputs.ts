/**
 * The sweep's files as text: `sweep.jsonl` (one metadata-only row per grid point × group) and `sweep.json`
 * (the grid, the published parameters and where they sit, the protocol's hashes, the tool), both as Python's
 * `json.dumps` writes them.
 *
 * @module
 */

import {
  type ArtifactHashes,
  artifactHashes,
  type Contracts,
  type DatasetIdentity,
  datasetIdentity,
} from "../protocol/mod.ts";
import { sha256Hex } from "../base/mod.ts";
import { dumps, dumpsString, isoformatUtc, PyFloat, type PyJson } from "../py/mod.ts";
import { hybridParamsConfig } from "../policy/mod.ts";
import type { SweepResult } from "./engine.ts";
import { placePublished } from "./neighbourhood.ts";
import { parametersAt } from "./parameters.ts";

/**
 * `sweep.jsonl`, a parameter set's rows at a time: one sorted-key row per parameter set × capacity × (source,
 * scenario) — the parameters (named as in the config's `policies.hybrid_v1`), the capacity, the cases, the
 * supports each policy keeps and `difference` (hybrid-v1 minus confidence). Metadata only. In pieces because the
 * default grid's 80 MB are better streamed to the file than held.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonlChunks } from "./mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", prepared.contracts.config));
 * const chunks = [...sweepJsonlChunks(result)]; // one chunk per parameter set
 * strictEqual(chunks.length, result.parameterSets);
 * strictEqual(JSON.parse(chunks[0].split("\n")[0]).capacity, 5);
 * ```
 */
export function* sweepJsonlChunks(result: SweepResult): Generator<string> {
  const { grid, groups } = result;
  const groupCount = groups.length;
  const capacityCount = grid.capacities.length;
  const groupText = groups.map((group) => ({
    cases: group.cases,
    tail: `, "scenario": ${dumpsString(group.scenario)}, "source": ${dumpsString(group.source)}}\n`,
  }));
  for (let set = 0; set < result.parameterSets; set++) {
    const parameters = dumps(hybridParamsConfig(parametersAt(grid, set)));
    let chunk = "";
    for (let capacityIndex = 0; capacityIndex < capacityCount; capacityIndex++) {
      const capacity = grid.capacities[capacityIndex];
      for (let group = 0; group < groupCount; group++) {
        const hybrid = result.hybrid[(set * capacityCount + capacityIndex) * groupCount + group];
        const confidence = result.confidence[capacityIndex * groupCount + group];
        chunk +=
          `{"capacity": ${capacity}, "cases": ${
            groupText[group].cases
          }, "confidence_retained": ${confidence}, ` +
          `"difference": ${
            hybrid - confidence
          }, "hybrid_v1_retained": ${hybrid}, "parameters": ${parameters}` +
          groupText[group].tail;
      }
    }
    yield chunk;
  }
}

/**
 * `sweep.jsonl` as one string (see {@linkcode sweepJsonlChunks}).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonl } from "./mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", prepared.contracts.config));
 * const lines = sweepJsonl(result).trimEnd().split("\n");
 * strictEqual(lines.length, result.parameterSets * 3 * result.groups.length);
 * ```
 */
export function sweepJsonl(result: SweepResult): string {
  return [...sweepJsonlChunks(result)].join("");
}

/**
 * The SHA-256 of `sweep.jsonl` (hex), which `sweep.json` records so that `verify` and `report` refuse rows
 * changed after `sweep` wrote them.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sha256Hex } from "../base/hash.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256 } from "./mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const result = runSweep(prepared, parseGrid("weights_step: 0.5\ncapacities: [7]\n", "g.yaml", prepared.contracts.config));
 * strictEqual(await sweepJsonlSha256(result), await sha256Hex(sweepJsonl(result)));
 * ```
 */
export async function sweepJsonlSha256(result: SweepResult): Promise<string> {
  const encoder = new TextEncoder();
  const chunks = [...sweepJsonlChunks(result)].map((chunk) => encoder.encode(chunk));
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return await sha256Hex(bytes);
}

/**
 * `sweep.json`: the grid, the published parameters and where they sit, the protocol's artifact and dataset
 * hashes, the evaluation clock, the tool and the SHA-256 of `sweep.jsonl` ({@linkcode sweepJsonlSha256}).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepRecord } from "./mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", prepared.contracts.config));
 * const record = JSON.parse(sweepRecord(result, prepared.contracts, prepared.dataset.sha256, "deermem-eval 0.1.0", "0".repeat(64)));
 * strictEqual(record.grid.parameter_sets, 462);
 * strictEqual(record.placement.published_grid_points, 3);
 * ```
 */
export function sweepRecord(
  result: SweepResult,
  contracts: Contracts,
  datasetSha256: string,
  tool: string,
  rowsSha256: string,
): string {
  return sweepRecordOf(
    result,
    {
      artifacts: artifactHashes(contracts),
      dataset: datasetIdentity(contracts, datasetSha256),
      evaluationTime: isoformatUtc(contracts.config.evaluation_time),
      protocolId: contracts.config.protocol_id,
      protocolCapacities: contracts.config.pool.capacities,
    },
    tool,
    rowsSha256,
  );
}

/** `sweep.json`'s schema version: 2 records the SHA-256 of `sweep.jsonl` and the protocol's capacities. */
export const SWEEP_RECORD_VERSION = 2;

/** What `sweep.json` records of the protocol a sweep ran under. */
export interface SweepProtocolIdentity {
  /** The artifact hashes block, as written. */
  artifacts: ArtifactHashes | PyJson;
  /** The dataset block, as written. */
  dataset: DatasetIdentity | PyJson;
  /** The evaluation clock as written. */
  evaluationTime: string;
  protocolId: string;
  /** The protocol's capacities, at which the published parameters are placed. */
  protocolCapacities: readonly number[];
}

/**
 * `sweep.json` from the sweep and the protocol's blocks as values: what {@linkcode sweepRecord} writes, and what
 * `verify` re-derives from the rows and the blocks the file holds.
 */
export function sweepRecordOf(
  result: SweepResult,
  protocol: SweepProtocolIdentity,
  tool: string,
  rowsSha256: string,
): string {
  const { grid } = result;
  const placement = placePublished(result, protocol.protocolCapacities);
  const floats = (values: readonly number[]) => values.map((value) => new PyFloat(value));
  const record: Record<string, PyJson> = {
    artifacts: protocol.artifacts as PyJson,
    dataset: protocol.dataset as PyJson,
    evaluation_time: protocol.evaluationTime,
    grid: {
      access_half_life_days: grid.accessHalfLifeDays,
      capacities: grid.capacities,
      confirmation_half_life_days: grid.confirmationHalfLifeDays,
      correction_reserved_fraction: floats(grid.correctionReservedFraction),
      correction_reserved_max: grid.correctionReservedMax,
      grid_points: result.parameterSets * grid.capacities.length,
      parameter_sets: result.parameterSets,
      weight_points: grid.weights.length,
      weights_step: new PyFloat(grid.weightStep),
    },
    groups: result.groups.map((group) => ({
      cases: group.cases,
      scenario: group.scenario,
      source: group.source,
    })),
    placement: {
      neighbourhood_grid_points: placement.neighbourhood.length,
      protocol_capacities: [...protocol.protocolCapacities],
      published_grid_points: placement.published.length,
      shortfall_grid_points: placement.shortfalls.length,
    },
    policies: ["confidence", "hybrid-v1"],
    protocol_id: protocol.protocolId,
    // Floats as Python writes them (0.1, not an int), like the rows.
    published: hybridParamsConfig(result.publishedParams),
    rows: result.parameterSets * grid.capacities.length * result.groups.length,
    schema_version: SWEEP_RECORD_VERSION,
    sweep_jsonl_sha256: rowsSha256,
    tool,
  };
  return dumps(record, { indent: 2 }) + "\n";
}
