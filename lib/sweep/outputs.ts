/**
 * The sweep's files as text: `sweep.jsonl` (one metadata-only row per grid point × group) and `sweep.json`
 * (the grid, the published parameters and where they sit, the protocol's hashes, the tool), both as Python's
 * `json.dumps` writes them.
 *
 * @module
 */

import type { Contracts } from "../protocol/contracts.ts";
import { artifactHashes, datasetIdentity } from "../protocol/identity.ts";
import { dumps, dumpsString, PyFloat, type PyJson } from "../py/json.ts";
import { isoformatUtc } from "../py/time.ts";
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
 * `sweep.json`: the grid, the published parameters and where they sit, the protocol's artifact and dataset
 * hashes, the evaluation clock and the tool.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepRecord } from "./mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", prepared.contracts.config));
 * const record = JSON.parse(sweepRecord(result, prepared.contracts, prepared.dataset.sha256, "deermem-eval 0.1.0"));
 * strictEqual(record.grid.parameter_sets, 462);
 * strictEqual(record.placement.published_grid_points, 3);
 * ```
 */
export function sweepRecord(
  result: SweepResult,
  contracts: Contracts,
  datasetSha256: string,
  tool: string,
): string {
  const { grid } = result;
  const placement = placePublished(result, contracts.config.pool.capacities);
  const floats = (values: readonly number[]) => values.map((value) => new PyFloat(value));
  const record: Record<string, PyJson> = {
    artifacts: artifactHashes(contracts),
    dataset: datasetIdentity(contracts, datasetSha256),
    evaluation_time: isoformatUtc(contracts.config.evaluation_time),
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
      published_grid_points: placement.published.length,
      shortfall_grid_points: placement.shortfalls.length,
    },
    policies: ["confidence", "hybrid-v1"],
    protocol_id: contracts.config.protocol_id,
    // Floats as Python writes them (0.1, not an int), like the rows.
    published: hybridParamsConfig(result.publishedParams),
    rows: result.parameterSets * grid.capacities.length * result.groups.length,
    schema_version: 1,
    tool,
  };
  return dumps(record, { indent: 2 }) + "\n";
}
