/**
 * One case under one published policy at one capacity: the production selector on the case's pool, reduced to a
 * metadata-only row (IDs, scores, support retention — never content, questions or answers). The policies are
 * the two built-in instances of the policy contract (`policies.ts`).
 *
 * @module
 */

import type { ProtocolConfig } from "./config.ts";
import type { EvictionPolicy } from "./eviction.ts";
import { buildPool, type Pool } from "./pool.ts";
import type { PreparedCase } from "./cases.ts";
import {
  CONFIDENCE_POLICY,
  evaluateTrusted,
  hybridParams,
  hybridPolicy,
  type PolicyResult,
} from "./policies.ts";

export { hybridParams, type PolicyResult } from "./policies.ts";

/** The two policies, in the order every output lists them. */
export const POLICIES: readonly EvictionPolicy[] = ["confidence", "hybrid-v1"];

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
  const instance = policy === "confidence" ? CONFIDENCE_POLICY : hybridPolicy(hybridParams(config));
  return evaluateTrusted(instance, prepared, capacity, config, pool);
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
  const policies = [CONFIDENCE_POLICY, hybridPolicy(hybridParams(config))];
  const results: PolicyResult[] = [];
  for (const prepared of cases) {
    const pool = buildPool(prepared, config.evaluation_time);
    for (const capacity of config.pool.capacities) {
      for (const policy of policies) results.push(evaluateTrusted(policy, prepared, capacity, config, pool));
    }
  }
  return results;
}
