/**
 * The lines `sweep` prints: the grid's size, the published parameters at each capacity, their neighbourhood's
 * extent along each parameter, and the nearest grid points that keep fewer supports than `confidence`.
 *
 * @module
 */

import type { HybridParams } from "../policy/mod.ts";
import { floatRepr } from "../py/mod.ts";
import type { SweepResult } from "./engine.ts";
import { placePublished, shortfallsAt, type SweepPlacement, type SweepShortfall } from "./neighbourhood.ts";
import { parametersAt } from "./parameters.ts";

function number(value: number): string {
  return Number.isInteger(value) ? String(value) : floatRepr(value);
}

/**
 * Parameters in one line: `weights 0.65/0.25/0.1, half-lives 90/30 d, reserve 0.1 up to 10`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { DEFAULT_HYBRID_PARAMS } from "../policy/mod.ts";
 * import { describeParameters } from "./summary.ts";
 * strictEqual(describeParameters(DEFAULT_HYBRID_PARAMS), "weights 0.65/0.25/0.1, half-lives 90/30 d, reserve 0.1 up to 10");
 * ```
 */
export function describeParameters(params: HybridParams): string {
  return `weights ${number(params.confidenceWeight)}/${number(params.confirmationWeight)}/${
    number(params.accessWeight)
  }, half-lives ${params.confirmationHalfLifeDays}/${params.accessHalfLifeDays} d, reserve ${
    number(params.correctionReservedFraction)
  } up to ${params.correctionReservedMax}`;
}

function describeShortfalls(shortfalls: readonly SweepShortfall[]): string {
  return shortfalls.map((shortfall) =>
    `${shortfall.group.scenario} ${shortfall.hybrid} vs ${shortfall.confidence}`
  )
    .join(", ");
}

function span(values: readonly number[]): string {
  let low = Infinity;
  let high = -Infinity;
  for (const value of values) {
    if (value < low) low = value;
    if (value > high) high = value;
  }
  return low === high ? number(low) : `${number(low)}–${number(high)}`;
}

/**
 * The terminal summary: the grid's size; the published parameters at every capacity of the grid (the
 * protocol's marked); their neighbourhood's extent along each parameter; and the grid points keeping fewer
 * supports than `confidence` in some scenario, nearest first (at most `nearest` of them).
 *
 * @example
 * ```ts
 * import { match } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepSummaryLines } from "./mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", prepared.contracts.config));
 * const [first, second] = sweepSummaryLines(result, prepared.contracts.config.pool.capacities);
 * match(first, /^sweep: 462 parameter sets × 3 capacities \(5–9\) = 1386 grid points, × \d+ scenarios on 45 cases$/);
 * match(second, /^published hybrid-v1: /);
 * ```
 */
export function sweepSummaryLines(
  result: SweepResult,
  protocolCapacities: readonly number[],
  nearest = 5,
): string[] {
  const { grid, groups } = result;
  const placement = placePublished(result, protocolCapacities);
  const cases = groups.reduce((sum, group) => sum + group.cases, 0);
  const points = result.parameterSets * grid.capacities.length;
  return [
    `sweep: ${result.parameterSets} parameter sets × ${grid.capacities.length} capacities (${
      span(grid.capacities)
    }) = ${points} grid points, × ${groups.length} scenarios on ${cases} cases`,
    `published hybrid-v1: ${describeParameters(result.publishedParams)}`,
    ...publishedLines(result, protocolCapacities),
    ...neighbourhoodLines(result, placement),
    ...shortfallLines(result, placement, nearest),
  ];
}

