/**
 * The config's `evaluation_time` as the reference reads it: PyYAML may hand over a datetime (an unquoted
 * timestamp) or a number, pydantic 2.13 parses a string with speedate (RFC 3339 style: `2026-08-13T00:00:00Z`,
 * `t`/`z` in lower case, `_` or a space as the separator, no seconds needed; no basic format, week dates or
 * leading space) or reads a number or numeric string as Unix time (milliseconds past 2·10^10), and the model then
 * demands a zone and converts to UTC.
 *
 * Follows pydantic 2.13 (pydantic-core's speedate parser for datetimes, and its Unix-time reading of numbers)
 * after PyYAML 6.0's timestamp resolver.
 *
 * @module
 */

import { PyFloat } from "./json.ts";
import { daysInMonth, daysSinceEpoch, type Instant, MICROS_PER_DAY } from "./_calendar.ts";
import { YamlTimestamp } from "./yaml.ts";

const MS_WATERSHED = 20_000_000_000n;
/** 0001-06-30, the earliest UTC day from which the reference can still go back 180 days (its oldest fact). */
const FIRST_DAY = daysSinceEpoch(1, 6, 30);
const LAST_DAY = daysSinceEpoch(9999, 12, 31);

/** Local fields and an optional offset, as a datetime carries them. */
interface DateTimeFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
  /** Minutes east of UTC; undefined when naive. */
  offset: number | undefined;
}

const SPEEDATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt _](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;
const UNIX_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+|\d*\.\d+[eE][+-]?\d+|\d+\.[eE][+-]?\d+)$/;

/** speedate's datetime parser; a message where it refuses. */
function parseSpeedate(text: string): DateTimeFields | string {
  const match = SPEEDATE.exec(text);
  if (match === null) return "must be a datetime (YYYY-MM-DDTHH:MM[:SS[.ffffff]] and a zone) or a Unix time";
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || year < 1 || day > daysInMonth(year, month)) {
    return "is not a valid date";
  }
  if (match[4] === undefined) {
    return { year, month, day, hour: 0, minute: 0, second: 0, micro: 0, offset: undefined };
  }
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return "is not a valid time of day";
  // Digits past the sixth are dropped, not rounded.
  const micro = match[7] === undefined ? 0 : Number(match[7].slice(0, 6).padEnd(6, "0"));
  let offset: number | undefined;
  if (match[8] !== undefined) offset = 0;
  else if (match[9] !== undefined) {
    const [hours, minutes] = [Number(match[10]), Number(match[11])];
    if (hours > 23 || minutes > 59) return "has an invalid zone offset";
    offset = (hours * 60 + minutes) * (match[9] === "-" ? -1 : 1);
  }
  return { year, month, day, hour, minute, second, micro, offset };
}

function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? quotient - 1n : quotient;
}

/** speedate's `from_timestamp`: whole seconds (or milliseconds past the watershed) plus microseconds. */
function fromTimestamp(whole: bigint, fractionMicros: number, millisecondFraction: number): Instant | string {
  if (whole > 9_223_372_036_854_775_807n || whole < -9_223_372_036_854_775_807n) {
    return "is out of range as a Unix time";
  }
  let seconds = whole;
  let micros = fractionMicros;
  if (whole > MS_WATERSHED || whole < -MS_WATERSHED) {
    seconds = floorDiv(whole, 1000n);
    micros = Number(whole - seconds * 1000n) * 1000 + millisecondFraction;
  }
  seconds += BigInt(Math.floor(micros / 1_000_000));
  micros %= 1_000_000;
  const day = floorDiv(seconds, 86_400n);
  if (day < BigInt(daysSinceEpoch(1, 1, 1)) || day > BigInt(LAST_DAY)) {
    return "is out of range as a Unix time";
  }
  return { day: Number(day), microsecond: Number(seconds - day * 86_400n) * 1_000_000 + micros };
}

