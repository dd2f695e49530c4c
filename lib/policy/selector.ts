/**
 * A faithful port of DeerMem's `select_facts_for_capacity` (`deermem/core/eviction.py`): the historical
 * `confidence` ranking and the opt-in `hybrid-v1` score with correction slots. Pure; knows nothing of the
 * evaluation protocol. Dirty inputs are scored exactly as the Python does (see `python.ts`).
 *
 * Follows DeerMem's `deermem/core/eviction.py` as of PR #4789 (policy version `hybrid-v1`), run under CPython
 * 3.11.7 with Debian glibc 2.36's `log1p` (libm.ts); the golden vectors (`eviction*.jsonl`) hold its outputs.
 *
 * @module
 */

import { fnv1a } from "../base/hash.ts";
import { pyFloatOf, pyStr, pyStrip } from "../py/builtins.ts";
import { RADIX_THRESHOLD, radixOrder32, rankOrder } from "./_radix.ts";

export { rankOrder };
import { EVICTION_POLICY_VERSION } from "../protocol/versions.ts";
import {
  elapsedSeconds,
  fromIsoFormat,
  type Instant,
  MICROS_PER_DAY,
  parseCanonicalIso,
} from "../py/time.ts";
import { log1p } from "../py/libm.ts";

/**
 * The historical policy: rank by confidence alone.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { EVICTION_POLICY_CONFIDENCE, selectFactsForCapacity } from "./selector.ts";
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
 * import { EVICTION_POLICY_HYBRID_V1 } from "./selector.ts";
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
 * import { DEFAULT_HYBRID_PARAMS } from "./selector.ts";
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

/** What {@linkcode selectFactsForCapacity} returns. */
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

/** Options of {@linkcode selectFactsForCapacity}. */
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

type Record_ = Readonly<Record<string, unknown>>;

/**
 * The reference's `_bounded_number`: Python `float()` of the value (booleans and null excluded), the default
 * when it fails or is not finite, else clamped to [0, 1].
 *
 * @param value Any value, as the fact carries it.
 * @param fallback The value when `value` is not a finite number (default 0.5).
 * @returns The number, clamped to [0, 1], or `fallback`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { boundedNumber } from "./selector.ts";
 * strictEqual(boundedNumber(" 0.75 "), 0.75); // Python's float() strips whitespace
 * strictEqual(boundedNumber("nan"), 0.5);
 * strictEqual(boundedNumber(3), 1);
 * strictEqual(boundedNumber(true, 0), 0); // booleans are not numbers here
 * ```
 */
export function boundedNumber(value: unknown, fallback = 0.5): number {
  if (typeof value === "number") {
    // The common case, inline: NaN and ±inf fall back; max(0.0, n) returns 0.0 for -0.0, as Python's max keeps
    // its first argument on ties.
    return value - value === 0 ? Math.min(1, value > 0 ? value : 0) : fallback;
  }
  return boundedNonNumber(value, fallback);
}

/** {@linkcode boundedNumber} of anything but a number, out of line so the number case inlines small. */
function boundedNonNumber(value: unknown, fallback: number): number {
  if (value === null || value === undefined || typeof value === "boolean") return fallback;
  const number = pyFloatOf(value);
  if (number === undefined || !Number.isFinite(number)) return fallback;
  return Math.min(1, number > 0 ? number : 0);
}

const timestampCache = new Map<string, Instant | null>();

/**
 * The reference's timestamp parser: strings only, stripped, every `Z` replaced by `+00:00`, then Python
 * 3.11 `datetime.fromisoformat`; naive times are UTC. `undefined` when unparseable.
 *
 * @param value Any value, as the fact carries it.
 * @returns The instant (days since the epoch and microseconds into the day, UTC), or `undefined`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { parseTimestamp } from "./selector.ts";
 * deepStrictEqual(parseTimestamp("2026-08-13T00:00:00Z"), { day: 20678, microsecond: 0 });
 * deepStrictEqual(parseTimestamp("2026-08-13T02:00:00+02:00"), { day: 20678, microsecond: 0 });
 * strictEqual(parseTimestamp("13 August 2026"), undefined);
 * strictEqual(parseTimestamp(20678), undefined);
 * ```
 */
