/**
 * A faithful port of DeerMem's `select_facts_for_capacity` (`deermem/core/eviction.py`): the historical
 * `confidence` ranking and the opt-in `hybrid-v1` score with correction slots. Pure; knows nothing of the
 * evaluation protocol. Dirty inputs are scored exactly as the Python does (see lenient.ts).
 *
 * Follows DeerMem's `deermem/core/eviction.py` as of PR #4789 (policy version `hybrid-v1`), run under CPython
 * 3.11.7 with Debian glibc 2.36's `log1p` (libm.ts); the golden vectors (`eviction*.jsonl`) hold its outputs.
 *
 * @module
 */

import { fnv1a } from "../base/mod.ts";
import { type Instant, log1p } from "../py/mod.ts";
import { RADIX_THRESHOLD, rankOrder } from "./_radix.ts";
import { ageDaysOf, decay, epochMicros } from "./_age.ts";
import { lastIndexById } from "./_duplicates.ts";
import {
  asRecord,
  factId,
  heatValue,
  isCorrection,
  isFalsy,
  isPlainRecord,
  type Record_,
} from "./_fact_fields.ts";
import { boundedNumber, parseTimestamp } from "./lenient.ts";
import {
  DEFAULT_HYBRID_PARAMS,
  EVICTION_POLICY_CONFIDENCE,
  EVICTION_POLICY_HYBRID_V1,
} from "./selection_types.ts";
import type * as Selection from "./selection_types.ts";

/**
 * Scores every fact and selects at most `maxFacts` of them, exactly as DeerMem's
 * `select_facts_for_capacity` does. When the snapshot fits, everything is kept in input order. Otherwise
 * facts rank by (−score, input position); `hybrid-v1` first reserves `min(max, ceil(maxFacts × fraction))`
 * slots for the best-scoring corrections and releases unused slots.
 *
 * @typeParam F The caller's fact type; facts are returned as given.
 * @param facts The memory snapshot, in storage order.
 * @param options The capacity, the policy, the clock, the usage sidecar and the `hybrid-v1` parameters.
 * @returns The kept facts, their input positions, the evicted facts' metadata and every fact's score.
 * @throws {RangeError} When `maxFacts` is not a whole number ≥ 0, the policy is unknown or `now` is unparseable.
 * @throws {TypeError} When a fact is not an object.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { selectFactsForCapacity } from "./selector.ts";
 * const facts = [
 *   { id: "old", confidence: 0.9, createdAt: "2026-02-14T00:00:00Z", category: "context" },
 *   { id: "confirmed", confidence: 0.7, createdAt: "2026-02-14T00:00:00Z", lastConfirmedAt: "2026-08-06T00:00:00Z" },
 * ];
 * const hybrid = selectFactsForCapacity(facts, { maxFacts: 1, policy: "hybrid-v1", now: "2026-08-13T00:00:00Z" });
 * deepStrictEqual([hybrid.kept.map((fact) => fact.id), hybrid.evicted.map((fact) => fact.factId)], [["confirmed"], ["old"]]);
 * const baseline = selectFactsForCapacity(facts, { maxFacts: 1, policy: "confidence", now: "2026-08-13T00:00:00Z" });
 * deepStrictEqual(baseline.kept.map((fact) => fact.id), ["old"]);
 * ```
 */
