/**
 * A faithful port of DeerMem's `select_facts_for_capacity` (`deermem/core/eviction.py`): the historical
 * `confidence` ranking and the opt-in `hybrid-v1` score with correction slots. Pure; knows nothing of the
 * evaluation protocol. Dirty inputs are scored exactly as the Python does (see `python.ts`).
 *
 * @module
 */

import { elapsedSeconds, fromIsoFormat, type Instant, pyFloatOf, pyStr, pyStrip } from "./python.ts";

/** The historical policy: rank by confidence alone. */
export const EVICTION_POLICY_CONFIDENCE = "confidence";
/** The opt-in hybrid policy of PR #4789. */
export const EVICTION_POLICY_HYBRID_V1 = "hybrid-v1";
/** The policy version this module implements; a protocol's `required_policy_version` must equal it. */
export const EVICTION_POLICY_VERSION = EVICTION_POLICY_HYBRID_V1;

/** The two eviction policies. */
export type EvictionPolicy = typeof EVICTION_POLICY_CONFIDENCE | typeof EVICTION_POLICY_HYBRID_V1;

/** The tunable parameters of `hybrid-v1` (the Python keyword arguments). */
export interface HybridParams {
  confidenceWeight: number;
  confirmationWeight: number;
  accessWeight: number;
  confirmationHalfLifeDays: number;
  accessHalfLifeDays: number;
  correctionReservedFraction: number;
  correctionReservedMax: number;
}

/**
 * The production defaults: 0.65/0.25/0.10, half-lives 90 and 30 days, 10% correction slots up to 10.
 *
 * @example
 * ```ts
 * import { DEFAULT_HYBRID_PARAMS } from "./eviction.ts";
 * console.log(DEFAULT_HYBRID_PARAMS.confidenceWeight); // 0.65
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
  confidence: number;
  confirmationFreshness?: number;
  accessHeat?: number;
}

/** A fact's score and its components. */
export interface FactScore {
  value: number;
  components: ScoreComponents;
}

/** One evicted fact, metadata only (as the audit sidecar records it). */
export interface EvictedFact {
  factId: string;
  /** The fact's category, or `"context"` when it is missing or empty. */
  category: unknown;
  score: number;
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
  maxFacts: number;
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
 * @example
 * ```ts
 * import { boundedNumber } from "./eviction.ts";
 * console.log(boundedNumber(" 0.75 "), boundedNumber("nan"), boundedNumber(3)); // 0.75 0.5 1
 * ```
 */
export function boundedNumber(value: unknown, fallback = 0.5): number {
  if (value === null || value === undefined || typeof value === "boolean") return fallback;
  const number = pyFloatOf(value);
  if (number === undefined || !Number.isFinite(number)) return fallback;
  // max(0.0, n) returns 0.0 for -0.0, as Python's max keeps its first argument on ties.
  return Math.min(1, number > 0 ? number : 0);
}

const timestampCache = new Map<string, Instant | null>();

/**
 * The reference's timestamp parser: strings only, stripped, every `Z` replaced by `+00:00`, then Python
 * 3.11 `datetime.fromisoformat`; naive times are UTC. `undefined` when unparseable.
 *
 * @example
 * ```ts
 * import { parseTimestamp } from "./eviction.ts";
 * console.log(parseTimestamp("2026-08-13T00:00:00Z")); // { day: 20678, microsecond: 0 }
 * ```
 */
export function parseTimestamp(value: unknown): Instant | undefined {
  if (typeof value !== "string") return undefined;
  const fast = parseCanonicalTimestamp(value);
  if (fast !== undefined) return fast;
  const cached = timestampCache.get(value);
  if (cached !== undefined) return cached ?? undefined;
  const stripped = pyStrip(value);
  const parsed = stripped === "" ? undefined : fromIsoFormat(stripped.replaceAll("Z", "+00:00"));
  if (timestampCache.size > 100_000) timestampCache.clear();
  timestampCache.set(value, parsed ?? null);
  return parsed;
}

const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}|\d{6}))?(Z|[+-]\d{2}:\d{2})?$/;
const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/**
 * The common spelling (`2026-08-13T00:00:00[.fff[fff]][Z|±hh:mm]`) parsed directly, with the same result as the
 * full `fromisoformat` port; anything else (or out of range) returns undefined and takes the full path.
 */
function parseCanonicalTimestamp(text: string): Instant | undefined {
  const match = CANONICAL.exec(text);
  if (match === null) return undefined;
  const year = +match[1];
  const month = +match[2];
  const day = +match[3];
  const hour = +match[4];
  const minute = +match[5];
  const second = +match[6];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2
    ? (leap ? 29 : 28)
    : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (
    year < 1 || month < 1 || month > 12 || day < 1 || day > monthDays || hour > 23 || minute > 59 ||
    second > 59
  ) {
    return undefined;
  }
  const fraction = match[7] === undefined ? 0 : +match[7] * (match[7].length === 3 ? 1000 : 1);
  let offset = 0;
  const zone = match[8];
  if (zone !== undefined && zone !== "Z") {
    offset = (zone[0] === "-" ? -1 : 1) * ((+zone.slice(1, 3)) * 3600 + (+zone.slice(4, 6)) * 60) * 1_000_000;
    if (Math.abs(offset) >= 86_400_000_000) return undefined;
  }
  const y = year - 1;
  const ordinal = y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) +
    DAYS_BEFORE_MONTH[month] +
    (month > 2 && leap ? 1 : 0) + day;
  return {
    day: ordinal - 719163,
    microsecond: ((hour * 60 + minute) * 60 + second) * 1_000_000 + fraction - offset,
  };
}