/** A Unix time from a number, as pydantic-core's float_as_datetime reads it (its rounding included). */
function fromNumber(value: number): Instant | string {
  if (Number.isNaN(value)) return "must not be NaN";
  if (!Number.isFinite(value)) return "is out of range as a Unix time";
  const floor = Math.floor(value);
  // Rust's fract() keeps the sign; pydantic takes its absolute value (so -1.25 reads as -2 + 0.25).
  const fractionMicros = Math.round(Math.abs(value - Math.trunc(value)) * 1_000_000);
  if (!Number.isSafeInteger(floor)) return fromTimestamp(BigInt(floor), 0, 0);
  return fromTimestamp(BigInt(floor), fractionMicros, Math.floor(fractionMicros / 1000));
}

/** A Unix time from a numeric string, read exactly as speedate reads its digits. */
function fromNumericText(text: string): Instant | string {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const digits = `${match[2]}${match[3] ?? ""}` || "0";
  const scale = (match[3] ?? "").length - Number(match[4] ?? 0);
  if (Math.abs(scale) > 400) return "is out of range as a Unix time";
  let numerator = BigInt(digits) * (match[1] === "-" ? -1n : 1n);
  let denominator = 1n;
  if (scale >= 0) denominator = 10n ** BigInt(scale);
  else numerator *= 10n ** BigInt(-scale);
  const whole = floorDiv(numerator, denominator);
  const rest = numerator - whole * denominator;
  const round = (unit: bigint) => Number((2n * rest * unit + denominator) / (2n * denominator));
  return fromTimestamp(whole, round(1_000_000n), round(1_000n));
}

function fieldsToInstant(fields: DateTimeFields): Instant {
  const seconds = (fields.hour * 60 + fields.minute - (fields.offset ?? 0)) * 60 + fields.second;
  const day = daysSinceEpoch(fields.year, fields.month, fields.day);
  const micro = seconds * 1_000_000 + fields.micro;
  const shift = Math.floor(micro / MICROS_PER_DAY);
  return { day: day + shift, microsecond: micro - shift * MICROS_PER_DAY };
}

/**
 * `evaluation_time` → a UTC instant, or the reason it is refused.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parseEvaluationTime } from "./pydantic_datetime.ts";
 * deepStrictEqual(parseEvaluationTime("2026-08-13t00:00:00z"), { day: 20678, microsecond: 0 });
 * deepStrictEqual(parseEvaluationTime(1786579200), { day: 20678, microsecond: 0 });
 * ```
 */
export function parseEvaluationTime(value: unknown): Instant | string {
  let instant: Instant | string;
  if (value instanceof YamlTimestamp) {
    if (value.time === undefined || value.offsetMinutes === undefined) return "must include a timezone";
    const [hour, minute, second, micro] = value.time;
    instant = fieldsToInstant({ ...value, hour, minute, second, micro, offset: value.offsetMinutes });
  } else if (typeof value === "bigint") {
    instant = fromTimestamp(value, 0, 0);
  } else if (typeof value === "number" || value instanceof PyFloat) {
    const number = Number(value);
    instant = Number.isInteger(number) && !(value instanceof PyFloat) && Number.isSafeInteger(number)
      ? fromTimestamp(BigInt(number), 0, 0)
      : fromNumber(number);
  } else if (typeof value === "string") {
    if (UNIX_TEXT.test(value)) instant = fromNumericText(value);
    else {
      const fields = parseSpeedate(value);
      if (typeof fields === "string") return fields;
      if (fields.offset === undefined) return "must include a timezone";
      instant = fieldsToInstant(fields);
    }
  } else {
    return "must be a datetime";
  }
  if (typeof instant === "string") return instant;
  if (instant.day < FIRST_DAY || instant.day > LAST_DAY) {
    return "is out of range: the reference computes dates up to 180 days before it, from 0001-01-01 to 9999-12-31";
  }
  return instant;
}