export function selectFactsForCapacity<F>(
  facts: readonly F[],
  options: Selection.SelectionOptions,
): Selection.SelectionResult<F> {
  const { maxFacts, policy } = options;
  if (!Number.isInteger(maxFacts) || maxFacts < 0) {
    throw new RangeError(`maxFacts must be a whole number ≥ 0`);
  }
  if (policy !== EVICTION_POLICY_CONFIDENCE && policy !== EVICTION_POLICY_HYBRID_V1) {
    throw new RangeError(`unknown eviction policy: ${String(policy)}`);
  }
  const params = { ...DEFAULT_HYBRID_PARAMS, ...options.params };
  const now = typeof options.now === "string" ? parseTimestamp(options.now) : options.now;
  if (now === undefined) throw new RangeError(`now is not an ISO timestamp: ${String(options.now)}`);
  const hybrid = policy === EVICTION_POLICY_HYBRID_V1;

  const count = facts.length;
  // Hashes of the ids, for finding duplicates, only where that sorts them (see lastIndexById).
  const hashes = count > maxFacts && count >= RADIX_THRESHOLD ? new Uint32Array(count) : undefined;
  const scores = scoreFacts(facts, hybrid, options.usage ?? {}, now, params, hashes);
  // Duplicate ids share the score computed last for that id, as the reference looks scores up by id.
  const scoreIndex = count > maxFacts ? lastIndexById(scores.ids, hashes) : undefined;
  const lazyScores = lazyScoreMap(scores);

  if (count <= maxFacts) {
    const keptIndex: number[] = new Array(count);
    for (let index = 0; index < count; index++) keptIndex[index] = index;
    return withLazyScores(
      { kept: facts.slice(), keptIndex, evicted: [], reservedCorrectionSlots: 0 },
      lazyScores,
    );
  }

  const order = rankOrder(rankScores(scores.values, scoreIndex));
  const { keep, keptCount, reservedCorrectionSlots } = chooseKept(
    facts,
    order,
    maxFacts,
    hybrid ? params : null,
  );
  // The id hashes are spent by now; their array, where there is one, holds the slots (fresh memory is dear).
  const slot = hashes ?? new Uint32Array(count);
  const { kept, keptIndex, evicted } = placeOutputs(facts, order, keep, keptCount, slot, scores, scoreIndex);
  return withLazyScores({ kept, keptIndex, evicted, reservedCorrectionSlots }, lazyScores);
}

/**
 * Per position: the id, the score and its components. Scores and components live in typed arrays; under
 * `confidence` the component arrays are the score array itself.
 */
interface Scores {
  hybrid: boolean;
  ids: string[];
  hashes: Uint32Array<ArrayBuffer> | undefined;
  values: Float64Array;
  confidences: Float64Array;
  freshnesses: Float64Array;
  heats: Float64Array;
}

/** Every fact's id and score under the policy (and the ids' hashes, when `hashes` is given). */
function scoreFacts(
  facts: readonly unknown[],
  hybrid: boolean,
  usage: Readonly<Record<string, unknown>>,
  now: Instant,
  params: Selection.HybridParams,
  hashes: Uint32Array<ArrayBuffer> | undefined,
): Scores {
  const count = facts.length;
  const values = new Float64Array(count);
  const scores: Scores = {
    hybrid,
    ids: new Array(count),
    hashes,
    values,
    confidences: hybrid ? new Float64Array(count) : values,
    freshnesses: hybrid ? new Float64Array(count) : values,
    heats: hybrid ? new Float64Array(count) : values,
  };
  if (hybrid) {
    scoreHybrid(facts, usage, now, params, scores);
  } else {
    for (let index = 0; index < count; index++) {
      const fact = asRecord(facts[index], index);
      const id = factId(fact, index);
      scores.ids[index] = id;
      if (hashes !== undefined) hashes[index] = fnv1a(id);
      values[index] = boundedNumber(fact.confidence);
    }
  }
  return scores;
}

/** The components of the score at a position. */
function componentsAt(scores: Scores, index: number): Selection.ScoreComponents {
  if (!scores.hybrid) return { confidence: scores.values[index] };
  return {
    confidence: scores.confidences[index],
    confirmationFreshness: scores.freshnesses[index],
    accessHeat: scores.heats[index],
  };
}

/** The per-id score map of the result, built on first call only (a caller may never read it). */
function lazyScoreMap(scores: Scores): () => Map<string, Selection.FactScore> {
  let scoreMap: Map<string, Selection.FactScore> | undefined;
  return () => {
    if (scoreMap === undefined) {
      scoreMap = new Map();
      for (let index = 0; index < scores.ids.length; index++) {
        scoreMap.set(scores.ids[index], {
          value: scores.values[index],
          components: componentsAt(scores, index),
        });
      }
    }
    return scoreMap;
  };
}

