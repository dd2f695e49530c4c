/**
 * The two published policies, `confidence` and `hybrid-v1`, as instances of the contract: the production
 * selector behind each, `hybrid-v1` with the parameters a config pins. Also the one place the selector's
 * options are assembled ({@linkcode selectionOptions}).
 *
 * @module
 */

import type { ProtocolConfig } from "../protocol/mod.ts";
import { type Instant, PyFloat, type PyJson } from "../py/mod.ts";
import type { Policy } from "./contract.ts";
import { selectFactsForCapacity } from "./selector.ts";
import {
  EVICTION_POLICY_CONFIDENCE,
  EVICTION_POLICY_HYBRID_V1,
  type EvictionPolicy,
  type HybridParams,
  type SelectionOptions,
} from "./selection_types.ts";

/** The two policies, in the order every output lists them. */
export const POLICIES: readonly [EvictionPolicy, ...EvictionPolicy[]] = [
  EVICTION_POLICY_CONFIDENCE,
  EVICTION_POLICY_HYBRID_V1,
];

/**
 * The `hybrid-v1` parameters a config pins.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { hybridParams } from "./builtins.ts";
 * const { config } = await loadContracts(embeddedSources());
 * strictEqual(hybridParams(config).confidenceWeight, 0.65);
 * strictEqual(hybridParams(config).accessHalfLifeDays, config.policies.hybrid_v1.access_half_life_days);
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

/**
 * The inverse of {@linkcode hybridParams}: parameters in the config's `policies.hybrid_v1` shape (floats as
 * Python writes them), as `sweep` records each parameter set.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { hybridParams, hybridParamsConfig } from "./builtins.ts";
 * import { dumps } from "../py/json.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const params = hybridParamsConfig({ ...hybridParams(config), confidenceWeight: 0.5 });
 * strictEqual(dumps(params.weights), '{"access": 0.1, "confidence": 0.5, "confirmation": 0.25}');
 * strictEqual(params.access_half_life_days, config.policies.hybrid_v1.access_half_life_days);
 * ```
 */
export function hybridParamsConfig(params: HybridParams): { [key: string]: PyJson } {
  return {
    access_half_life_days: params.accessHalfLifeDays,
    confirmation_half_life_days: params.confirmationHalfLifeDays,
    correction_reserved_fraction: new PyFloat(params.correctionReservedFraction),
    correction_reserved_max: params.correctionReservedMax,
    weights: {
      access: new PyFloat(params.accessWeight),
      confidence: new PyFloat(params.confidenceWeight),
      confirmation: new PyFloat(params.confirmationWeight),
    },
  };
}

/** The reference's `HybridParams` field names (flat, as the eviction vectors spell them) → ours. */
export const HYBRID_PARAM_NAMES: Readonly<Record<string, keyof HybridParams>> = {
  confidence_weight: "confidenceWeight",
  confirmation_weight: "confirmationWeight",
  access_weight: "accessWeight",
  confirmation_half_life_days: "confirmationHalfLifeDays",
  access_half_life_days: "accessHalfLifeDays",
  correction_reserved_fraction: "correctionReservedFraction",
  correction_reserved_max: "correctionReservedMax",
};

/** What {@linkcode selectionOptions} takes of a case at one capacity (a `PolicyInput` is one). */
export interface SelectionInput {
  /** How many facts may be kept. */
  readonly capacity: number;
  /** The evaluation clock. */
  readonly clock: string | Instant;
  /** The usage sidecar: fact id → usage entry. */
  readonly usage?: Readonly<Record<string, unknown>>;
}

/**
 * The selector's options for one policy at one capacity — the one place they are assembled. A config's
 * `hybrid-v1` parameters are {@linkcode hybridParams}; its clock and capacity, `policyInput`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { DEFAULT_HYBRID_PARAMS } from "./selection_types.ts";
 * import { selectionOptions } from "./builtins.ts";
 * const options = selectionOptions("hybrid-v1", { capacity: 7, clock: "2026-08-13T00:00:00Z" }, DEFAULT_HYBRID_PARAMS);
 * deepStrictEqual([options.maxFacts, options.now, options.params], [7, "2026-08-13T00:00:00Z", DEFAULT_HYBRID_PARAMS]);
 * ```
 */