function ageDays(then: Instant, now: Instant): number {
  const days = elapsedSeconds(now, then) / 86400;
  return days > 0 ? days : 0;
}

function decay(ageInDays: number, halfLifeDays: number): number {
  return 0.5 ** (ageInDays / halfLifeDays);
}

function heatValue(value: unknown): number {
  if (value === null || value === undefined || typeof value === "boolean") return 0;
  const number = pyFloatOf(value);
  if (number === undefined || !Number.isFinite(number) || number <= 0) return 0;
  return number;
}

const LOG_9 = Math.log(9);

function isCorrection(category: unknown): boolean {
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
 * @example
 * ```ts
 * import { selectFactsForCapacity } from "./eviction.ts";
 * const facts = [
 *   { id: "old", confidence: 0.9, createdAt: "2026-02-14T00:00:00Z", category: "context" },
 *   { id: "confirmed", confidence: 0.7, createdAt: "2026-02-14T00:00:00Z", lastConfirmedAt: "2026-08-06T00:00:00Z" },
 * ];
 * const result = selectFactsForCapacity(facts, { maxFacts: 1, policy: "hybrid-v1", now: "2026-08-13T00:00:00Z" });
 * console.log(result.kept.map((fact) => fact.id)); // ["confirmed"]
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
  const usage = options.usage ?? {};
  const hybrid = policy === EVICTION_POLICY_HYBRID_V1;

  const count = facts.length;
  const ids: string[] = new Array(count);
  const scores = new Map<string, FactScore>();
  for (let index = 0; index < count; index++) {
    const fact = asRecord(facts[index], index);
    const rawId = fact.id;
    const id = typeof rawId === "string" && rawId !== "" ? rawId : `__missing_${index}`;
    ids[index] = id;
    const confidence = boundedNumber(fact.confidence);
    if (!hybrid) {
      scores.set(id, { value: confidence, components: { confidence } });
      continue;
    }
    let freshness = 0;
    const confirmedAt = parseTimestamp(fact.lastConfirmedAt);
    if (confirmedAt !== undefined) {
      freshness = decay(ageDays(confirmedAt, now), params.confirmationHalfLifeDays);
    } else {
      const createdAt = parseTimestamp(fact.createdAt);
      // Creation is weaker evidence than an explicit confirmation, so it counts half.
      if (createdAt !== undefined) {
        freshness = 0.5 * decay(ageDays(createdAt, now), params.confirmationHalfLifeDays);
      }
    }
    freshness = boundedNumber(freshness, 0);
    let accessHeat = 0;
    const entry = Object.hasOwn(usage, id) ? usage[id] : undefined;
    if (entry !== null && typeof entry === "object" && !Array.isArray(entry)) {
      const record = entry as Record_;
      let heat = heatValue(record.accessHeat);
      const accessedAt = parseTimestamp(record.lastAccessedAt);
      heat = accessedAt !== undefined ? heat * decay(ageDays(accessedAt, now), params.accessHalfLifeDays) : 0;
      // Log saturation: heat 8 already reaches 1, so repeated hits cannot crowd out everything else.
      accessHeat = heat > 0 ? Math.min(1, Math.log1p(heat) / LOG_9) : 0;
    }
    accessHeat = boundedNumber(accessHeat, 0);
    const value = params.confidenceWeight * confidence + params.confirmationWeight * freshness +
      params.accessWeight * accessHeat;
    scores.set(id, { value, components: { confidence, confirmationFreshness: freshness, accessHeat } });
  }

  if (count <= maxFacts) {
    return {
      kept: facts.slice(),
      keptIndex: Array.from({ length: count }, (_, index) => index),
      evicted: [],
      scores,
      reservedCorrectionSlots: 0,
    };
  }

  // Duplicate ids rank by the score computed last for that id, as the reference looks scores up by id.
  const rankScore = new Float64Array(count);
  for (let index = 0; index < count; index++) rankScore[index] = scores.get(ids[index])!.value;
  const order = Array.from({ length: count }, (_, index) => index);
  order.sort((a, b) => rankScore[b] - rankScore[a] || a - b);

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

  const kept: F[] = [];
  const keptIndex: number[] = [];
  const evicted: EvictedFact[] = [];
  for (let rank = 0; rank < count; rank++) {
    const index = order[rank];
    if (keep[index] === 1) {
      kept.push(facts[index]);
      keptIndex.push(index);
    }
  }
  for (let rank = count - 1; rank >= 0; rank--) {
    const index = order[rank];
    if (keep[index] === 1) continue;
    const category = (facts[index] as Record_).category;
    const score = scores.get(ids[index])!;
    evicted.push({
      factId: ids[index],
      category: isFalsy(category) ? "context" : category,
      score: score.value,
      components: score.components,
    });
  }
  return { kept, keptIndex, evicted, scores, reservedCorrectionSlots };
}

/** Python truthiness of a JSON value. */
function isFalsy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length === 0;
  return !value;
}