/** Where the published parameters keep at least as many supports as `confidence`, and where fewer. */
function publishedLines(result: SweepResult, protocolCapacities: readonly number[]): string[] {
  if (result.published < 0) return ["  not on this grid: no neighbourhood to report"];
  const { grid } = result;
  const lines: string[] = [];
  const fewer: string[] = [];
  let atLeast: number[] = [];
  grid.capacities.forEach((capacity, index) => {
    const shortfalls = shortfallsAt(result, result.published * grid.capacities.length + index);
    const mark = protocolCapacities.includes(capacity) ? " (protocol)" : "";
    if (shortfalls.length === 0) atLeast.push(capacity);
    else fewer.push(`capacity ${capacity}${mark}: ${describeShortfalls(shortfalls)}`);
  });
  const protocol = atLeast.filter((capacity) => protocolCapacities.includes(capacity));
  atLeast = atLeast.filter((capacity) => !protocolCapacities.includes(capacity));
  if (protocol.length > 0) {
    lines.push(
      `  keeps at least as many supports as confidence in every scenario at the protocol's capacities ${
        protocol.join(", ")
      }${atLeast.length > 0 ? ` and at ${atLeast.join(", ")}` : ""}`,
    );
  } else if (atLeast.length > 0) {
    lines.push(`  keeps at least as many supports as confidence in every scenario at ${atLeast.join(", ")}`);
  }
  for (const line of fewer) lines.push(`  keeps fewer at ${line}`);
  return lines;
}

/** The neighbourhood's extent along each parameter, at each of the protocol's capacities on the grid. */
function neighbourhoodLines(result: SweepResult, placement: SweepPlacement): string[] {
  if (placement.published.length === 0) return [];
  const { grid } = result;
  const capacityCount = grid.capacities.length;
  const lines = [
    "neighbourhood at the protocol's capacities: parameter sets reached from the published ones one step at a time (a half-life or reserve value, or 0.05 of weight moved) that keep at least as many supports in every scenario",
  ];
  for (const start of placement.published) {
    const capacityIndex = start % capacityCount;
    const members = placement.neighbourhood.filter((point) => point % capacityCount === capacityIndex);
    const label = `  capacity ${grid.capacities[capacityIndex]}:`;
    if (members.length === 0) {
      lines.push(`${label} none (the published parameters keep fewer here)`);
      continue;
    }
    const sets = members.map((point) => parametersAt(grid, Math.floor(point / capacityCount)));
    lines.push(
      `${label} ${members.length} of ${result.parameterSets} parameter sets; weights confidence ${
        span(sets.map((p) => p.confidenceWeight))
      }, confirmation ${span(sets.map((p) => p.confirmationWeight))}, access ${
        span(sets.map((p) => p.accessWeight))
      }; half-lives ${span(sets.map((p) => p.confirmationHalfLifeDays))} / ${
        span(sets.map((p) => p.accessHalfLifeDays))
      } d; reserve ${span(sets.map((p) => p.correctionReservedFraction))} up to ${
        span(sets.map((p) => p.correctionReservedMax))
      }`,
    );
  }
  return lines;
}

/** How many grid points keep fewer in some scenario, and the first `nearest` of them. */
function shortfallLines(result: SweepResult, placement: SweepPlacement, nearest: number): string[] {
  if (placement.shortfalls.length === 0) return ["keeps fewer in some scenario: no grid point"];
  const { grid } = result;
  const capacityCount = grid.capacities.length;
  const lines = [
    `keeps fewer in some scenario: ${placement.shortfalls.length} of ${
      result.parameterSets * capacityCount
    } grid points; ${placement.published.length === 0 ? "the first" : "the nearest to the published ones"}:`,
  ];
  for (const { point, steps } of placement.shortfalls.slice(0, nearest)) {
    const params = parametersAt(grid, Math.floor(point / capacityCount));
    const away = steps < 0 ? "" : ` (${steps} step${steps === 1 ? "" : "s"} away)`;
    lines.push(
      `  capacity ${grid.capacities[point % capacityCount]}, ${describeParameters(params)}${away}: ${
        describeShortfalls(shortfallsAt(result, point))
      }`,
    );
  }
  return lines;
}
