/**
 * CPython 3.11's `datetime.fromisoformat` (Modules/_datetimemodule.c, ported over the UTF-8 bytes as CPython
 * does), with a fast path for the common spelling.
 *
 * @module
 */

import { codePointLength } from "./builtins.ts";
import {
  DAYS_BEFORE_MONTH,
  DAYS_IN_MONTH,
  daysInMonth,
  EPOCH_ORDINAL,
  type Instant,
  isLeap,
  MICROS_PER_DAY,
  ordinalToYmd,
  ymdToOrdinal,
} from "./_calendar.ts";

const encoder = new TextEncoder();

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** Reads `count` digits at `pos` (the buffer acts as NUL-terminated, as in C); -1 on failure. */
function parseDigits(bytes: Uint8Array, pos: number, count: number, out: number[]): number {
  let value = 0;
  for (let index = 0; index < count; index++) {
    const byte = bytes[pos + index];
    if (!isDigit(byte)) return -1;
    value = value * 10 + (byte - 0x30);
  }
  out[0] = value;
  return pos + count;
}

function findSeparator(bytes: Uint8Array, length: number): number {
  const HYPHEN = 0x2d;
  const WEEK = 0x57;
  if (length === 7) return 7;
  if (bytes[4] === HYPHEN) {
    if (bytes[5] === WEEK) {
      if (length < 8) return -1;
      if (length > 8 && bytes[8] === HYPHEN) {
        if (length === 9) return -1;
        if (length > 10 && isDigit(bytes[10])) return 8;
        return 10;
      }
      return 8;
    }
    return 10;
  }
  if (bytes[4] === WEEK) {
    let index = 7;
    for (; index < length; index++) if (!isDigit(bytes[index])) break;
    if (index < 9) return index;
    return index % 2 === 0 ? 7 : 8;
  }
  return 8;
}

function isoWeek1Monday(year: number): number {
  const firstDay = ymdToOrdinal(year, 1, 1);
  const firstWeekday = (firstDay + 6) % 7;
  let week1Monday = firstDay - firstWeekday;
  if (firstWeekday > 3) week1Monday += 7;
  return week1Monday;
}

/** Returns [year, month, day] or undefined. */
function parseDate(bytes: Uint8Array, dateLength: number): [number, number, number] | undefined {
  const out = [0];
  let pos = parseDigits(bytes, 0, 4, out);
  if (pos < 0) return undefined;
  const year = out[0];
  const usesSeparator = bytes[pos] === 0x2d;
  if (usesSeparator) pos++;
  if (bytes[pos] === 0x57) {
    pos = parseDigits(bytes, pos + 1, 2, out);
    if (pos < 0) return undefined;
    const week = out[0];
    let weekday = 1;
    if (pos < dateLength) {
      if (usesSeparator && bytes[pos++] !== 0x2d) return undefined;
      pos = parseDigits(bytes, pos, 1, out);
      if (pos < 0) return undefined;
      weekday = out[0];
    }
    if (week <= 0 || week >= 53) {
      let outOfRange = true;
      if (week === 53) {
        const firstWeekday = (ymdToOrdinal(year, 1, 1) + 6) % 7;
        if (firstWeekday === 3 || (firstWeekday === 2 && isLeap(year))) outOfRange = false;
      }
      if (outOfRange) return undefined;
    }
    if (weekday <= 0 || weekday >= 8) return undefined;
    return ordinalToYmd(isoWeek1Monday(year) + (week - 1) * 7 + weekday - 1);
  }
  pos = parseDigits(bytes, pos, 2, out);
  if (pos < 0) return undefined;
  const month = out[0];
  if (usesSeparator && bytes[pos++] !== 0x2d) return undefined;
  pos = parseDigits(bytes, pos, 2, out);
  if (pos < 0) return undefined;
  return [year, month, out[0]];
}

/** CPython's parse_hh_mm_ss_ff: -1 error, 0 end of string, 1 more follows. */
function parseTimeFields(bytes: Uint8Array, start: number, end: number, values: number[]): number {
  values.fill(0);
  const out = [0];
  let pos = start;
  let hasSeparator = true;
  for (let index = 0; index < 3; index++) {
    pos = parseDigits(bytes, pos, 2, out);
    if (pos < 0) return -1;
    values[index] = out[0];
    const char = bytes[pos++] ?? 0;
    if (index === 0) hasSeparator = char === 0x3a;
    if (pos >= end) return char !== 0 ? 1 : 0;
    if (hasSeparator && char === 0x3a) continue;
    if (char === 0x2e || char === 0x2c) break;
    if (!hasSeparator) pos--;
    else return -1;
  }
  const toParse = Math.min(end - pos, 6);
  pos = parseDigits(bytes, pos, toParse, out);
  if (pos < 0) return -1;
  values[3] = out[0] * 10 ** (6 - toParse);
  while (isDigit(bytes[pos])) pos++;
  return (bytes[pos] ?? 0) !== 0 ? 1 : 0;
}

/**
 * Python 3.11's `datetime.fromisoformat(text)`, returned as an {@linkcode Instant} with naive times taken as
 * UTC; `undefined` where Python raises `ValueError`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { fromIsoFormat } from "./fromisoformat.ts";
 * import { instantToEpochMicroseconds } from "./time.ts";
 * const instant = fromIsoFormat("2026-08-06T08:00:00+08:00")!;
 * deepStrictEqual(instantToEpochMicroseconds(instant), 1785974400000000n);
 * ```
 */
