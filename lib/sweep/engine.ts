/**
 * Evaluating a grid: how many cases' support each policy keeps at every grid point and (source, scenario)
 * group. Every kept set comes from the production selector, and no decision is asked of it twice.
 *
 * @module
 */

import { buildPool, type Pool, type PreparedCase, type ProtocolConfig } from "../protocol/mod.ts";
import { isoformatZulu } from "../py/mod.ts";
import {
  CONFIDENCE_POLICY,
  evaluateTrusted,
  EVICTION_POLICY_HYBRID_V1,
  type HybridParams,
  hybridParams,
  selectFactsForCapacity,
  selectionOptions,
} from "../policy/mod.ts";
import type { SweepGrid, WeightPoint } from "./grid.ts";
import { parameterSetOf } from "./parameters.ts";

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

/** What {@linkcode runSweep} reads of a prepared protocol. */
export interface SweepProtocol {
  contracts: { config: ProtocolConfig };
  cases: readonly PreparedCase[];
}

/** The grid's axes as the evaluation walks them, shared by every case. */
interface Plan {
  config: ProtocolConfig;
  clock: string;
  grid: SweepGrid;
  groupCount: number;
  /** (confirmation, access) half-life pairs, confirmation outermost. */
  halfLives: (readonly [number, number])[];
  /** (fraction, cap) reserve pairs, fraction outermost. */
  reserves: (readonly [number, number])[];
  /** Reserved correction slots per (reserve, capacity), as the selector computes them. */
  reservedSlots: number[][];
  /** Spacing of rank orders in a decision's number: more than every (capacity, reserved slots) pair. */
  stride: number;
}

/**
 * Evaluates the grid. The selector's choice depends on the parameters only through the facts' rank order (by
 * score, then position) and the number of reserved correction slots, `min(cap, ceil(capacity × fraction))`. So
 * per case and half-life pair the selector scores the pool once (the components do not depend on the weights);
 * per weight triple the score and rank order are computed as the selector computes them; and each distinct
 * (rank order, capacity, reserved slots) is selected once, with the parameters of the first grid point that
 * reaches it. A test checks the counts against one selector call per grid point and case. Pools must have
 * distinct fact ids (as built). `onCase` hears of each case done (a progress line).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid } from "./grid.ts";
 * import { runSweep } from "./engine.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", prepared.contracts.config));
 * strictEqual(result.parameterSets, 231 * 2); // 231 weights × 2 reserve fractions
 * strictEqual(result.hybrid.length, result.parameterSets * 3 * result.groups.length); // per set, capacity, scenario
 * strictEqual(result.published >= 0, true); // the published parameters are on this grid
 * ```
 */
export function runSweep(
  protocol: SweepProtocol,
  grid: SweepGrid,
  onCase?: (done: number, total: number) => void,
): SweepResult {
  const { config } = protocol.contracts;
  const { groups, caseGroup } = groupCases(protocol.cases);
  const plan = planOf(config, grid, groups.length);
  const capacityCount = grid.capacities.length;
  const parameterSets = grid.weights.length * plan.halfLives.length * plan.reserves.length;
  const hybrid = new Uint16Array(parameterSets * capacityCount * groups.length);
  const confidence = new Uint16Array(capacityCount * groups.length);
  protocol.cases.forEach((prepared, caseIndex) => {
    const group = caseGroup[caseIndex];
    const pool = buildPool(prepared, config.evaluation_time);
    grid.capacities.forEach((capacity, capacityIndex) => {
      const result = evaluateTrusted(CONFIDENCE_POLICY, prepared, capacity, config, pool);
      if (result.supportAllRetained) confidence[capacityIndex * groups.length + group]++;
    });
    countHybrid(plan, pool, group, hybrid);
    onCase?.(caseIndex + 1, protocol.cases.length);
  });
  const publishedParams = hybridParams(config);
  return withPublishedSet({ grid, groups, parameterSets, hybrid, confidence, publishedParams });
}

/** A sweep's counts with the published parameters' set index on its grid (-1 when off it): run or read back. */
export function withPublishedSet(counts: Omit<SweepResult, "published">): SweepResult {
  const { grid, groups, parameterSets, hybrid, confidence, publishedParams } = counts;
  const published = parameterSetOf(grid, publishedParams);
  return { grid, groups, parameterSets, hybrid, confidence, published, publishedParams };
}

