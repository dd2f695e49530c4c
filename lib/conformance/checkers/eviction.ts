/** `eviction.jsonl` and `eviction-exotic.jsonl`: the production selector's kept, evicted and scored facts. */

import { VectorFormatError } from "../errors.ts";
import {
  HYBRID_PARAM_NAMES,
  type HybridParams,
  type ScoreComponents,
  selectFactsForCapacity,
  selectionOptions,
  type SelectionResult,
} from "../../policy/mod.ts";
import { differences, type Tier, type VectorChecker } from "../compare.ts";
import { doubleToHex } from "../float_bits.ts";
import { requireField, requireHexDouble } from "../_record.ts";

/**
 * The eviction checker for a tier: runs the line's facts through the selector and compares every decision,
 * doubles as bit patterns.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkEviction } from "./eviction.ts";
 * const input = { facts: [{ id: "a", confidence: 0.9 }, { id: "b", confidence: 0.2 }], max_facts: 1, policy: "confidence", now: "2026-01-01T00:00:00Z" };
 * const { mismatches } = checkEviction("core")({ input, expected: {} });
 * deepStrictEqual(mismatches.find((mismatch) => mismatch.field === "kept_ids")?.actual, ["a"]);
 * ```
 */
export function checkEviction(tier: Tier): VectorChecker {
  return (record) => {
    const input = requireField(record, "input") as Record<string, unknown>;
    const expected = requireField(record, "expected");
    if (input === null || typeof input !== "object") {
      throw new VectorFormatError("must be an object", { field: "input" });
    }
    for (const field of ["facts", "max_facts", "policy", "now"]) requireField(input, field);
    const facts = input.facts as Record<string, unknown>[];
    const result = selectFactsForCapacity(
      facts,
      selectionOptions(input.policy as "confidence", {
        capacity: input.max_facts as number,
        clock: input.now as string,
        usage: (input.usage ?? {}) as Record<string, unknown>,
      }, paramsOf(input.params)),
    );
    return {
      mismatches: differences(expected, decisions(result, input.policy)),
      tier,
      input: `${input.policy} capacity ${input.max_facts}, ${facts.length} facts`,
    };
  };
}

/** The line's `hybrid-v1` parameters, named as the reference names them; a double may be given as hex. */
function paramsOf(given: unknown): Partial<HybridParams> {
  const params: Partial<HybridParams> = {};
  for (const [key, value] of Object.entries((given ?? {}) as Record<string, unknown>)) {
    const name = HYBRID_PARAM_NAMES[key];
    if (name === undefined) {
      throw new VectorFormatError(`unknown parameter`, { field: `input.params.${key}` });
    }
    params[name] = typeof value === "string" ? requireHexDouble(value, `input.params.${key}`) : Number(value);
  }
  return params;
}

/** The selection as the vectors record it: ids, indices and slots, every double as its bit pattern. */
function decisions(
  result: SelectionResult<Record<string, unknown>>,
  policy: unknown,
): Record<string, unknown> {
  return {
    evicted: result.evicted.map((fact) => ({
      category: fact.category,
      components: componentsHex(fact.components),
      fact_id: fact.factId,
      score: doubleToHex(fact.score),
    })),
    kept_ids: result.kept.map((fact) => fact.id ?? null),
    kept_index: result.keptIndex,
    policy,
    reserved_correction_slots: result.reservedCorrectionSlots,
    scores: Object.fromEntries(
      [...result.scores].map(([id, score]) => [id, {
        components: componentsHex(score.components),
        value: doubleToHex(score.value),
      }]),
    ),
  };
}

function componentsHex(components: ScoreComponents): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(components)) {
    if (value !== undefined) out[key] = doubleToHex(value);
  }
  return out;
}
