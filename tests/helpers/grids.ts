/** Grids and results the sweep tests share. */

import { parametersAt, simplexWeights, type SweepGrid, type SweepResult } from "../../lib/sweep/mod.ts";

/** A grid file fixing every axis but the weights and capacities at the published values. */
export const PUBLISHED_ONLY = [
  "confirmation_half_life_days: [90]",
  "access_half_life_days: [30]",
  "correction_reserved_fraction: [0.1]",
  "correction_reserved_max: [10]",
].join("\n");

/** A hand-made result on weights step 0.5 (six triples), one value per other axis, one capacity, one group. */
export function handMade(hybridByWeights: number[], confidence: number): SweepResult {
  const weights = simplexWeights(2);
  const grid: SweepGrid = {
    weightStep: 0.5,
    divisions: 2,
    weights,
    confirmationHalfLifeDays: [90],
    accessHalfLifeDays: [30],
    correctionReservedFraction: [0.1],
    correctionReservedMax: [10],
    capacities: [7],
  };
  const published = weights.findIndex((w) => w.confidence === 0.5 && w.confirmation === 0.5);
  return {
    grid,
    groups: [{ source: "longmemeval", scenario: "s", cases: 10 }],
    parameterSets: weights.length,
    hybrid: Uint16Array.from(hybridByWeights),
    confidence: Uint16Array.from([confidence]),
    published,
    publishedParams: parametersAt(grid, published),
  };
}

/**
 * Writes a 12-point grid (weights step 0.5, capacities 5 and 7, the published values elsewhere) to `path`, for
 * tests whose point is not the default grid: its 41,580 points cost a sweep about 25 s more on a busy machine.
 */
export async function writeSmallGrid(path: string): Promise<string> {
  await Deno.writeTextFile(path, `weights_step: 0.5\n${PUBLISHED_ONLY}\ncapacities: [5, 7]\n`);
  return path;
}
