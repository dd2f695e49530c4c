/**
 * Python's time, in one import: the proleptic Gregorian calendar, CPython 3.11's `datetime.fromisoformat`
 * (`fromisoformat.ts`), exact differences as `timedelta.total_seconds()`, and the `isoformat()` spellings the
 * reference writes (the evaluation clock, fact timestamps, created-at stamps).
 *
 * @module
 */

import { type Instant, MICROS_PER_DAY } from "./_calendar.ts";

export { daysInMonth, daysSinceEpoch, type Instant, MICROS_PER_DAY } from "./_calendar.ts";
export * from "./fromisoformat.ts";

/**
 * An instant as exact epoch microseconds.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { instantToEpochMicroseconds } from "./time.ts";
 * deepStrictEqual(instantToEpochMicroseconds({ day: 1, microsecond: 0 }), 86400000000n);
 * ```
 */
export function instantToEpochMicroseconds(instant: Instant): bigint {
  return BigInt(instant.day) * BigInt(MICROS_PER_DAY) + BigInt(instant.microsecond);
}

/**
 * Python's `(later - earlier).total_seconds()`: exact integer microseconds divided by 10^6 with one rounding.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { elapsedSeconds } from "./time.ts";
 * deepStrictEqual(elapsedSeconds({ day: 1, microsecond: 500_000 }, { day: 0, microsecond: 0 }), 86400.5);
 * ```
 */
export function elapsedSeconds(later: Instant, earlier: Instant): number {
  const dayDelta = later.day - earlier.day;
  // Within ±100,000 days the microsecond difference is below 2^53, so it is exact as a double.
  if (Math.abs(dayDelta) <= 100_000) {
    return (dayDelta * MICROS_PER_DAY + (later.microsecond - earlier.microsecond)) / 1_000_000;
  }
  const micros = instantToEpochMicroseconds(later) - instantToEpochMicroseconds(earlier);
  const whole = micros / 1_000_000n;
  const rest = micros - whole * 1_000_000n;
  // |whole| < 2^53, so one rounding of the fraction then one exact-or-correct addition gives Python's result.
  return Number(whole) + Number(rest) / 1_000_000;
}

// isoformat() spellings.

/**
 * The evaluation clock as Python's `datetime.isoformat()` writes a UTC datetime (`2026-08-13T00:00:00+00:00`).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isoformatUtc } from "./time.ts";
 * deepStrictEqual(isoformatUtc({ day: 20678, microsecond: 0 }), "2026-08-13T00:00:00+00:00");
 * ```
 */
export function isoformatUtc(instant: Instant): string {
  return formatInstant(instant, "+00:00");
}

/**
 * An instant as Python writes `dt.isoformat().replace("+00:00", "Z")`: microseconds only when non-zero.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isoformatZulu } from "./time.ts";
 * deepStrictEqual(isoformatZulu({ day: 20498, microsecond: 0 }), "2026-02-14T00:00:00Z");
 * ```
 */
export function isoformatZulu(instant: Instant): string {
  return formatInstant(instant, "Z");
}

function formatInstant(instant: Instant, zone: string): string {
  const dayShift = Math.floor(instant.microsecond / MICROS_PER_DAY);
  const day = instant.day + dayShift;
  const micros = instant.microsecond - dayShift * MICROS_PER_DAY;
  const date = new Date(day * 86_400_000);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = micros % 1_000_000;
  const text = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${
    pad(Math.floor(seconds / 3600))
  }:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  return `${text}${fraction === 0 ? "" : `.${pad(fraction, 6)}`}${zone}`;
}

/**
 * Python's `datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")` for a JS date (microseconds 000).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { createdAtStamp } from "./time.ts";
 * strictEqual(createdAtStamp(new Date(Date.UTC(2026, 7, 13))), "2026-08-13T00:00:00Z");
 * strictEqual(createdAtStamp(new Date(Date.UTC(2026, 7, 13, 0, 0, 0, 5))), "2026-08-13T00:00:00.005000Z");
 * ```
 */
export function createdAtStamp(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? iso.replace(".000Z", "Z") : iso.replace("Z", "000Z");
}
