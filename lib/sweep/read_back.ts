/**
 * A sweep rebuilt from what it wrote: the grid from `sweep.json`, the counts from `sweep.jsonl`, each row checked
 * to stand where the grid puts it — so the files can be re-derived from each other (`verify`, `report`).
 *
 * @module
 */

import { InputError } from "../base/mod.ts";
import type { HybridParams } from "../policy/mod.ts";
import { parseJsonTextWith } from "../py/mod.ts";
import { type SweepResult, withPublishedSet } from "./engine.ts";
import { MAX_GRID_POINTS, simplexWeights, type SweepGrid } from "./grid.ts";
import { parametersAt } from "./parameters.ts";
import { type SweepRecordFields, SweepRow } from "./record_schema.ts";

/** The most divisions of the weight simplex a grid has (`weights_step` is 1/n for a whole n ≤ 100). */
const MAX_DIVISIONS = 100;

/** A parameter set in the config's shape as the selector's parameters. */
export function hybridParamsOf(parameters: SweepRecordFields["published"]): HybridParams {
  return {
    confidenceWeight: parameters.weights.confidence,
    confirmationWeight: parameters.weights.confirmation,
    accessWeight: parameters.weights.access,
    confirmationHalfLifeDays: parameters.confirmation_half_life_days,
    accessHalfLifeDays: parameters.access_half_life_days,
    correctionReservedFraction: parameters.correction_reserved_fraction,
    correctionReservedMax: parameters.correction_reserved_max,
  };
}

/**
 * The grid `sweep.json` records, resolved as `sweep` resolved it; a step that is not 1/n for a whole n ≤ 100, or
 * a grid over the bound, is an {@linkcode InputError} naming the file and the field.
 */
export function recordedGrid(record: SweepRecordFields, path: string): SweepGrid {
  const { grid } = record;
  const divisions = Math.round(1 / grid.weights_step);
  if (divisions < 1 || divisions > MAX_DIVISIONS || Math.abs(1 / divisions - grid.weights_step) > 1e-12) {
    throw new InputError(`must be 1/n for a whole n ≤ ${MAX_DIVISIONS}, got ${grid.weights_step}`, {
      path,
      field: "grid.weights_step",
    });
  }
  const resolved: SweepGrid = {
    weightStep: grid.weights_step,
    divisions,
    weights: simplexWeights(divisions),
    confirmationHalfLifeDays: grid.confirmation_half_life_days,
    accessHalfLifeDays: grid.access_half_life_days,
    correctionReservedFraction: grid.correction_reserved_fraction,
    correctionReservedMax: grid.correction_reserved_max,
    capacities: grid.capacities,
  };
  if (parameterSetCount(resolved) * resolved.capacities.length > MAX_GRID_POINTS) {
    throw new InputError(`holds more than the ${MAX_GRID_POINTS} grid points one sweep evaluates`, {
      path,
      field: "grid",
    });
  }
  return resolved;
}

function parameterSetCount(grid: SweepGrid): number {
  return grid.weights.length * grid.confirmationHalfLifeDays.length * grid.accessHalfLifeDays.length *
    grid.correctionReservedFraction.length * grid.correctionReservedMax.length;
}

/**
 * Rebuilds the sweep from `sweep.json`'s fields and the text of `sweep.jsonl`: every row must parse and stand
 * where the grid puts it (its parameter set, capacity and group, in the order `sweep` writes them), and
 * `confidence`'s count must be the same at every parameter set (it does not depend on them). Anything else is an
 * {@linkcode InputError} naming the file, the line and what is wrong.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonl, sweepRecord, SweepRecordFields, sweepResultOf } from "./mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const result = runSweep(prepared, parseGrid("weights_step: 0.5\ncapacities: [7]\n", "g.yaml", prepared.contracts.config));
 * const record = SweepRecordFields.parse(JSON.parse(sweepRecord(result, prepared.contracts, "0", "t", "0")));
 * deepStrictEqual(sweepResultOf(record, sweepJsonl(result), "sweep.jsonl").hybrid, result.hybrid); // the same counts
 * throws(() => sweepResultOf(record, sweepJsonl(result).replace('"capacity": 7', '"capacity": 6'), "sweep.jsonl"), /line 1: capacity is 6/);
 * ```
 */
export function sweepResultOf(record: SweepRecordFields, rowsText: string, rowsPath: string): SweepResult {
  const grid = recordedGrid(record, rowsPath.replace(/sweep\.jsonl$/, "sweep.json"));
  const { groups } = record;
  const capacityCount = grid.capacities.length;
  const parameterSets = parameterSetCount(grid);
  const lines = rowsText.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const expected = parameterSets * capacityCount * groups.length;
  if (lines.length !== expected) {
    throw new InputError(
      `holds ${lines.length} rows; the grid and groups of sweep.json make ${expected}`,
      { path: rowsPath },
    );
  }
  const hybrid = new Uint16Array(expected);
  const confidence = new Uint16Array(capacityCount * groups.length);
  let set = -1;
  let setParams: HybridParams | undefined;
  lines.forEach((line, index) => {
    const prefix = `line ${index + 1}: `;
    const row = parseRow(line, rowsPath, prefix);
    const group = index % groups.length;
    const capacityIndex = Math.floor(index / groups.length) % capacityCount;
    if (Math.floor(index / (groups.length * capacityCount)) !== set) {
      set = Math.floor(index / (groups.length * capacityCount));
      setParams = parametersAt(grid, set);
    }
    const place = misplaced(row, setParams!, grid.capacities[capacityIndex], groups[group]);
    if (place !== undefined) throw new InputError(`${prefix}${place}`, { path: rowsPath });
    const at = capacityIndex * groups.length + group;
    if (set === 0) confidence[at] = row.confidence_retained;
    else if (row.confidence_retained !== confidence[at]) {
      throw new InputError(
        `${prefix}confidence_retained is ${row.confidence_retained}, but ${confidence[at]} at line ${
          at + 1
        } (the same capacity and scenario): confidence's count does not depend on hybrid-v1's parameters`,
        { path: rowsPath },
      );
    }
    hybrid[index] = row.hybrid_v1_retained;
  });
  const publishedParams = hybridParamsOf(record.published);
  return withPublishedSet({ grid, groups, parameterSets, hybrid, confidence, publishedParams });
}

function parseRow(line: string, path: string, prefix: string): SweepRow {
  const row = parseJsonTextWith(SweepRow, line, path, { error: InputError, prefix });
  if (row.hybrid_v1_retained > row.cases || row.confidence_retained > row.cases) {
    throw new InputError(`${prefix}keeps more supports than its ${row.cases} cases`, { path });
  }
  return row;
}

/** Why a row does not stand where the grid puts it, or `undefined`. */
function misplaced(
  row: SweepRow,
  params: HybridParams,
  capacity: number,
  group: SweepRecordFields["groups"][number],
): string | undefined {
  if (row.capacity !== capacity) {
    return `capacity is ${row.capacity}, the grid puts capacity ${capacity} here`;
  }
  if (row.source !== group.source || row.scenario !== group.scenario) {
    return `is ${row.source}/${row.scenario}, the grid puts ${group.source}/${group.scenario} here`;
  }
  if (row.cases !== group.cases) return `cases is ${row.cases}, sweep.json's groups say ${group.cases}`;
  const own = hybridParamsOf(row.parameters);
  const differing = (Object.keys(params) as (keyof HybridParams)[]).filter((key) => own[key] !== params[key]);
  return differing.length === 0
    ? undefined
    : `parameters are not the grid's parameter set here (${differing.join(", ")} differ)`;
}
