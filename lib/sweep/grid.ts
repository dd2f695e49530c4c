/**
 * The sweep's grid: the weight simplex, both half-lives, the correction reserve fraction and cap, and the
 * capacities — the default grid around the published `hybrid-v1` parameters, or a `--grid` YAML file over it,
 * read as the config is read (PyYAML, then pydantic's lax conversions).
 *
 * @module
 */

import * as z from "../base/zod.ts";
import { InputError, parseWith, type SameType, type Schema } from "../base/mod.ts";
import { laxFloat, laxInt, parsePyYamlFile } from "../py/mod.ts";
import type { ProtocolConfig } from "../protocol/mod.ts";
import { hybridParams } from "../policy/mod.ts";

/** One point of the weight simplex: multiples of the grid's step (`lattice` counts steps of each). */
export interface WeightPoint {
  confidence: number;
  confirmation: number;
  access: number;
  /** Steps of confidence, confirmation and access; they sum to the number of divisions. */
  lattice: [number, number, number];
}

/** A resolved sweep grid: every list sorted ascending, weights enumerated. */
export interface SweepGrid {
  /** The weights' step, `1 / divisions`. */
  weightStep: number;
  divisions: number;
  weights: WeightPoint[];
  confirmationHalfLifeDays: number[];
  accessHalfLifeDays: number[];
  correctionReservedFraction: number[];
  correctionReservedMax: number[];
  capacities: number[];
}

/** A parsed `--grid` file: every key optional, a missing one takes the default grid's values. */
export interface SweepGridFile {
  weights_step?: number;
  confirmation_half_life_days?: number[];
  access_half_life_days?: number[];
  correction_reserved_fraction?: number[];
  correction_reserved_max?: number[];
  capacities?: number[];
}

// The config's own conversions (pydantic's lax mode), so a value reads as a config field of its type reads it.
const unit = laxFloat().check(z.refine((value) => value >= 0 && value <= 1, "must be in [0, 1]"));

function valuesOf<T>(item: z.ZodMiniType<T, unknown>) {
  return z.array(item).check(
    z.minLength(1, "must not be empty"),
    z.refine((values) => new Set(values).size === values.length, "must not repeat a value"),
  );
}

const sweepGridFileSchema = z.strictObject({
  weights_step: z.optional(
    laxFloat().check(z.refine((step) => {
      const divisions = Math.round(1 / step);
      return divisions >= 1 && divisions <= 100 && 1 / divisions === step;
    }, "must be 1/n for a whole n from 1 to 100 (e.g. 0.05)")),
  ),
  confirmation_half_life_days: z.optional(valuesOf(laxInt({ min: 1 }))),
  access_half_life_days: z.optional(valuesOf(laxInt({ min: 1 }))),
  correction_reserved_fraction: z.optional(valuesOf(unit)),
  correction_reserved_max: z.optional(valuesOf(laxInt({ min: 0 }))),
  capacities: z.optional(valuesOf(laxInt({ min: 1 }))),
});

/**
 * The `--grid` file's schema (unknown keys rejected), applied to YAML already parsed.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { SweepGridFile } from "./grid.ts";
 * deepStrictEqual(SweepGridFile.parse({ weights_step: "5e-2", capacities: [5n, "7"] }), {
 *   weights_step: 0.05,
 *   capacities: [5, 7],
 * });
 * strictEqual(SweepGridFile.safeParse({ capacities: [0] }).success, false);
 * ```
 */
export const SweepGridFile: Schema<SweepGridFile> = sweepGridFileSchema;

// The hand-written type must stay the schema's own: this line stops compiling when they drift apart.
const _sameGridFile: SameType<SweepGridFile, z.infer<typeof sweepGridFileSchema>> = true;

/** The default weight step: the published weights (0.65/0.25/0.10) are multiples of it. */
export const DEFAULT_WEIGHT_STEP = 0.05;

/**
 * Whether three weights sum to 1 by the config's own rule (`policies.hybrid_v1.weights` must sum to 1 within
 * 1e-9), so every grid point is a config the protocol would accept.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { weightsSumToOne } from "./grid.ts";
 * strictEqual(weightsSumToOne(13 / 20, 5 / 20, 2 / 20), true);
 * strictEqual(weightsSumToOne(0.5, 0.5, 0.1), false);
 * ```
 */
export function weightsSumToOne(confidence: number, confirmation: number, access: number): boolean {
  return !(Math.abs(confidence + confirmation + access - 1) > 1e-9);
}

/**
 * Every weight triple of multiples of `1 / divisions` summing to 1, confidence descending, then confirmation
 * descending. Each weight is `steps / divisions` — one correctly rounded division, so 13/20 is the double 0.65
 * a config spells — never `1 - a - b`, whose rounding (1 - 0.65 - 0.25 = 0.09999999999999998) would miss it.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { simplexWeights } from "./grid.ts";
 * strictEqual(simplexWeights(20).length, 231);
 * deepStrictEqual(simplexWeights(1).map((point) => point.lattice), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
 * ```
 */
export function simplexWeights(divisions: number): WeightPoint[] {
  const points: WeightPoint[] = [];
  for (let confidence = divisions; confidence >= 0; confidence--) {
    for (let confirmation = divisions - confidence; confirmation >= 0; confirmation--) {
      const access = divisions - confidence - confirmation;
      const point: WeightPoint = {
        confidence: confidence / divisions,
        confirmation: confirmation / divisions,
        access: access / divisions,
        lattice: [confidence, confirmation, access],
      };
      if (!weightsSumToOne(point.confidence, point.confirmation, point.access)) {
        throw new RangeError(
          `weights ${confidence}/${confirmation}/${access} of ${divisions} do not sum to 1`,
        );
      }
      points.push(point);
    }
  }
  return points;
}

