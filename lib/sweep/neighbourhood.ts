/**
 * Where the published parameters sit on an evaluated grid: the grid points that keep fewer supports than
 * `confidence` in some group, and the neighbourhood of the published points — reached one parameter step at a
 * time — that keeps at least as many everywhere.
 *
 * @module
 */

import type { SweepGrid } from "./grid.ts";
import type { SweepGroup, SweepResult } from "./engine.ts";
import { type GridPoint, parameterAxes, type ParameterIndex, parameterSetIndex } from "./parameters.ts";

/** Where a grid point keeps fewer supports than `confidence`: the group and both counts. */
export interface SweepShortfall {
  group: SweepGroup;
  hybrid: number;
  confidence: number;
}

/** The groups in which a grid point keeps fewer supports than `confidence`. */
export function shortfallsAt(result: SweepResult, point: GridPoint): SweepShortfall[] {
  const groupCount = result.groups.length;
  const capacityIndex = point % result.grid.capacities.length;
  const found: SweepShortfall[] = [];
  for (let group = 0; group < groupCount; group++) {
    const hybrid = result.hybrid[point * groupCount + group];
    const confidence = result.confidence[capacityIndex * groupCount + group];
    if (hybrid < confidence) found.push({ group: result.groups[group], hybrid, confidence });
  }
  return found;
}

function holds(result: SweepResult, point: GridPoint): boolean {
  const groupCount = result.groups.length;
  const capacityIndex = point % result.grid.capacities.length;
  for (let group = 0; group < groupCount; group++) {
    if (result.hybrid[point * groupCount + group] < result.confidence[capacityIndex * groupCount + group]) {
      return false;
    }
  }
  return true;
}

/**
 * The grid points one parameter step away at the same capacity: one half-life or reserve value up or down, or
 * one weight step moved between two weights. Capacity is not a step: at the pool size both policies keep
 * everything, so stepping through it would connect every parameter set.
 */
function neighbours(grid: SweepGrid, point: GridPoint, latticeIndex: Map<string, number>): GridPoint[] {
  const capacityCount = grid.capacities.length;
  const capacityIndex = point % capacityCount;
  const at = parameterAxes(grid, Math.floor(point / capacityCount));
  const out: GridPoint[] = [];
  const pointAt = (next: ParameterIndex) => parameterSetIndex(grid, next) * capacityCount + capacityIndex;
  const sizes = {
    confirmation: grid.confirmationHalfLifeDays.length,
    access: grid.accessHalfLifeDays.length,
    fraction: grid.correctionReservedFraction.length,
    max: grid.correctionReservedMax.length,
  };
  for (const axis of ["confirmation", "access", "fraction", "max"] as const) {
    for (const delta of [-1, 1]) {
      const value = at[axis] + delta;
      if (value >= 0 && value < sizes[axis]) out.push(pointAt({ ...at, [axis]: value }));
    }
  }
  const lattice = grid.weights[at.weights].lattice;
  for (let from = 0; from < 3; from++) {
    for (let to = 0; to < 3; to++) {
      if (from === to || lattice[from] === 0) continue;
      const moved = [...lattice];
      moved[from]--;
      moved[to]++;
      const weights = latticeIndex.get(moved.join(","));
      if (weights !== undefined) out.push(pointAt({ ...at, weights }));
    }
  }
  return out;
}

/** Where the published parameters sit on the grid. */
export interface SweepPlacement {
  /** The published grid points: the published parameters at the protocol's capacities on the grid. */
  published: GridPoint[];
  /** Grid points reached from the published ones, one parameter step at a time at the same capacity, that keep
   * at least as many supports in every scenario. */
  neighbourhood: GridPoint[];
  /** Grid points keeping fewer in some scenario, nearest to the published ones first, with their distance in
   * parameter steps (-1 at capacities outside the protocol's). */
  shortfalls: { point: GridPoint; steps: number }[];
}

/**
 * Places the published parameters — at each of the protocol's capacities — on the grid: the connected
 * neighbourhood, one parameter step at a time (a half-life or reserve value, or one weight step moved), in which
 * `hybrid-v1` keeps at least as many supports as `confidence` in every scenario, and the grid points keeping
 * fewer in any, nearest first.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, placePublished, runSweep } from "./mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", prepared.contracts.config));
 * const placement = placePublished(result, [5, 7, 9]);
 * strictEqual(placement.published.length, 3); // the published parameters at each protocol capacity
 * strictEqual(placement.neighbourhood.length >= 3, true);
 * ```
 */
export function placePublished(result: SweepResult, protocolCapacities: readonly number[]): SweepPlacement {
  const { grid } = result;
  const capacityCount = grid.capacities.length;
  const points = result.parameterSets * capacityCount;
  const latticeIndex = new Map(grid.weights.map((point, index) => [point.lattice.join(","), index]));
  const step = (point: GridPoint) => neighbours(grid, point, latticeIndex);
  const published = result.published < 0 ? [] : protocolCapacities
    .map((capacity) => grid.capacities.indexOf(capacity))
    .filter((index) => index >= 0)
    .map((index) => result.published * capacityCount + index);
  const distance = stepsFrom(published, points, step);
  const neighbourhood = reachable(
    published.filter((point) => holds(result, point)),
    points,
    step,
    (point) => holds(result, point),
  );
  const shortfalls: { point: GridPoint; steps: number }[] = [];
  for (let point = 0; point < points; point++) {
    if (!holds(result, point)) shortfalls.push({ point, steps: distance[point] });
  }
  const far = (steps: number) => steps < 0 ? Infinity : steps;
  shortfalls.sort((a, b) => far(a.steps) - far(b.steps) || a.point - b.point);
  return { published, neighbourhood, shortfalls };
}

/** Breadth-first distances in steps from the starting points over the whole grid (-1 where unreached). */
function stepsFrom(
  starts: readonly GridPoint[],
  points: number,
  step: (point: GridPoint) => GridPoint[],
): Int32Array {
  const distance = new Int32Array(points).fill(-1);
  const queue = [...starts];
  for (const point of starts) distance[point] = 0;
  for (let at = 0; at < queue.length; at++) {
    for (const next of step(queue[at])) {
      if (distance[next] < 0) {
        distance[next] = distance[queue[at]] + 1;
        queue.push(next);
      }
    }
  }
  return distance;
}

/** The points reached from the starting ones through points where `inside` holds, sorted. */
function reachable(
  starts: readonly GridPoint[],
  points: number,
  step: (point: GridPoint) => GridPoint[],
  inside: (point: GridPoint) => boolean,
): GridPoint[] {
  const seen = new Uint8Array(points);
  const found = [...starts];
  for (const point of found) seen[point] = 1;
  for (let at = 0; at < found.length; at++) {
    for (const next of step(found[at])) {
      if (seen[next] === 0 && inside(next)) {
        seen[next] = 1;
        found.push(next);
      }
    }
  }
  return found.sort((a, b) => a - b);
}