export function selectionOptions(
  policy: EvictionPolicy,
  input: SelectionInput,
  params?: Partial<HybridParams>,
): SelectionOptions {
  return { maxFacts: input.capacity, policy, now: input.clock, usage: input.usage, params };
}

/** A built-in policy: the production selector under one of its two names. */
function selectorPolicy(policy: EvictionPolicy, params?: HybridParams): Policy {
  return {
    name: policy,
    select: (input) => {
      const selection = selectFactsForCapacity(input.facts, selectionOptions(policy, input, params));
      const scores: Record<string, number> = {};
      const components: Record<string, Record<string, number>> = {};
      for (const [id, score] of selection.scores) {
        scores[id] = score.value;
        const named: Record<string, number> = {};
        for (const [key, value] of Object.entries(score.components)) {
          if (value !== undefined) named[key] = value;
        }
        components[id] = named;
      }
      return {
        kept: selection.kept.map((fact) => fact.id),
        evicted: selection.evicted.map((fact) => fact.factId),
        scores,
        components,
        reservedCorrectionSlots: selection.reservedCorrectionSlots,
      };
    },
  };
}

/**
 * The historical `confidence` policy as an instance of the contract.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { CONFIDENCE_POLICY } from "./builtins.ts";
 * const fact = { content: "", category: "context", createdAt: "2026-08-01T00:00:00Z", source: "chat" };
 * const facts = [{ ...fact, id: "a", confidence: 0.2 }, { ...fact, id: "b", confidence: 0.9 }];
 * const decision = CONFIDENCE_POLICY.select({ facts, usage: {}, capacity: 1, clock: "2026-08-13T00:00:00Z" });
 * deepStrictEqual([decision.kept, decision.evicted], [["b"], ["a"]]);
 * ```
 */
export const CONFIDENCE_POLICY: Policy = selectorPolicy(EVICTION_POLICY_CONFIDENCE);

/**
 * `hybrid-v1` with the given parameters as an instance of the contract.
 *
 * @param params The `hybrid-v1` weights, half-lives and correction slots.
 * @returns The policy, named `hybrid-v1`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { DEFAULT_HYBRID_PARAMS } from "./selection_types.ts";
 * import { hybridPolicy } from "./builtins.ts";
 * strictEqual(hybridPolicy(DEFAULT_HYBRID_PARAMS).name, "hybrid-v1");
 * ```
 */
export function hybridPolicy(params: HybridParams): Policy {
  return selectorPolicy(EVICTION_POLICY_HYBRID_V1, params);
}

/**
 * A published policy under a config: `confidence`, or `hybrid-v1` with the config's parameters.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { builtinPolicy, CONFIDENCE_POLICY } from "./builtins.ts";
 * const { config } = await loadContracts(embeddedSources());
 * strictEqual(builtinPolicy("confidence", config), CONFIDENCE_POLICY);
 * strictEqual(builtinPolicy("hybrid-v1", config).name, "hybrid-v1");
 * ```
 */
export function builtinPolicy(policy: EvictionPolicy, config: ProtocolConfig): Policy {
  return policy === EVICTION_POLICY_CONFIDENCE ? CONFIDENCE_POLICY : hybridPolicy(hybridParams(config));
}

/**
 * The published policies under a config, in the order every output lists them: `confidence`, `hybrid-v1`.
 *
 * @param config The protocol config; `hybrid-v1` takes its parameters from `policies.hybrid_v1`.
 * @returns The two policies.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { builtinPolicies } from "./builtins.ts";
 * const { config } = await loadContracts(embeddedSources());
 * deepStrictEqual(builtinPolicies(config).map((policy) => policy.name), ["confidence", "hybrid-v1"]);
 * ```
 */
export function builtinPolicies(config: ProtocolConfig): Policy[] {
  return POLICIES.map((policy) => builtinPolicy(policy, config));
}
