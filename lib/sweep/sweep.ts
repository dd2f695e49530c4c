/**
 * `sweep`: `hybrid-v1` over a grid of its parameters — weights on the simplex, both half-lives, the correction
 * reserve fraction and cap — at every capacity, against `confidence`, on the protocol's cases. Support retention
 * needs no model, so the grid is cheap; what costs is the production selector, so each distinct decision is
 * asked of it once (see {@linkcode runSweep}). Outputs: `sweep.jsonl` (one metadata-only row per grid point ×
 * scenario), `sweep.json` (the grid, the protocol's hashes, the tool) and where the published parameters sit.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import * as z from "../base/zod.ts";
import type { Contracts } from "../protocol/contracts.ts";
import type { ProtocolConfig } from "../protocol/config.ts";
import { isoformatUtc, isoformatZulu } from "../py/time.ts";
import type { PreparedCase } from "../protocol/cases.ts";
import { InputError } from "../base/errors.ts";
import { EVICTION_POLICY_HYBRID_V1, type HybridParams, selectFactsForCapacity } from "../policy/mod.ts";
import { ensureDir, type FileContent, readText, writeAllOrNothing } from "../base/fs.ts";
import { CONFIDENCE_POLICY, evaluateTrusted, hybridParams, hybridParamsConfig } from "../policy/mod.ts";
import { buildPool, type Pool } from "../protocol/pool.ts";
import { dumps, dumpsString, floatRepr, PyFloat, type PyJson } from "../py/json.ts";
import { parseWith } from "../base/schema.ts";
import { type ContractPaths, prepareDataset, readContracts } from "../protocol/prepare.ts";

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

const int = z.number().check(z.int("must be an integer"));
const unit = z.number().check(z.minimum(0, "must be in [0, 1]"), z.maximum(1, "must be in [0, 1]"));

function valuesOf<T extends z.ZodMiniType<number>>(item: T) {
  return z.array(item).check(
    z.minLength(1, "must not be empty"),
    z.refine((values) => new Set(values).size === values.length, "must not repeat a value"),
  );
}

/** The `--grid` YAML file: every key optional, a missing one takes the default grid's values. */
export const SweepGridFile = z.strictObject({
  weights_step: z.optional(
    z.number().check(z.refine((step) => {
      const divisions = Math.round(1 / step);
      return divisions >= 1 && divisions <= 100 && 1 / divisions === step;
    }, "must be 1/n for a whole n from 1 to 100 (e.g. 0.05)")),
  ),
  confirmation_half_life_days: z.optional(valuesOf(int.check(z.minimum(1, "must be ≥ 1")))),
  access_half_life_days: z.optional(valuesOf(int.check(z.minimum(1, "must be ≥ 1")))),
  correction_reserved_fraction: z.optional(valuesOf(unit)),
  correction_reserved_max: z.optional(valuesOf(int.check(z.minimum(0, "must be ≥ 0")))),
  capacities: z.optional(valuesOf(int.check(z.minimum(1, "must be ≥ 1")))),
});

/** A parsed `--grid` file. */
export type SweepGridFile = z.infer<typeof SweepGridFile>;

/** The default weight step: the published weights (0.65/0.25/0.10) are multiples of it. */
export const DEFAULT_WEIGHT_STEP = 0.05;