export function parseTimestamp(value: unknown): Instant | undefined {
  if (typeof value !== "string") return undefined;
  if (parseCanonicalIso(value, canonical)) return { day: canonical[0], microsecond: canonical[1] };
  const cached = timestampCache.get(value);
  if (cached !== undefined) return cached ?? undefined;
  const stripped = pyStrip(value);
  const parsed = stripped === "" ? undefined : fromIsoFormat(stripped.replaceAll("Z", "+00:00"));
  if (timestampCache.size > 100_000) timestampCache.clear();
  timestampCache.set(value, parsed ?? null);
  return parsed;
}

/** Scratch output of {@linkcode parseCanonicalIso}: [day since the epoch, microsecond of that day]. */
const canonical = new Float64Array(2);

/** Within ±50,000 days of the epoch an instant's microseconds, and the difference of two, are exact doubles. */
const EXACT_DAYS = 50_000;

function epochMicros(instant: Instant): number {
  return Math.abs(instant.day) <= EXACT_DAYS ? instant.day * MICROS_PER_DAY + instant.microsecond : NaN;
}

/**
 * Age in days (≥ 0) of a timestamp value at `now`, or -1 when it is not a parseable timestamp. The canonical
 * spelling near the epoch skips building an instant; the arithmetic is the same exact integer difference.
 */
function ageDaysOf(value: unknown, now: Instant, nowMicros: number): number {
  if (typeof value !== "string") return -1;
  if (
    nowMicros === nowMicros && parseCanonicalIso(value, canonical) && Math.abs(canonical[0]) <= EXACT_DAYS
  ) {
    const days = (nowMicros - (canonical[0] * MICROS_PER_DAY + canonical[1])) / 1_000_000 / 86400;
    return days > 0 ? days : 0;
  }
  return parsedAgeDays(value, now);
}

/** {@linkcode ageDaysOf} through the full parser, out of line so the fast path inlines small. */
function parsedAgeDays(value: string, now: Instant): number {
  const instant = parseTimestamp(value);
  return instant === undefined ? -1 : ageDays(instant, now);
}

function ageDays(then: Instant, now: Instant): number {
  const days = elapsedSeconds(now, then) / 86400;
  return days > 0 ? days : 0;
}

function decay(ageInDays: number, halfLifeDays: number): number {
  return 0.5 ** (ageInDays / halfLifeDays);
}

function heatValue(value: unknown): number {
  if (typeof value === "number") return value - value === 0 && value > 0 ? value : 0;
  return heatOfNonNumber(value);
}

function heatOfNonNumber(value: unknown): number {
  if (value === null || value === undefined || typeof value === "boolean") return 0;
  const number = pyFloatOf(value);
  if (number === undefined || !Number.isFinite(number) || number <= 0) return 0;
  return number;
}

const LOG_9 = Math.log(9);

function isCorrection(category: unknown): boolean {
  if (category === "correction") return true;
  return !isFalsy(category) && pyStrip(pyStr(category)).toLowerCase() === "correction";
}

