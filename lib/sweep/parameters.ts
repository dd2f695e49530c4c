/**
 * Where a parameter set sits in a grid: a parameter set is (weights, half-lives, reserve), numbered with the
 * weights outermost and the reserve cap innermost; a grid point adds the capacity.
 *
 * @module
 */

import type { HybridParams } from "../policy/mod.ts";
import type { SweepGrid } from "./grid.ts";

/** Index of each axis of a parameter set, in the order the set index nests them. */
export interface ParameterIndex {
  weights: number;
  confirmation: number;
  access: number;
  fraction: number;
  max: number;
}

/**
 * A grid point: a parameter set at one capacity, as `set × capacities + capacity index` (the order of
 * `SweepResult.hybrid`'s blocks).
 */
export type GridPoint = number;

/**
 * A parameter set's index from its axes' indices (weights outermost, reserve cap innermost).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { defaultGrid } from "./grid.ts";
 * import { parameterAxes, parameterSetIndex } from "./parameters.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * const grid = defaultGrid((await prepareDemoProtocol(await buildDemoProtocol())).contracts.config);
 * const at = { weights: 3, confirmation: 2, access: 1, fraction: 1, max: 0 };
 * strictEqual(parameterSetIndex(grid, at), ((3 * 3 + 2) * 3 + 1) * 2 + 1);
 * strictEqual(parameterSetIndex(grid, parameterAxes(grid, 1234)), 1234); // the inverse
 * ```
 */
export function parameterSetIndex(grid: SweepGrid, at: ParameterIndex): number {
  return (((at.weights * grid.confirmationHalfLifeDays.length + at.confirmation) *
              grid.accessHalfLifeDays.length +
            at.access) * grid.correctionReservedFraction.length + at.fraction) *
      grid.correctionReservedMax.length + at.max;
}

/** The axes' indices of a parameter set index (the inverse of {@linkcode parameterSetIndex}). */
export function parameterAxes(grid: SweepGrid, index: number): ParameterIndex {
  const max = index % grid.correctionReservedMax.length;
  index = Math.floor(index / grid.correctionReservedMax.length);
  const fraction = index % grid.correctionReservedFraction.length;
  index = Math.floor(index / grid.correctionReservedFraction.length);
  const access = index % grid.accessHalfLifeDays.length;
  index = Math.floor(index / grid.accessHalfLifeDays.length);
  const confirmation = index % grid.confirmationHalfLifeDays.length;
  return {
    weights: Math.floor(index / grid.confirmationHalfLifeDays.length),
    confirmation,
    access,
    fraction,
    max,
  };
}

/**
 * The `hybrid-v1` parameters of a parameter set.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { defaultGrid } from "./grid.ts";
 * import { parametersAt } from "./parameters.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * const grid = defaultGrid((await prepareDemoProtocol(await buildDemoProtocol())).contracts.config);
 * const first = parametersAt(grid, 0); // every axis at its first value
 * strictEqual(first.confidenceWeight, 1);
 * strictEqual(first.confirmationHalfLifeDays, 45);
 * ```
 */
export function parametersAt(grid: SweepGrid, index: number): HybridParams {
  const at = parameterAxes(grid, index);
  const weights = grid.weights[at.weights];
  return {
    confidenceWeight: weights.confidence,
    confirmationWeight: weights.confirmation,
    accessWeight: weights.access,
    confirmationHalfLifeDays: grid.confirmationHalfLifeDays[at.confirmation],
    accessHalfLifeDays: grid.accessHalfLifeDays[at.access],
    correctionReservedFraction: grid.correctionReservedFraction[at.fraction],
    correctionReservedMax: grid.correctionReservedMax[at.max],
  };
}

/** The index of the parameter set holding exactly `params`, or -1 when the grid has no such set. */
export function parameterSetOf(grid: SweepGrid, params: HybridParams): number {
  const weights = grid.weights.findIndex((point) =>
    point.confidence === params.confidenceWeight && point.confirmation === params.confirmationWeight &&
    point.access === params.accessWeight
  );
  const at: ParameterIndex = {
    weights,
    confirmation: grid.confirmationHalfLifeDays.indexOf(params.confirmationHalfLifeDays),
    access: grid.accessHalfLifeDays.indexOf(params.accessHalfLifeDays),
    fraction: grid.correctionReservedFraction.indexOf(params.correctionReservedFraction),
    max: grid.correctionReservedMax.indexOf(params.correctionReservedMax),
  };
  return Object.values(at).some((index) => index < 0) ? -1 : parameterSetIndex(grid, at);
}