/** The score each position ranks by: its own, or that of the last fact sharing its id. */
function rankScores(values: Float64Array, scoreIndex: Int32Array | undefined): Float64Array {
  if (scoreIndex === undefined) return values;
  const rankScore = new Float64Array(values.length);
  for (let index = 0; index < values.length; index++) rankScore[index] = values[scoreIndex[index]];
  return rankScore;
}

/**
 * Which positions are kept: under `hybrid-v1` (its parameters given) the best-ranked corrections take the
 * reserved slots first; the rest go down the ranking.
 */
function chooseKept(
  facts: readonly unknown[],
  order: Uint32Array,
  maxFacts: number,
  hybrid: Selection.HybridParams | null,
): { keep: Uint8Array; keptCount: number; reservedCorrectionSlots: number } {
  const count = facts.length;
  const keep = new Uint8Array(count);
  let reservedCorrectionSlots = 0;
  let remaining = maxFacts;
  if (hybrid !== null && maxFacts > 0) {
    const reserved = Math.min(
      hybrid.correctionReservedMax,
      Math.ceil(maxFacts * hybrid.correctionReservedFraction),
    );
    for (let rank = 0; rank < count && reservedCorrectionSlots < reserved; rank++) {
      const index = order[rank];
      if (isCorrection((facts[index] as Record_).category)) {
        keep[index] = 1;
        reservedCorrectionSlots++;
      }
    }
    remaining -= reservedCorrectionSlots;
  }
  for (let rank = 0; rank < count && remaining > 0; rank++) {
    const index = order[rank];
    if (keep[index] === 0) {
      keep[index] = 1;
      remaining--;
    }
  }
  return { keep, keptCount: maxFacts - remaining, reservedCorrectionSlots };
}

/**
 * The kept facts in ranked order and the evicted ones lowest-ranked first. Each position's slot in the output
 * is found first, so that filling the outputs reads the facts sequentially rather than in ranked order.
 */
function placeOutputs<F>(
  facts: readonly F[],
  order: Uint32Array,
  keep: Uint8Array,
  keptCount: number,
  slot: Uint32Array,
  scores: Scores,
  scoreIndex: Int32Array | undefined,
): { kept: F[]; keptIndex: number[]; evicted: Selection.EvictedFact[] } {
  const count = facts.length;
  for (let rank = 0, at = 0, back = count; rank < count; rank++) {
    const index = order[rank];
    slot[index] = keep[index] === 1 ? at++ : --back;
  }
  const kept: F[] = new Array(keptCount);
  const keptIndex: number[] = new Array(keptCount);
  const evicted: Selection.EvictedFact[] = new Array(count - keptCount);
  for (let index = 0; index < count; index++) {
    const at = slot[index];
    if (at < keptCount) {
      kept[at] = facts[index];
      keptIndex[at] = index;
      continue;
    }
    const category = (facts[index] as Record_).category;
    const scored = scoreIndex === undefined ? index : scoreIndex[index];
    evicted[at - keptCount] = {
      factId: scores.ids[index],
      category: isFalsy(category) ? "context" : category,
      score: scores.values[scored],
      components: componentsAt(scores, scored),
    };
  }
  return { kept, keptIndex, evicted };
}

/** Scores every fact under `hybrid-v1` into `out`; throws on a fact that is not an object. */
function scoreHybrid(
  facts: readonly unknown[],
  usage: Readonly<Record<string, unknown>>,
  now: Instant,
  params: Selection.HybridParams,
  out: Scores,
): void {
  // First the ids and their sidecar entries, alone in a tight loop: the lookups in a large dictionary miss the
  // cache, and a short loop body lets the processor overlap many of them.
  const entries: (Record_ | undefined)[] = new Array(facts.length);
  lookUpUsage(facts, usage, entries, out.ids, out.hashes);
  scoreComponents(facts, now, params, entries, out);
}