export function fromIsoFormat(text: string): Instant | undefined {
  if (codePointLength(text) < 7) return undefined;
  const bytes = encoder.encode(text);
  const length = bytes.length;
  const separator = findSeparator(bytes, length);
  if (separator < 0) return undefined;
  const date = parseDate(bytes, separator);
  if (date === undefined) return undefined;
  const [year, month, day] = date;
  const time = [0, 0, 0, 0];
  let offsetMicros = 0;
  if (length > separator) {
    let pos = separator;
    const lead = bytes[pos];
    pos += (lead & 0x80) === 0 ? 1 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf0) === 0xf0 ? 4 : 2;
    if (pos > length) return undefined;
    let zonePos = pos;
    while (zonePos < length) {
      const byte = bytes[zonePos];
      if (byte === 0x5a || byte === 0x2b || byte === 0x2d) break;
      zonePos++;
    }
    if (pos >= length) return undefined;
    const result = parseTimeFields(bytes, pos, zonePos, time);
    if (result < 0) return undefined;
    if (zonePos === length) {
      if (result === 1) return undefined;
    } else if (bytes[zonePos] === 0x5a) {
      if (zonePos + 1 !== length) return undefined;
    } else {
      const sign = bytes[zonePos] === 0x2d ? -1 : 1;
      const zone = [0, 0, 0, 0];
      const zoneResult = parseTimeFields(bytes, zonePos + 1, length, zone);
      if (zoneResult !== 0) return undefined;
      offsetMicros = sign * ((zone[0] * 3600 + zone[1] * 60 + zone[2]) * 1_000_000 + zone[3]);
      if (Math.abs(offsetMicros) >= MICROS_PER_DAY) return undefined;
    }
  }
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return undefined;
  }
  const [hour, minute, second, microsecond] = time;
  if (hour > 23 || minute > 59 || second > 59 || microsecond > 999_999) return undefined;
  return {
    day: ymdToOrdinal(year, month, day) - EPOCH_ORDINAL,
    microsecond: ((hour * 60 + minute) * 60 + second) * 1_000_000 + microsecond - offsetMicros,
  };
}

// The common spelling without building bytes.

function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let index = at; index < at + count; index++) {
    const code = text.charCodeAt(index) - 48;
    if (!(code >= 0 && code <= 9)) return -1; // also rejects NaN past the end
    value = value * 10 + code;
  }
  return value;
}

/** Two ASCII digits at `at` as a number, or -1. */
function twoDigits(text: string, at: number): number {
  const high = text.charCodeAt(at) - 48;
  const low = text.charCodeAt(at + 1) - 48;
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : -1;
}

/**
 * The common spelling (`2026-08-13T00:00:00[.fff[fff]][Z|±hh:mm]`) parsed directly into `out` ([day since the
 * epoch, microsecond of that day]), with the same result as the full `fromisoformat` port; returns false for
 * anything else (or out of range), which then takes the full path. Hand-rolled over char codes because it runs
 * once per timestamp of every fact.
 */
export function parseCanonicalIso(text: string, out: Float64Array): boolean {
  const length = text.length;
  if (length < 19 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84) {
    return false;
  }
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
  const century = twoDigits(text, 0);
  const yearOfCentury = twoDigits(text, 2);
  const year = century < 0 || yearOfCentury < 0 ? -1 : century * 100 + yearOfCentury;
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0) return false;
  if (minute > 59 || second < 0 || second > 59) return false;
  const leap = isLeap(year);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month])) return false;
  let at = 19;
  let fraction = 0;
  if (at < length && text.charCodeAt(at) === 46) {
    // Exactly three or six digits: a fourth digit means six.
    const six = at + 4 < length && text.charCodeAt(at + 4) >= 48 && text.charCodeAt(at + 4) <= 57;
    const end = at + (six ? 7 : 4);
    if (end > length) return false;
    const value = digits(text, at + 1, six ? 6 : 3);
    if (value < 0) return false;
    fraction = six ? value : value * 1000;
    at = end;
  }
  let offset = 0;
  if (at < length) {
    const sign = text.charCodeAt(at);
    if (sign === 90 && at + 1 === length) {
      // "Z": UTC.
    } else if ((sign === 43 || sign === 45) && at + 6 === length && text.charCodeAt(at + 3) === 58) {
      const hours = twoDigits(text, at + 1);
      const minutes = twoDigits(text, at + 4);
      if (hours < 0 || minutes < 0) return false;
      offset = (sign === 45 ? -1 : 1) * (hours * 3600 + minutes * 60) * 1_000_000;
      if (Math.abs(offset) >= MICROS_PER_DAY) return false;
    } else {
      return false;
    }
  }
  const y = year - 1;
  const ordinal = y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) +
    DAYS_BEFORE_MONTH[month] + (month > 2 && leap ? 1 : 0) + day;
  out[0] = ordinal - EPOCH_ORDINAL;
  out[1] = ((hour * 60 + minute) * 60 + second) * 1_000_000 + fraction - offset;
  return true;
}
