/**
 * Ages and their decay for the `hybrid-v1` score: the age in days of a fact's timestamp at the evaluation
 * clock, with a fast path for the canonical spelling, and the half-life decay.
 *
 * @module
 */

import { elapsedSeconds, type Instant, MICROS_PER_DAY, parseCanonicalIso } from "../py/mod.ts";
import { parseTimestamp } from "./lenient.ts";

/** Scratch output of {@linkcode parseCanonicalIso}: [day since the epoch, microsecond of that day]. */
const canonical = new Float64Array(2);

/** Within ±50,000 days of the epoch an instant's microseconds, and the difference of two, are exact doubles. */
const EXACT_DAYS = 50_000;

/** An instant as microseconds since the epoch, or NaN where that is not an exact double. */
export function epochMicros(instant: Instant): number {
  return Math.abs(instant.day) <= EXACT_DAYS ? instant.day * MICROS_PER_DAY + instant.microsecond : NaN;
}

/**
 * Age in days (≥ 0) of a timestamp value at `now`, or -1 when it is not a parseable timestamp. The canonical
 * spelling near the epoch skips building an instant; the arithmetic is the same exact integer difference.
 */
export function ageDaysOf(value: unknown, now: Instant, nowMicros: number): number {
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

/** What is left after `ageInDays` of a signal that halves every `halfLifeDays`. */
export function decay(ageInDays: number, halfLifeDays: number): number {
  return 0.5 ** (ageInDays / halfLifeDays);
}