/** Each fact's id (and its hash, when asked for) and its usage entry, if it has one. */
function lookUpUsage(
  facts: readonly unknown[],
  usage: Readonly<Record<string, unknown>>,
  entries: (Record_ | undefined)[],
  ids: string[],
  hashes: Uint32Array | undefined,
): void {
  const plainUsage = isPlainRecord(usage);
  const count = facts.length;
  for (let index = 0; index < count; index++) {
    const id = factId(asRecord(facts[index], index), index);
    ids[index] = id;
    if (hashes !== undefined) hashes[index] = fnv1a(id);
    const entry = usage[id];
    // An inherited value only passes the object test for `__proto__` on a plain sidecar; skip a second lookup.
    entries[index] =
      entry !== undefined && entry !== null && typeof entry === "object" && !Array.isArray(entry) &&
        ((plainUsage && id !== "__proto__") || Object.hasOwn(usage, id))
        ? entry as Record_
        : undefined;
  }
}

const LOG_9 = Math.log(9);

/**
 * The score and components of every fact, its usage entry looked up already. A function of its own, so that
 * the optimizing compiler's inlining budget covers every helper here: a call left out of line returns a boxed
 * double, and a million of those fill the young generation.
 */
function scoreComponents(
  facts: readonly unknown[],
  now: Instant,
  params: Selection.HybridParams,
  entries: (Record_ | undefined)[],
  out: Scores,
): void {
  const { values, confidences, freshnesses, heats } = out;
  const { confidenceWeight, confirmationWeight, accessWeight } = params;
  const { confirmationHalfLifeDays, accessHalfLifeDays } = params;
  const nowMicros = epochMicros(now);
  const count = facts.length;
  for (let index = 0; index < count; index++) {
    const fact = facts[index] as Record_;
    // A double held across a call that is not inlined (the timestamp parser, log1p) is boxed on the heap, so
    // each component goes to its array as soon as it is known, and the score is summed from the arrays.
    confidences[index] = boundedNumber(fact.confidence);
    let freshness = 0;
    const confirmedAge = ageDaysOf(fact.lastConfirmedAt, now, nowMicros);
    if (confirmedAge >= 0) {
      freshness = decay(confirmedAge, confirmationHalfLifeDays);
    } else {
      const createdAge = ageDaysOf(fact.createdAt, now, nowMicros);
      // Creation is weaker evidence than an explicit confirmation, so it counts half.
      if (createdAge >= 0) freshness = 0.5 * decay(createdAge, confirmationHalfLifeDays);
    }
    freshnesses[index] = boundedNumber(freshness, 0);
    let accessHeat = 0;
    const entry = entries[index];
    if (entry !== undefined) {
      const accessedAge = ageDaysOf(entry.lastAccessedAt, now, nowMicros);
      const heat = accessedAge >= 0
        ? heatValue(entry.accessHeat) * decay(accessedAge, accessHalfLifeDays)
        : 0;
      // Log saturation: heat 8 already reaches 1, so repeated hits cannot crowd out everything else.
      accessHeat = heat > 0 ? Math.min(1, log1p(heat) / LOG_9) : 0;
    }
    heats[index] = boundedNumber(accessHeat, 0);
    values[index] = confidenceWeight * confidences[index] + confirmationWeight * freshnesses[index] +
      accessWeight * heats[index];
  }
}

function withLazyScores<F>(
  result: Omit<Selection.SelectionResult<F>, "scores">,
  build: () => Map<string, Selection.FactScore>,
): Selection.SelectionResult<F> {
  // Small snapshots (every protocol case) get a plain property; only large ones defer the Map.
  if (result.kept.length + result.evicted.length < RADIX_THRESHOLD) return { ...result, scores: build() };
  const lazy = Object.defineProperty(result, "scores", { get: build, enumerable: true });
  return lazy as Selection.SelectionResult<F>;
}