function asRecord(fact: unknown, index: number): Record_ {
  if (fact === null || typeof fact !== "object" || Array.isArray(fact)) {
    throw new TypeError(`fact ${index} is not an object`);
  }
  return fact as Record_;
}

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
 * deepStrictEqual(hybrid.kept.map((fact) => fact.id), ["confirmed"]);
 * deepStrictEqual(hybrid.evicted.map((fact) => fact.factId), ["old"]);
 * const baseline = selectFactsForCapacity(facts, { maxFacts: 1, policy: "confidence", now: "2026-08-13T00:00:00Z" });
 * deepStrictEqual(baseline.kept.map((fact) => fact.id), ["old"]);
 * ```
 */
export function selectFactsForCapacity<F>(
  facts: readonly F[],
  options: SelectionOptions,
): SelectionResult<F> {
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

  // Scores and components live in typed arrays; the per-id Map of the result is built only if a caller reads it.
  const count = facts.length;
  const ids: string[] = new Array(count);
  const values = new Float64Array(count);
  const confidences = hybrid ? new Float64Array(count) : values;
  const freshnesses = hybrid ? new Float64Array(count) : values;
  const heats = hybrid ? new Float64Array(count) : values;
  // Hashes of the ids, for finding duplicates, only where that sorts them (see lastIndexById).
  const hashes = count > maxFacts && count >= RADIX_THRESHOLD ? new Uint32Array(count) : undefined;
  if (hybrid) {
    scoreHybrid(facts, options.usage ?? {}, now, params, {
      ids,
      hashes,
      values,
      confidences,
      freshnesses,
      heats,
    });
  } else {
    for (let index = 0; index < count; index++) {
      const fact = asRecord(facts[index], index);
      const id = factId(fact, index);
      ids[index] = id;
      if (hashes !== undefined) hashes[index] = fnv1a(id);
      values[index] = boundedNumber(fact.confidence);
    }
  }
  const componentsAt = (index: number): ScoreComponents => {
    if (!hybrid) return { confidence: values[index] };
    return {
      confidence: confidences[index],
      confirmationFreshness: freshnesses[index],
      accessHeat: heats[index],
    };
  };
  // Duplicate ids share the score computed last for that id, as the reference looks scores up by id.
  const scoreIndex = count > maxFacts ? lastIndexById(ids, hashes) : undefined;
  let scoreMap: Map<string, FactScore> | undefined;
  const lazyScores = () => {
    if (scoreMap === undefined) {
      scoreMap = new Map();
      for (let index = 0; index < count; index++) {
        scoreMap.set(ids[index], { value: values[index], components: componentsAt(index) });
      }
    }
    return scoreMap;
  };

  if (count <= maxFacts) {
    const keptIndex: number[] = new Array(count);
    for (let index = 0; index < count; index++) keptIndex[index] = index;
    return withLazyScores(
      { kept: facts.slice(), keptIndex, evicted: [], reservedCorrectionSlots: 0 },
      lazyScores,
    );
  }

  let rankScore = values;
  if (scoreIndex !== undefined) {
    rankScore = new Float64Array(count);
    for (let index = 0; index < count; index++) rankScore[index] = values[scoreIndex[index]];
  }
  const order = rankOrder(rankScore);

  const keep = new Uint8Array(count);
  let reservedCorrectionSlots = 0;
  let remaining = maxFacts;
  if (hybrid && maxFacts > 0) {
    const reserved = Math.min(
      params.correctionReservedMax,
      Math.ceil(maxFacts * params.correctionReservedFraction),
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

  // Each position's slot in the output: kept in ranked order, then evicted lowest-ranked first. Filling the
  // outputs in input order then reads the facts sequentially rather than in ranked order.
  const keptCount = maxFacts - remaining;
  // The id hashes are spent by now; their array, where there is one, holds the slots (fresh memory is dear).
  const slot = hashes ?? new Uint32Array(count);
  for (let rank = 0, at = 0, back = count; rank < count; rank++) {
    const index = order[rank];
    slot[index] = keep[index] === 1 ? at++ : --back;
  }
  const kept: F[] = new Array(keptCount);
  const keptIndex: number[] = new Array(keptCount);
  const evicted: EvictedFact[] = new Array(count - keptCount);
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
      factId: ids[index],
      category: isFalsy(category) ? "context" : category,
      score: values[scored],
      components: componentsAt(scored),
    };
  }
  return withLazyScores({ kept, keptIndex, evicted, reservedCorrectionSlots }, lazyScores);
}

/** The id a fact is scored under: its `id` when a non-empty string, else `__missing_{index}`. */
function factId(fact: Record_, index: number): string {
  const rawId = fact.id;
  return typeof rawId === "string" && rawId !== "" ? rawId : `__missing_${index}`;
}

/** Where {@linkcode scoreHybrid} writes: per position, the id, the score and its three components. */
interface HybridScores {
  ids: string[];
  hashes: Uint32Array<ArrayBuffer> | undefined;
  values: Float64Array;
  confidences: Float64Array;
  freshnesses: Float64Array;
  heats: Float64Array;
}

/** Scores every fact under `hybrid-v1` into `out`; throws on a fact that is not an object. */
function scoreHybrid(
  facts: readonly unknown[],
  usage: Readonly<Record<string, unknown>>,
  now: Instant,
  params: HybridParams,
  out: HybridScores,
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

/**
 * The score and components of every fact, its usage entry looked up already. A function of its own, so that
 * the optimizing compiler's inlining budget covers every helper here: a call left out of line returns a boxed
 * double, and a million of those fill the young generation.
 */
function scoreComponents(
  facts: readonly unknown[],
  now: Instant,
  params: HybridParams,
  entries: (Record_ | undefined)[],
  out: HybridScores,
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
  result: Omit<SelectionResult<F>, "scores">,
  build: () => Map<string, FactScore>,
): SelectionResult<F> {
  // Small snapshots (every protocol case) get a plain property; only large ones defer the Map.
  if (result.kept.length + result.evicted.length < RADIX_THRESHOLD) return { ...result, scores: build() };
  return Object.defineProperty(result, "scores", { get: build, enumerable: true }) as SelectionResult<F>;
}

/**
 * For each position, the last position holding the same id — or `undefined` when all ids are distinct (the
 * usual case). Sorts the ids' FNV-1a hashes (a radix sort: sequential memory, unlike a hash table or a `Map` of
 * a million strings) and compares strings only where hashes collide.
 */
function lastIndexById(
  ids: readonly string[],
  hashes: Uint32Array<ArrayBuffer> | undefined,
): Int32Array | undefined {
  const count = ids.length;
  if (count < RADIX_THRESHOLD) {
    const lastOf = new Map<string, number>();
    for (let index = 0; index < count; index++) lastOf.set(ids[index], index);
    if (lastOf.size === count) return undefined;
    return Int32Array.from(ids, (id) => lastOf.get(id)!);
  }
  // The hashes are scratch: the sort works in their array.
  const [byHash, sortedHashes] = radixOrder32(hashes ?? Uint32Array.from(ids, fnv1a));
  let firstOf: Int32Array | undefined;
  for (let rank = 0; rank < count;) {
    const hash = sortedHashes[rank];
    let end = rank + 1;
    while (end < count && sortedHashes[end] === hash) end++;
    // Positions with equal hashes are in ascending order (the sort is stable); match each to its first equal id.
    for (let member = rank + 1; member < end; member++) {
      const index = byHash[member];
      for (let earlier = rank; earlier < member; earlier++) {
        if (ids[byHash[earlier]] === ids[index]) {
          firstOf ??= Int32Array.from({ length: count }, (_, position) => position);
          firstOf[index] = firstOf[byHash[earlier]];
          break;
        }
      }
    }
    rank = end;
  }
  if (firstOf === undefined) return undefined;
  const lastOfFirst = new Int32Array(count);
  for (let index = 0; index < count; index++) lastOfFirst[firstOf[index]] = index;
  const last = new Int32Array(count);
  for (let index = 0; index < count; index++) last[index] = lastOfFirst[firstOf[index]];
  return last;
}

/**
 * Whether the only object-valued property `record` can inherit is `__proto__`: its prototype is an untouched
 * `Object.prototype` (or none), whose other members are all functions.
 */
function isPlainRecord(record: object): boolean {
  const prototype = Object.getPrototypeOf(record);
  if (prototype === null) return true;
  if (prototype !== Object.prototype) return false;
  return Object.getOwnPropertyNames(Object.prototype).every((name) => {
    if (name === "__proto__") return true;
    const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, name)!;
    return typeof descriptor.value === "function" || descriptor.get !== undefined;
  });
}

/** Python truthiness of a JSON value. */
function isFalsy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length === 0;
  return !value;
}
