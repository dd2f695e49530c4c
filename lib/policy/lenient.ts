/**
 * The reference's lenient readings of a fact's fields: `_bounded_number` for confidences and the timestamp
 * parser for `createdAt`, `lastConfirmedAt` and `lastAccessedAt`. Dirty values read exactly as the Python reads
 * them.
 *
 * @module
 */

import { fromIsoFormat, type Instant, parseCanonicalIso, pyFloatOf, pyStrip } from "../py/mod.ts";

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
 * import { boundedNumber } from "./lenient.ts";
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
 * import { parseTimestamp } from "./lenient.ts";
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