/**
 * Whether three weights sum to 1 by the config's own rule (`policies.hybrid_v1.weights` must sum to 1 within
 * 1e-9), so every grid point is a config the protocol would accept.
 *
 * @example
 * ```ts
 * import { weightsSumToOne } from "./sweep.ts";
 * console.log(weightsSumToOne(13 / 20, 5 / 20, 2 / 20)); // true
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
 * import { simplexWeights } from "./sweep.ts";
 * console.log(simplexWeights(20).length); // 231
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
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { defaultGrid } from "./sweep.ts";
 * const { config } = loadContracts(embeddedSources());
 * const grid = defaultGrid(config);
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
 * Parses a `--grid` YAML file (read like the config: YAML 1.1) over the default grid; a bad value is an
 * {@linkcode InputError} naming the file and the field, e.g. `grid.yaml: capacities.2: must be in [1, 10]`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { InputError } from "../base/errors.ts";
 * import { defaultGrid, parseGrid } from "./sweep.ts";
 * const { config } = loadContracts(embeddedSources());
 * const grid = parseGrid("capacities: [5, 7, 9]\n", "grid.yaml", config);
 * deepStrictEqual(grid.capacities, [5, 7, 9]);
 * deepStrictEqual(grid.weights, defaultGrid(config).weights); // the rest is the default grid
 * throws(() => parseGrid("capacities: [5, 70]\n", "grid.yaml", config), InputError);
 * ```
 */
