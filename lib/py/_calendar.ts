/**
 * The proleptic Gregorian calendar as CPython's `datetime` counts it (`ymd_to_ord`: day 1 is 0001-01-01), and
 * the {@linkcode Instant} every time in this program is held as.
 *
 * @module
 */

/** An instant as whole days since 1970-01-01 plus microseconds (which may fall outside one day). */
export interface Instant {
  /** Days since the Unix epoch (proleptic Gregorian). */
  readonly day: number;
  /** Microseconds after that day's midnight UTC; the zone offset is already subtracted. */
  readonly microsecond: number;
}

/** Microseconds in a day. */
export const MICROS_PER_DAY = 86_400_000_000;
/** Days before each month (1–12) in a common year. */
export const DAYS_BEFORE_MONTH: readonly number[] = [
  0,
  0,
  31,
  59,
  90,
  120,
  151,
  181,
  212,
  243,
  273,
  304,
  334,
];
/** Days in each month (1–12) of a common year. */
export const DAYS_IN_MONTH: readonly number[] = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether `year` is a leap year. */
export function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days in `month` (1–12) of `year`, proleptic Gregorian. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month];
}

/** CPython's `ymd_to_ord`: day 1 is 0001-01-01. */
export function ymdToOrdinal(year: number, month: number, day: number): number {
  const y = year - 1;
  const daysBeforeYear = y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400);
  const daysBeforeMonth = DAYS_BEFORE_MONTH[month] + (month > 2 && isLeap(year) ? 1 : 0);
  return daysBeforeYear + daysBeforeMonth + day;
}

/** The ordinal of 1970-01-01. */
export const EPOCH_ORDINAL: number = ymdToOrdinal(1970, 1, 1);

/** Days since 1970-01-01 of a proleptic Gregorian date. */
export function daysSinceEpoch(year: number, month: number, day: number): number {
  return ymdToOrdinal(year, month, day) - EPOCH_ORDINAL;
}

/** The [year, month, day] of an ordinal. */
export function ordinalToYmd(ordinal: number): [number, number, number] {
  // Walk from an estimate; ordinals here stay within a few days of a valid range, so this is cheap.
  let year = Math.floor((ordinal - 1) / 365.2425) + 1;
  while (ymdToOrdinal(year, 1, 1) > ordinal) year--;
  while (ymdToOrdinal(year + 1, 1, 1) <= ordinal) year++;
  let month = 1;
  while (month < 12 && ymdToOrdinal(year, month + 1, 1) <= ordinal) month++;
  return [year, month, ordinal - ymdToOrdinal(year, month, 1) + 1];
}
