/**
 * A sweep's rows gathered into grid points (a parameter set at one capacity, summed over its scenarios), and
 * how the sweep report keys, compares and writes a point's parameters.
 *
 * @module
 */

import { InputError, parseWith } from "../../base/mod.ts";
import { parseJsonText } from "../../py/mod.ts";
import { SweepRow } from "./sweep_schema.ts";

/** A grid point: a parameter set at one capacity, with its per-scenario rows. */
export interface Point {
  parameters: SweepRow["parameters"];
  capacity: number;
  difference: number;
  hybrid: number;
  confidence: number;
  cases: number;
  scenarios: { scenario: string; difference: number; hybrid: number; confidence: number; cases: number }[];
}

/** A parameter set as one string, to tell points apart and find the published one. */
export function parametersKey(parameters: SweepRow["parameters"]): string {
  const { weights: w } = parameters;
  return [
    w.confidence,
    w.confirmation,
    w.access,
    parameters.confirmation_half_life_days,
    parameters.access_half_life_days,
    parameters.correction_reserved_fraction,
    parameters.correction_reserved_max,
  ].join(",");
}

/** Whether two parameter sets share their half-lives and reserve (the weights may differ). */
export function sameScalars(a: SweepRow["parameters"], b: SweepRow["parameters"]): boolean {
  return a.confirmation_half_life_days === b.confirmation_half_life_days &&
    a.access_half_life_days === b.access_half_life_days &&
    a.correction_reserved_fraction === b.correction_reserved_fraction &&
    a.correction_reserved_max === b.correction_reserved_max;
}

/** A parameter set in the report's columns: weights, half-lives, reserve. */
export function describe(parameters: SweepRow["parameters"]): string {
  const w = parameters.weights;
  return `${w.confidence}/${w.confirmation}/${w.access}`.padEnd(16) +
    `${parameters.confirmation_half_life_days}/${parameters.access_half_life_days} d`.padEnd(12) +
    `${parameters.correction_reserved_fraction} ≤ ${parameters.correction_reserved_max}`.padEnd(10);
}

/** A difference with its sign: `+3`, `0`, `-2`. */
export function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/**
 * The rows of `sweep.jsonl` (each checked against {@linkcode SweepRow}) gathered into grid points in file order,
 * and how many rows there were.
 */
export function gridPoints(rowsText: string, rowsPath: string): { points: Point[]; rows: number } {
  // A grid point's rows are consecutive in the file (parameter set, then capacity, then scenario).
  const points: Point[] = [];
  let point: Point | undefined;
  let pointKey = "";
  const lines = rowsText.split("\n");
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((line, index) => {
    const prefix = `line ${index + 1}: `;
    const row = parseWith(SweepRow, parseJsonText(line, rowsPath, { error: InputError, prefix }), rowsPath, {
      error: InputError,
      prefix,
    });
    const key = `${parametersKey(row.parameters)}@${row.capacity}`;
    if (point === undefined || key !== pointKey) {
      point = {
        parameters: row.parameters,
        capacity: row.capacity,
        difference: 0,
        hybrid: 0,
        confidence: 0,
        cases: 0,
        scenarios: [],
      };
      pointKey = key;
      points.push(point);
    }
    point.difference += row.difference;
    point.hybrid += row.hybrid_v1_retained;
    point.confidence += row.confidence_retained;
    point.cases += row.cases;
    point.scenarios.push({
      scenario: row.scenario,
      difference: row.difference,
      hybrid: row.hybrid_v1_retained,
      confidence: row.confidence_retained,
      cases: row.cases,
    });
  });
  return { points, rows: lines.length };
}