export function parseGrid(text: string, path: string, config: ProtocolConfig): SweepGrid {
  let data: unknown;
  try {
    data = parseYaml(text, { version: "1.1" });
  } catch (error) {
    throw new InputError(`not valid YAML: ${(error as Error).message.split("\n")[0]}`, {
      path,
      cause: error,
    });
  }
  const file = parseWith(SweepGridFile, data ?? {}, path, { error: InputError });
  file.capacities?.forEach((capacity, index) => {
    if (capacity > config.pool.size) {
      throw new InputError(`must be in [1, ${config.pool.size}] (the pool size)`, {
        path,
        field: `capacities.${index}`,
      });
    }
  });
  const base = defaultGrid(config);
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

/** A (source, scenario) group of cases: one row per grid point. */
export interface SweepGroup {
  source: string;
  scenario: string;
  cases: number;
}

/** The sweep's counts. A parameter set is (weights, half-lives, reserve); a grid point adds the capacity. */
export interface SweepResult {
  grid: SweepGrid;
  groups: SweepGroup[];
  /** Parameter sets: weights × confirmation × access half-life × reserve fraction × reserve cap. */
  parameterSets: number;
  /** Cases whose support `hybrid-v1` keeps, at [(parameter set × capacities + capacity) × groups + group]. */
  hybrid: Uint16Array;
  /** Cases whose support `confidence` keeps, at [capacity × groups + group]. */
  confidence: Uint16Array;
  /** The published parameters' set index, or -1 when they are not on the grid. */
  published: number;
  publishedParams: HybridParams;
}

/** Index of each axis of a parameter set, in the order the set index nests them. */
export interface ParameterIndex {
  weights: number;
  confirmation: number;
  access: number;
  fraction: number;
  max: number;
}

/** A parameter set's index from its axes' indices (weights outermost, reserve cap innermost). */
export function parameterSetIndex(grid: SweepGrid, at: ParameterIndex): number {
  return (((at.weights * grid.confirmationHalfLifeDays.length + at.confirmation) *
              grid.accessHalfLifeDays.length +
            at.access) * grid.correctionReservedFraction.length + at.fraction) *
      grid.correctionReservedMax.length + at.max;
}

/** The axes' indices of a parameter set index. */
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

/** The `hybrid-v1` parameters of a parameter set. */
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

function publishedIndex(grid: SweepGrid, params: HybridParams): number {
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

/** What {@linkcode runSweep} reads of a prepared protocol. */
export interface SweepProtocol {
  contracts: { config: ProtocolConfig };
  cases: readonly PreparedCase[];
}

/**
 * Evaluates the grid. Every kept set comes from the production selector, and no decision is asked twice. The
 * selector's choice depends on the parameters only through the facts' rank order (by score, then position) and
 * the number of reserved correction slots, `min(cap, ceil(capacity × fraction))`. So per case and half-life pair
 * the selector scores the pool once (the components do not depend on the weights); per weight triple the score
 * and rank order are computed as the selector computes them; and each distinct (rank order, capacity, reserved
 * slots) is selected once, with the parameters of the first grid point that reaches it. A test checks the
 * counts against one selector call per grid point and case. Pools must have distinct fact ids (as built).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * import { parseGrid, runSweep } from "./sweep.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", contracts.config)); // 231 weights × 2 reserves
 * strictEqual(result.parameterSets, 231 * 2);
 * strictEqual(result.hybrid.length, result.parameterSets * 3 * result.groups.length); // per set, capacity, scenario
 * strictEqual(result.published >= 0, true); // the published parameters are on this grid
 * ```
 */
export function runSweep(protocol: SweepProtocol, grid: SweepGrid): SweepResult {
  const { config } = protocol.contracts;
  const clock = isoformatZulu(config.evaluation_time);
  const groups: SweepGroup[] = [];
  const groupOf = new Map<string, number>();
  const caseGroup = protocol.cases.map((prepared) => {
    const key = JSON.stringify([prepared.source, prepared.scenario]);
    let group = groupOf.get(key);
    if (group === undefined) {
      group = groups.length;
      groupOf.set(key, group);
      groups.push({ source: prepared.source, scenario: prepared.scenario, cases: 0 });
    }
    groups[group].cases++;
    return group;
  });
  const groupCount = groups.length;
  const capacities = grid.capacities;
  const capacityCount = capacities.length;
  const halfLives = grid.confirmationHalfLifeDays.flatMap((confirmation) =>
    grid.accessHalfLifeDays.map((access) => [confirmation, access] as const)
  );
  const reserves = grid.correctionReservedFraction.flatMap((fraction) =>
    grid.correctionReservedMax.map((max) => [fraction, max] as const)
  );
  const parameterSets = grid.weights.length * halfLives.length * reserves.length;
  const hybrid = new Uint16Array(parameterSets * capacityCount * groupCount);
  const confidence = new Uint16Array(capacityCount * groupCount);
  // Reserved correction slots per (reserve, capacity), as the selector computes them.
  const reservedSlots = reserves.map(([fraction, max]) =>
    capacities.map((capacity) => Math.min(max, Math.ceil(capacity * fraction)))
  );

  protocol.cases.forEach((prepared, caseIndex) => {
    const group = caseGroup[caseIndex];
    const pool = buildPool(prepared, config.evaluation_time);
    const support = new Set(pool.supportFactIds);
    capacities.forEach((capacity, capacityIndex) => {
      const result = evaluateTrusted(CONFIDENCE_POLICY, prepared, capacity, config, pool);
      if (result.supportAllRetained) confidence[capacityIndex * groupCount + group]++;
    });
    const orders = new Map<string, number>();
    const retainedByDecision = new Map<number, boolean>();
    const stride = (config.pool.size + 2) * (Math.max(...capacities) + 2);
    const factCount = pool.facts.length;
    const confidences = new Float64Array(factCount);
    const freshnesses = new Float64Array(factCount);
    const heats = new Float64Array(factCount);
    const scores = new Float64Array(factCount);
    const ranking = Array.from({ length: factCount }, (_, index) => index);
    halfLives.forEach(([confirmationHalfLife, accessHalfLife], halfLifeIndex) => {
      const base: HybridParams = {
        ...publishedWeights(config),
        confirmationHalfLifeDays: confirmationHalfLife,
        accessHalfLifeDays: accessHalfLife,
        correctionReservedFraction: 0,
        correctionReservedMax: 0,
      };
      // The components do not depend on the weights: the selector scores the pool once per half-life pair.
      const scored = select(pool, 0, clock, base).scores;
      pool.facts.forEach((fact, index) => {
        const components = scored.get(fact.id)!.components;
        confidences[index] = components.confidence;
        freshnesses[index] = components.confirmationFreshness!;
        heats[index] = components.accessHeat!;
      });
      grid.weights.forEach((weights, weightIndex) => {
        // The selector's score and rank order, operation for operation (checked against it in the tests).
        for (let index = 0; index < factCount; index++) {
          scores[index] = weights.confidence * confidences[index] +
            weights.confirmation * freshnesses[index] +
            weights.access * heats[index];
        }
        ranking.sort((a, b) => scores[b] - scores[a] || a - b);
        const key = ranking.join(",");
        let order = orders.get(key);
        if (order === undefined) {
          order = orders.size;
          orders.set(key, order);
        }
        reserves.forEach(([fraction, max], reserveIndex) => {
          const set = (weightIndex * halfLives.length + halfLifeIndex) * reserves.length + reserveIndex;
          capacities.forEach((capacity, capacityIndex) => {
            const reserved = reservedSlots[reserveIndex][capacityIndex];
            const decision = order! * stride + capacity * (config.pool.size + 2) + reserved;
            let retained = retainedByDecision.get(decision);
            if (retained === undefined) {
              const kept = select(pool, capacity, clock, {
                ...base,
                confidenceWeight: weights.confidence,
                confirmationWeight: weights.confirmation,
                accessWeight: weights.access,
                correctionReservedFraction: fraction,
                correctionReservedMax: max,
              }).kept;
              const keptIds = new Set(kept.map((fact) => fact.id));
              retained = [...support].every((id) => keptIds.has(id));
              retainedByDecision.set(decision, retained);
            }
            if (retained) hybrid[(set * capacityCount + capacityIndex) * groupCount + group]++;
          });
        });
      });
    });
  });
  const publishedParams = hybridParams(config);
  return {
    grid,
    groups,
    parameterSets,
    hybrid,
    confidence,
    published: publishedIndex(grid, publishedParams),
    publishedParams,
  };
}

function publishedWeights(config: ProtocolConfig) {
  const { confidenceWeight, confirmationWeight, accessWeight } = hybridParams(config);
  return { confidenceWeight, confirmationWeight, accessWeight };
}

function select(pool: Pool, capacity: number, clock: string, params: HybridParams) {
  return selectFactsForCapacity(pool.facts, {
    maxFacts: capacity,
    policy: EVICTION_POLICY_HYBRID_V1,
    now: clock,
    usage: pool.usage,
    params,
  });
}

function parametersJson(params: HybridParams): string {
  return dumps(hybridParamsConfig(params));
}

/**
 * `sweep.jsonl`, a parameter set's rows at a time: one sorted-key row per parameter set × capacity × (source,
 * scenario) — the parameters (named as in the config's `policies.hybrid_v1`), the capacity, the cases, the
 * supports each policy keeps and `difference` (hybrid-v1 minus confidence). Metadata only. In pieces because the
 * default grid's 80 MB are better streamed to the file than held (each touch of that much memory costs about a
 * second on this machine).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * import { parseGrid, runSweep, sweepJsonlChunks } from "./sweep.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", contracts.config)); // 231 weights × 2 reserves
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
    const parameters = parametersJson(parametersAt(grid, set));
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
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * import { parseGrid, runSweep, sweepJsonl } from "./sweep.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", contracts.config)); // 231 weights × 2 reserves
 * const lines = sweepJsonl(result).trimEnd().split("\n");
 * strictEqual(lines.length, result.parameterSets * 3 * result.groups.length);
 * ```
 */
export function sweepJsonl(result: SweepResult): string {
  return [...sweepJsonlChunks(result)].join("");
}

/** Where a grid point keeps fewer supports than `confidence`: the group and both counts. */
export interface SweepShortfall {
  group: SweepGroup;
  hybrid: number;
  confidence: number;
}

/**
 * A grid point: a parameter set at one capacity, as `set × capacities + capacity index` (the order of
 * {@linkcode SweepResult.hybrid}'s blocks).
 */
export type GridPoint = number;

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
  const set = Math.floor(point / capacityCount);
  const at = parameterAxes(grid, set);
  const out: GridPoint[] = [];
  const at_ = (next: ParameterIndex) => parameterSetIndex(grid, next) * capacityCount + capacityIndex;
  const sizes = {
    confirmation: grid.confirmationHalfLifeDays.length,
    access: grid.accessHalfLifeDays.length,
    fraction: grid.correctionReservedFraction.length,
    max: grid.correctionReservedMax.length,
  };
  for (const axis of ["confirmation", "access", "fraction", "max"] as const) {
    for (const delta of [-1, 1]) {
      const value = at[axis] + delta;
      if (value >= 0 && value < sizes[axis]) out.push(at_({ ...at, [axis]: value }));
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
      if (weights !== undefined) out.push(at_({ ...at, weights }));
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
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * import { parseGrid, placePublished, runSweep } from "./sweep.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", contracts.config)); // 231 weights × 2 reserves
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
  const published = result.published < 0 ? [] : protocolCapacities
    .map((capacity) => grid.capacities.indexOf(capacity))
    .filter((index) => index >= 0)
    .map((index) => result.published * capacityCount + index);
  // Breadth-first from the published points over the whole grid (distances), and over holding points only.
  const distance = new Int32Array(points).fill(-1);
  const queue = [...published];
  for (const point of published) distance[point] = 0;
  for (let at = 0; at < queue.length; at++) {
    for (const next of neighbours(grid, queue[at], latticeIndex)) {
      if (distance[next] < 0) {
        distance[next] = distance[queue[at]] + 1;
        queue.push(next);
      }
    }
  }
  const inside = new Uint8Array(points);
  const neighbourhood = published.filter((point) => holds(result, point));
  for (const point of neighbourhood) inside[point] = 1;
  for (let at = 0; at < neighbourhood.length; at++) {
    for (const next of neighbours(grid, neighbourhood[at], latticeIndex)) {
      if (inside[next] === 0 && holds(result, next)) {
        inside[next] = 1;
        neighbourhood.push(next);
      }
    }
  }
  const shortfalls: { point: GridPoint; steps: number }[] = [];
  for (let point = 0; point < points; point++) {
    if (!holds(result, point)) shortfalls.push({ point, steps: distance[point] });
  }
  const far = (steps: number) => steps < 0 ? Infinity : steps;
  shortfalls.sort((a, b) => far(a.steps) - far(b.steps) || a.point - b.point);
  return { published, neighbourhood: neighbourhood.sort((a, b) => a - b), shortfalls };
}

function number(value: number): string {
  return Number.isInteger(value) ? String(value) : floatRepr(value);
}

/**
 * Parameters in one line: `weights 0.65/0.25/0.1, half-lives 90/30 d, reserve 0.1 up to 10`.
 *
 * @example
 * ```ts
 * import { DEFAULT_HYBRID_PARAMS } from "../policy/mod.ts";
 * import { describeParameters } from "./sweep.ts";
 * console.log(describeParameters(DEFAULT_HYBRID_PARAMS)); // "weights 0.65/0.25/0.1, half-lives 90/30 d, reserve 0.1 up to 10"
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
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * import { parseGrid, runSweep, sweepSummaryLines } from "./sweep.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", contracts.config)); // 231 weights × 2 reserves
 * const [first, second] = sweepSummaryLines(result, contracts.config.pool.capacities);
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
  const capacityCount = grid.capacities.length;
  const placement = placePublished(result, protocolCapacities);
  const cases = groups.reduce((sum, group) => sum + group.cases, 0);
  const points = result.parameterSets * capacityCount;
  const lines = [
    `sweep: ${result.parameterSets} parameter sets × ${capacityCount} capacities (${
      span(grid.capacities)
    }) = ${points} grid points, × ${groups.length} scenarios on ${cases} cases`,
    `published hybrid-v1: ${describeParameters(result.publishedParams)}`,
  ];
  if (result.published < 0) {
    lines.push("  not on this grid: no neighbourhood to report");
  } else {
    const fewer: string[] = [];
    let atLeast: number[] = [];
    grid.capacities.forEach((capacity, index) => {
      const shortfalls = shortfallsAt(result, result.published * capacityCount + index);
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
      lines.push(
        `  keeps at least as many supports as confidence in every scenario at ${atLeast.join(", ")}`,
      );
    }
    for (const line of fewer) lines.push(`  keeps fewer at ${line}`);
  }
  if (placement.published.length > 0) {
    lines.push(
      "neighbourhood at the protocol's capacities: parameter sets reached from the published ones one step at a time (a half-life or reserve value, or 0.05 of weight moved) that keep at least as many supports in every scenario",
    );
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
  }
  if (placement.shortfalls.length === 0) {
    lines.push("keeps fewer in some scenario: no grid point");
  } else {
    lines.push(
      `keeps fewer in some scenario: ${placement.shortfalls.length} of ${points} grid points; ${
        placement.published.length === 0 ? "the first" : "the nearest to the published ones"
      }:`,
    );
    for (const { point, steps } of placement.shortfalls.slice(0, nearest)) {
      const params = parametersAt(grid, Math.floor(point / capacityCount));
      const away = steps < 0 ? "" : ` (${steps} step${steps === 1 ? "" : "s"} away)`;
      lines.push(
        `  capacity ${grid.capacities[point % capacityCount]}, ${describeParameters(params)}${away}: ${
          describeShortfalls(shortfallsAt(result, point))
        }`,
      );
    }
  }
  return lines;
}

/**
 * `sweep.json`: the grid, the published parameters and where they sit, the protocol's artifact and dataset
 * hashes, the evaluation clock and the tool.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * import { parseGrid, runSweep, sweepRecord } from "./sweep.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", contracts.config)); // 231 weights × 2 reserves
 * const record = JSON.parse(sweepRecord(result, contracts, prepared.dataset.sha256, "deermem-eval 0.1.0"));
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
    artifacts: {
      answer_prompt_sha256: contracts.hashes.prompt,
      config_sha256: contracts.hashes.config,
      official_manifest_sha256: contracts.hashes.official,
      synthetic_manifest_sha256: contracts.hashes.synthetic,
    },
    dataset: { ...contracts.config.dataset, sha256: datasetSha256 },
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
    published: JSON.parse(parametersJson(result.publishedParams)),
    rows: result.parameterSets * grid.capacities.length * result.groups.length,
    schema_version: 1,
    tool,
  };
  // Published weights print as floats (0.1, not an int), like the rows.
  const published = record.published as Record<string, PyJson>;
  published.correction_reserved_fraction = new PyFloat(result.publishedParams.correctionReservedFraction);
  published.weights = {
    access: new PyFloat(result.publishedParams.accessWeight),
    confidence: new PyFloat(result.publishedParams.confidenceWeight),
    confirmation: new PyFloat(result.publishedParams.confirmationWeight),
  };
  return dumps(record, { indent: 2 }) + "\n";
}

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
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const dir = await Deno.makeTempDir();
 * for (const [name, body] of [["c.yaml", demo.config], ["o.json", demo.official], ["s.json", demo.synthetic]]) {
 *   await Deno.writeTextFile(`${dir}/${name}`, body);
 * }
 * await Deno.writeFile(`${dir}/data.json`, demo.dataset);
 * const contracts = { config: `${dir}/c.yaml`, officialManifest: `${dir}/o.json`, syntheticManifest: `${dir}/s.json` };
 * await Deno.writeTextFile(`${dir}/grid.yaml`, "weights_step: 0.5\ncapacities: [7]\n");
 * const request = { contracts, dataset: `${dir}/data.json`, directory: `${dir}/sweep`, grid: `${dir}/grid.yaml` };
 * const { capacities } = await sweep({ ...request, tool: "deermem-eval 0.1.0" });
 * deepStrictEqual([capacities, Deno.readDirSync(`${dir}/sweep`).toArray().length], [[5, 7, 9], 2]);
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
