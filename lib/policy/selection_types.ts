/**
 * The selector's vocabulary: the two policy names, the `hybrid-v1` parameters and their production defaults,
 * and the options and result of the selector (`selectFactsForCapacity`).
 *
 * @module
 */

import type { Instant } from "../py/mod.ts";
import { EVICTION_POLICY_VERSION } from "../protocol/mod.ts";

/**
 * The historical policy: rank by confidence alone.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { EVICTION_POLICY_CONFIDENCE } from "./selection_types.ts";
 * import { selectFactsForCapacity } from "./selector.ts";
 * const facts = [{ id: "low", confidence: 0.2 }, { id: "high", confidence: 0.9 }];
 * const result = selectFactsForCapacity(facts, { maxFacts: 1, policy: EVICTION_POLICY_CONFIDENCE, now: "2026-08-13T00:00:00Z" });
 * strictEqual(result.kept[0].id, "high");
 * ```
 */
export const EVICTION_POLICY_CONFIDENCE = "confidence";
/**
 * The opt-in hybrid policy of PR #4789.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { EVICTION_POLICY_HYBRID_V1 } from "./selection_types.ts";
 * strictEqual(EVICTION_POLICY_HYBRID_V1, "hybrid-v1");
 * ```
 */
export const EVICTION_POLICY_HYBRID_V1: typeof EVICTION_POLICY_VERSION = EVICTION_POLICY_VERSION;
export { EVICTION_POLICY_VERSION };

/** The two eviction policies. */
export type EvictionPolicy = typeof EVICTION_POLICY_CONFIDENCE | typeof EVICTION_POLICY_HYBRID_V1;

/** The tunable parameters of `hybrid-v1` (the Python keyword arguments). */
export interface HybridParams {
  /** The weight of the stored confidence (production: 0.65). */
  confidenceWeight: number;
  /** The weight of confirmation freshness (0.25). */
  confirmationWeight: number;
  /** The weight of access heat (0.10). */
  accessWeight: number;
  /** Days for a confirmation's freshness to halve (90). */
  confirmationHalfLifeDays: number;
  /** Days for access heat to halve (30). */
  accessHalfLifeDays: number;
  /** The fraction of capacity reserved for corrections (0.10). */
  correctionReservedFraction: number;
  /** The most slots reserved for corrections (10). */
  correctionReservedMax: number;
}

/**
 * The production defaults: 0.65/0.25/0.10, half-lives 90 and 30 days, 10% correction slots up to 10.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { DEFAULT_HYBRID_PARAMS } from "./selection_types.ts";
 * strictEqual(DEFAULT_HYBRID_PARAMS.confidenceWeight, 0.65);
 * strictEqual(DEFAULT_HYBRID_PARAMS.confirmationHalfLifeDays, 90);
 * strictEqual(Object.isFrozen(DEFAULT_HYBRID_PARAMS), true);
 * ```
 */
export const DEFAULT_HYBRID_PARAMS: Readonly<HybridParams> = Object.freeze({
  confidenceWeight: 0.65,
  confirmationWeight: 0.25,
  accessWeight: 0.10,
  confirmationHalfLifeDays: 90,
  accessHalfLifeDays: 30,
  correctionReservedFraction: 0.10,
  correctionReservedMax: 10,
});

/** Score components: `confidence` alone, or all three `hybrid-v1` signals. */
export interface ScoreComponents {
  /** The fact's confidence, clamped to [0, 1]. */
  confidence: number;
  /** Confirmation freshness in [0, 1] (`hybrid-v1` only). */
  confirmationFreshness?: number;
  /** Decayed access heat in [0, 1] (`hybrid-v1` only). */
  accessHeat?: number;
}

/** A fact's score and its components. */
export interface FactScore {
  /** The score facts are ranked by (higher is kept first). */
  value: number;
  /** The signals the score was computed from. */
  components: ScoreComponents;
}

/** One evicted fact, metadata only (as the audit sidecar records it). */
export interface EvictedFact {
  /** The fact's ID (`__missing_{index}` when it has none). */
  factId: string;
  /** The fact's category, or `"context"` when it is missing or empty. */
  category: unknown;
  /** The fact's score. */
  score: number;
  /** The signals the score was computed from. */
  components: ScoreComponents;
}

/** What `selectFactsForCapacity` returns. */
export interface SelectionResult<F> {
  /** Kept facts: in input order when everything fits, else in ranked order. */
  kept: F[];
  /** Input positions of the kept facts, in the same order. */
  keptIndex: number[];
  /** Evicted facts, lowest-ranked first. */
  evicted: EvictedFact[];
  /** Score per fact id (`__missing_{index}` for facts without an id; duplicates share the last score). */
  scores: Map<string, FactScore>;
  /** Correction slots actually taken by reserved corrections. */
  reservedCorrectionSlots: number;
}

/** Options of `selectFactsForCapacity`. */
export interface SelectionOptions {
  /** How many facts to keep (at most). */
  maxFacts: number;
  /** Which policy ranks the facts. */
  policy: EvictionPolicy;
  /** The evaluation clock (an ISO timestamp, parsed like the facts' timestamps, or an instant). */
  now: string | Instant;
  /** The usage sidecar: fact id → `{accessHeat, lastAccessedAt}`. */
  usage?: Readonly<Record<string, unknown>>;
  /** `hybrid-v1` parameters; defaults from {@linkcode DEFAULT_HYBRID_PARAMS}. */
  params?: Partial<HybridParams>;
}
