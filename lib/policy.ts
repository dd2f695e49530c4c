/**
 * One case under one policy at one capacity: the production selector on the case's pool, reduced to a
 * metadata-only row (IDs, scores, support retention — never content, questions or answers).
 *
 * @module
 */

import type { ProtocolConfig } from "./config.ts";
import {
  type EvictionPolicy,
  type HybridParams,
  type ScoreComponents,
  selectFactsForCapacity,
} from "./eviction.ts";
import { buildPool, type Fact, type Pool } from "./pool.ts";
import type { PreparedCase } from "./cases.ts";
import { PyFloat, type PyJson } from "./pyjson.ts";

/** The two policies, in the order every output lists them. */
export const POLICIES: readonly EvictionPolicy[] = ["confidence", "hybrid-v1"];

/** A case evaluated under one policy at one capacity. */
export interface PolicyResult {
  prepared: PreparedCase;
  policy: EvictionPolicy;
  capacity: number;
  pool: Pool;
  keptFacts: Fact[];
  /** The `policy.raw.jsonl` row (Python-typed for byte-identical output). */
  row: Record<string, PyJson>;
  supportAllRetained: boolean;
  supportRecall: number;
}

/**
 * The `hybrid-v1` parameters a config pins.
 *
 * @example
 * ```ts ignore
 * import { hybridParams } from "./policy.ts";
 * console.log(hybridParams(config).confidenceWeight); // 0.65
 * ```
 */
export function hybridParams(config: ProtocolConfig): HybridParams {
  const hybrid = config.policies.hybrid_v1;
  return {
    confidenceWeight: hybrid.weights.confidence,
    confirmationWeight: hybrid.weights.confirmation,
    accessWeight: hybrid.weights.access,
    confirmationHalfLifeDays: hybrid.confirmation_half_life_days,
    accessHalfLifeDays: hybrid.access_half_life_days,
    correctionReservedFraction: hybrid.correction_reserved_fraction,
    correctionReservedMax: hybrid.correction_reserved_max,
  };
}

function componentsJson(components: ScoreComponents): Record<string, PyJson> {
  const out: Record<string, PyJson> = {};
  for (const [key, value] of Object.entries(components)) {
    if (value !== undefined) out[key] = new PyFloat(value);
  }
  return out;
}

/**
 * Runs the production selector for one case, policy and capacity.
 *
 * @example
 * ```ts ignore
 * import { evaluateCase } from "./policy.ts";
 * const result = evaluateCase(preparedCase, "hybrid-v1", 7, config);
 * console.log(result.supportAllRetained);
 * ```
 */
export function evaluateCase(
  prepared: PreparedCase,
  policy: EvictionPolicy,
  capacity: number,
  config: ProtocolConfig,
  pool: Pool = buildPool(prepared, config.evaluation_time),
): PolicyResult {
  const selection = selectFactsForCapacity(pool.facts, {
    maxFacts: capacity,
    policy,
    now: config.evaluation_time,
    usage: pool.usage,
    params: hybridParams(config),
  });
  const keptIds = selection.kept.map((fact) => fact.id);
  const keptSet = new Set(keptIds);
  const retained = pool.supportFactIds.filter((id) => keptSet.has(id)).length;
  const supportRecall = retained / pool.supportFactIds.length;
  const supportAllRetained = retained === pool.supportFactIds.length;
  const row: Record<string, PyJson> = {
    capacity,
    case_id: prepared.caseId,
    evicted: selection.evicted.map((fact) => ({
      category: fact.category as PyJson,
      components: componentsJson(fact.components),
      fact_id: fact.factId,
      score: new PyFloat(fact.score),
    })),
    kept_fact_ids: keptIds,
    policy,
    question_type: prepared.questionType,
    reserved_correction_slots: selection.reservedCorrectionSlots,
    scenario: prepared.scenario,
    schema_version: 1,
    scores: Object.fromEntries(
      [...selection.scores].map(([id, score]) => [id, {
        components: componentsJson(score.components),
        value: new PyFloat(score.value),
      }]),
    ),
    source: prepared.source,
    support_all_retained: supportAllRetained,
    support_fact_ids: pool.supportFactIds,
    support_recall: new PyFloat(supportRecall),
  };
  return {
    prepared,
    policy,
    capacity,
    pool,
    keptFacts: selection.kept,
    row,
    supportAllRetained,
    supportRecall,
  };
}

/**
 * Every case × capacity × policy, in that nesting order (the order of `policy.raw.jsonl`).
 *
 * @example
 * ```ts ignore
 * import { evaluateAll } from "./policy.ts";
 * const results = evaluateAll(cases, config); // 45 × 3 × 2 = 270
 * ```
 */
export function evaluateAll(cases: readonly PreparedCase[], config: ProtocolConfig): PolicyResult[] {
  const results: PolicyResult[] = [];
  for (const prepared of cases) {
    const pool = buildPool(prepared, config.evaluation_time);
    for (const capacity of config.pool.capacities) {
      for (const policy of POLICIES) results.push(evaluateCase(prepared, policy, capacity, config, pool));
    }
  }
  return results;
}