function sortedUnique(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/**
 * The default grid around a config's published `hybrid-v1` parameters: weights every multiple of 0.05 on the
 * simplex (231 triples), each half-life at ½×, 1× and 2× the published value, the reserve fraction at 0 and the
 * published value, the reserve cap at the published value (with at most 10 facts it binds only below 2), and
 * capacities 1 to the pool size. For the embedded protocol: half-lives 45/90/180 and 15/30/60 days, fractions
 * 0/0.1, cap 10, capacities 1–10 — 4,158 parameter sets, 41,580 grid points.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { defaultGrid } from "./grid.ts";
 * const { contracts } = await prepareDemoProtocol(await buildDemoProtocol());
 * const grid = defaultGrid(contracts.config);
 * strictEqual(grid.weights.length, 231);
 * deepStrictEqual([grid.confirmationHalfLifeDays, grid.accessHalfLifeDays], [[45, 90, 180], [15, 30, 60]]);
 * deepStrictEqual(grid.capacities, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
 * ```
 */
export function defaultGrid(config: ProtocolConfig): SweepGrid {
  const published = hybridParams(config);
  const around = (days: number) => sortedUnique([Math.max(1, Math.round(days / 2)), days, days * 2]);
  const divisions = Math.round(1 / DEFAULT_WEIGHT_STEP);
  return {
    weightStep: DEFAULT_WEIGHT_STEP,
    divisions,
    weights: simplexWeights(divisions),
    confirmationHalfLifeDays: around(published.confirmationHalfLifeDays),
    accessHalfLifeDays: around(published.accessHalfLifeDays),
    correctionReservedFraction: sortedUnique([0, published.correctionReservedFraction]),
    correctionReservedMax: [published.correctionReservedMax],
    capacities: Array.from({ length: config.pool.size }, (_, index) => index + 1),
  };
}

/**
 * Parses a `--grid` YAML file over the default grid, read like the config: YAML as PyYAML's `safe_load`, each
 * number converted as a config field of its type (so `5e-2`, a string to PyYAML, is 0.05). A bad value is an
 * {@linkcode InputError} naming the file and the field, e.g. `grid.yaml: capacities.1: must be in [1, 10] (the
 * pool size)`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { InputError } from "../base/errors.ts";
 * import { defaultGrid, parseGrid } from "./grid.ts";
 * const { config } = (await prepareDemoProtocol(await buildDemoProtocol())).contracts;
 * const grid = parseGrid("weights_step: 5e-2\ncapacities: [5, 7, 9]\n", "grid.yaml", config);
 * deepStrictEqual(grid, { ...defaultGrid(config), capacities: [5, 7, 9] }); // the rest is the default grid
 * throws(() => parseGrid("capacities: [5, 70]\n", "grid.yaml", config), InputError);
 * ```
 */
export function parseGrid(text: string, path: string, config: ProtocolConfig): SweepGrid {
  const data = parsePyYamlFile(text, path, InputError);
  const file = parseWith(SweepGridFile, data ?? {}, path, { error: InputError });
  file.capacities?.forEach((capacity, index) => {
    if (capacity > config.pool.size) {
      throw new InputError(`must be in [1, ${config.pool.size}] (the pool size)`, {
        path,
        field: `capacities.${index}`,
      });
    }
  });
  const grid = resolveGrid(file, defaultGrid(config));
  refuseTooLarge(grid, path);
  return grid;
}

/**
 * The most grid points one sweep evaluates: 84,000, twice the default grid and no more, since a sweep at this
 * bound peaks near 930 MB (`deno task bench:hostile`). At the protocol's five scenario groups that is some 155 MB
 * of `sweep.jsonl`, under what `report` reads back (base/read.ts's `SWEEP_OUTPUT_CAP`).
 */
export const MAX_GRID_POINTS = 84_000;

function refuseTooLarge(grid: SweepGrid, path: string): void {
  const dimensions = [
    grid.weights.length,
    grid.confirmationHalfLifeDays.length,
    grid.accessHalfLifeDays.length,
    grid.correctionReservedFraction.length,
    grid.correctionReservedMax.length,
    grid.capacities.length,
  ];
  const points = dimensions.reduce((product, size) => product * size, 1);
  if (points <= MAX_GRID_POINTS) return;
  const [w, c, a, f, m, k] = dimensions;
  const count = (value: number) => value.toLocaleString("en-US");
  throw new InputError(
    `the grid has ${w} weight points × ${c} × ${a} half-lives × ${f} × ${m} reserve values × ${k} capacities = ` +
      `${count(points)} grid points, more than the ${count(MAX_GRID_POINTS)} one sweep evaluates`,
    { path },
  );
}

/** A grid file over a base grid: each list the file gives, sorted, in place of the base's. */
function resolveGrid(file: SweepGridFile, base: SweepGrid): SweepGrid {
  const divisions = file.weights_step === undefined ? base.divisions : Math.round(1 / file.weights_step);
  return {
    weightStep: file.weights_step ?? base.weightStep,
    divisions,
    weights: simplexWeights(divisions),
    confirmationHalfLifeDays: sortedUnique(file.confirmation_half_life_days ?? base.confirmationHalfLifeDays),
    accessHalfLifeDays: sortedUnique(file.access_half_life_days ?? base.accessHalfLifeDays),
    correctionReservedFraction: sortedUnique(
      file.correction_reserved_fraction ?? base.correctionReservedFraction,
    ),
    correctionReservedMax: sortedUnique(file.correction_reserved_max ?? base.correctionReservedMax),
    capacities: sortedUnique(file.capacities ?? base.capacities),
  };
}