/** The (source, scenario) groups in order of first appearance, and each case's group. */
function groupCases(cases: readonly PreparedCase[]): { groups: SweepGroup[]; caseGroup: number[] } {
  const groups: SweepGroup[] = [];
  const groupOf = new Map<string, number>();
  const caseGroup = cases.map((prepared) => {
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
  return { groups, caseGroup };
}

function planOf(config: ProtocolConfig, grid: SweepGrid, groupCount: number): Plan {
  const reserves = grid.correctionReservedFraction.flatMap((fraction) =>
    grid.correctionReservedMax.map((max) => [fraction, max] as const)
  );
  return {
    config,
    clock: isoformatZulu(config.evaluation_time),
    grid,
    groupCount,
    halfLives: grid.confirmationHalfLifeDays.flatMap((confirmation) =>
      grid.accessHalfLifeDays.map((access) => [confirmation, access] as const)
    ),
    reserves,
    reservedSlots: reserves.map(([fraction, max]) =>
      grid.capacities.map((capacity) => Math.min(max, Math.ceil(capacity * fraction)))
    ),
    stride: (config.pool.size + 2) * (Math.max(...grid.capacities) + 2),
  };
}

/** One case's `hybrid-v1` counts at every grid point, into `hybrid`. */
function countHybrid(plan: Plan, pool: Pool, group: number, hybrid: Uint16Array): void {
  const { grid, halfLives, reserves, config } = plan;
  const capacityCount = grid.capacities.length;
  const ranks = new RankOrders(pool);
  const retainedByDecision = new Map<number, boolean>();
  const support = [...new Set(pool.supportFactIds)];
  halfLives.forEach(([confirmationHalfLife, accessHalfLife], halfLifeIndex) => {
    const base: HybridParams = {
      ...publishedWeights(config),
      confirmationHalfLifeDays: confirmationHalfLife,
      accessHalfLifeDays: accessHalfLife,
      correctionReservedFraction: 0,
      correctionReservedMax: 0,
    };
    ranks.score(select(pool, 0, plan.clock, base).scores);
    grid.weights.forEach((weights, weightIndex) => {
      const order = ranks.orderOf(weights);
      reserves.forEach(([fraction, max], reserveIndex) => {
        const set = (weightIndex * halfLives.length + halfLifeIndex) * reserves.length + reserveIndex;
        grid.capacities.forEach((capacity, capacityIndex) => {
          const reserved = plan.reservedSlots[reserveIndex][capacityIndex];
          const decision = order * plan.stride + capacity * (config.pool.size + 2) + reserved;
          let retained = retainedByDecision.get(decision);
          if (retained === undefined) {
            const params = { ...base, ...weightParams(weights) };
            const kept = select(pool, capacity, plan.clock, {
              ...params,
              correctionReservedFraction: fraction,
              correctionReservedMax: max,
            }).kept;
            const keptIds = new Set(kept.map((fact) => fact.id));
            retained = support.every((id) => keptIds.has(id));
            retainedByDecision.set(decision, retained);
          }
          if (retained) hybrid[(set * capacityCount + capacityIndex) * plan.groupCount + group]++;
        });
      });
    });
  });
}

/**
 * One case's pool, scored per half-life pair: the rank order of each weight triple, numbered in order of first
 * appearance, so equal orders (the selector then decides alike) share a number.
 */
class RankOrders {
  readonly #pool: Pool;
  readonly #confidences: Float64Array;
  readonly #freshnesses: Float64Array;
  readonly #heats: Float64Array;
  readonly #scores: Float64Array;
  readonly #ranking: number[];
  readonly #orders = new Map<string, number>();

  constructor(pool: Pool) {
    const count = pool.facts.length;
    this.#pool = pool;
    this.#confidences = new Float64Array(count);
    this.#freshnesses = new Float64Array(count);
    this.#heats = new Float64Array(count);
    this.#scores = new Float64Array(count);
    this.#ranking = Array.from({ length: count }, (_, index) => index);
  }

  /** Takes the selector's score components at a half-life pair (they do not depend on the weights). */
  score(scored: ReturnType<typeof select>["scores"]): void {
    this.#pool.facts.forEach((fact, index) => {
      const components = scored.get(fact.id)!.components;
      this.#confidences[index] = components.confidence;
      this.#freshnesses[index] = components.confirmationFreshness!;
      this.#heats[index] = components.accessHeat!;
    });
  }

  /** The number of the rank order under these weights. */
  orderOf(weights: WeightPoint): number {
    const scores = this.#scores;
    // The selector's score and rank order, operation for operation (checked against it in the tests).
    for (let index = 0; index < scores.length; index++) {
      scores[index] = weights.confidence * this.#confidences[index] +
        weights.confirmation * this.#freshnesses[index] +
        weights.access * this.#heats[index];
    }
    this.#ranking.sort((a, b) => scores[b] - scores[a] || a - b);
    const key = this.#ranking.join(",");
    let order = this.#orders.get(key);
    if (order === undefined) {
      order = this.#orders.size;
      this.#orders.set(key, order);
    }
    return order;
  }
}

function weightParams(weights: WeightPoint) {
  return {
    confidenceWeight: weights.confidence,
    confirmationWeight: weights.confirmation,
    accessWeight: weights.access,
  };
}

function publishedWeights(config: ProtocolConfig) {
  const { confidenceWeight, confirmationWeight, accessWeight } = hybridParams(config);
  return { confidenceWeight, confirmationWeight, accessWeight };
}

function select(pool: Pool, capacity: number, clock: string, params: HybridParams) {
  return selectFactsForCapacity(
    pool.facts,
    selectionOptions(EVICTION_POLICY_HYBRID_V1, { capacity, clock, usage: pool.usage }, params),
  );
}
