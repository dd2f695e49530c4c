/**
 * Stable LSD radix sorts over 16-bit digits, for the selector's large inputs (a million facts): positions by
 * descending score with ties by position, and positions by 32-bit key. Sequential memory; the comparison sort is
 * the fallback below {@linkcode RADIX_THRESHOLD} and for NaN.
 *
 * @module
 */

/** Below this many facts a comparison sort beats the radix passes. */
export const RADIX_THRESHOLD = 4096;

/**
 * Positions ordered by (−score, position) — the reference's `sorted(key=lambda i: (-score[i], i))`. Large inputs
 * use a stable LSD radix sort over the scores' IEEE-754 bits (−0 taken as +0, as Python compares them equal);
 * the comparison sort is the fallback for small inputs and for NaN.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { rankOrder } from "./_radix.ts";
 * deepStrictEqual([...rankOrder(new Float64Array([0.5, 0.9, 0.5]))], [1, 0, 2]);
 * ```
 */
export function rankOrder(scores: Float64Array): Uint32Array {
  const count = scores.length;
  let hasNaN = false;
  for (let index = 0; index < count; index++) {
    if (scores[index] !== scores[index]) {
      hasNaN = true;
      break;
    }
  }
  if (count < RADIX_THRESHOLD || hasNaN) {
    const order = Array.from({ length: count }, (_, index) => index);
    order.sort((a, b) => scores[b] - scores[a] || a - b);
    return Uint32Array.from(order);
  }
  return radixRankOrder(scores);
}

function radixRankOrder(scores: Float64Array): Uint32Array {
  const count = scores.length;
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const [lowWord, highWord] = littleEndian ? [0, 1] : [1, 0];
  const high = new Uint32Array(count);
  const low = new Uint32Array(count);
  for (let index = 0; index < count; index++) {
    bits[0] = scores[index] + 0; // −0 + 0 is +0
    let hi = words[highWord];
    let lo = words[lowWord];
    // Map the double to an unsigned key ascending with the value, then invert it for a descending order.
    if (hi & 0x80000000) {
      hi = ~hi;
      lo = ~lo;
    } else {
      hi = hi | 0x80000000;
    }
    high[index] = ~hi >>> 0;
    low[index] = ~lo >>> 0;
  }
  return radixOrder64(low, high);
}

/** Counting-sort passes over 16-bit digits: 65,536 counters, reset per pass. */
const DIGITS = 65536;

/**
 * A stable LSD radix sort of positions by 64-bit unsigned keys (`high`:`low`): positions in ascending key order,
 * ties in ascending position. Passes whose digit is the same for every key are skipped.
 */
function radixOrder64(low: Uint32Array<ArrayBuffer>, high: Uint32Array<ArrayBuffer>): Uint32Array {
  const count = low.length;
  let order = identity(count);
  let nextLow = new Uint32Array(count);
  let nextHigh = new Uint32Array(count);
  let nextOrder = new Uint32Array(count);
  const counts = new Uint32Array(DIGITS);
  for (let pass = 0; pass < 4; pass++) {
    const source = pass < 2 ? low : high;
    const shift = (pass & 1) * 16;
    if (!prefixCounts(source, shift, counts)) continue;
    if (pass < 2) {
      for (let index = 0; index < count; index++) {
        const target = counts[(low[index] >>> shift) & 0xffff]++;
        nextLow[target] = low[index];
        nextHigh[target] = high[index];
        nextOrder[target] = order[index];
      }
      [low, nextLow] = [nextLow, low];
    } else {
      // The low word has been used up; only the high word and the positions move on.
      scatter(high, order, shift, counts, nextHigh, nextOrder);
    }
    [high, nextHigh] = [nextHigh, high];
    [order, nextOrder] = [nextOrder, order];
  }
  return order;
}

/**
 * {@linkcode radixOrder64} for 32-bit keys; also returns the keys sorted.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { radixOrder32 } from "./_radix.ts";
 * const [order, sorted] = radixOrder32(new Uint32Array([3, 1, 2]));
 * deepStrictEqual([[...order], [...sorted]], [[1, 2, 0], [1, 2, 3]]);
 * ```
 */
export function radixOrder32(keys: Uint32Array<ArrayBuffer>): [Uint32Array, Uint32Array] {
  const count = keys.length;
  let order = identity(count);
  let nextKeys = new Uint32Array(count);
  let nextOrder = new Uint32Array(count);
  const counts = new Uint32Array(DIGITS);
  for (let shift = 0; shift < 32; shift += 16) {
    if (!prefixCounts(keys, shift, counts)) continue;
    scatter(keys, order, shift, counts, nextKeys, nextOrder);
    [keys, nextKeys] = [nextKeys, keys];
    [order, nextOrder] = [nextOrder, order];
  }
  return [order, keys];
}

/** The positions 0 … count − 1: the order before the first pass. */
function identity(count: number): Uint32Array<ArrayBuffer> {
  const order = new Uint32Array(count);
  for (let index = 0; index < count; index++) order[index] = index;
  return order;
}

/** One counting-sort pass: each key and its position moves to its digit's next slot in `nextKeys`, `nextOrder`. */
function scatter(
  keys: Uint32Array,
  order: Uint32Array,
  shift: number,
  counts: Uint32Array,
  nextKeys: Uint32Array,
  nextOrder: Uint32Array,
): void {
  const count = keys.length;
  for (let index = 0; index < count; index++) {
    const target = counts[(keys[index] >>> shift) & 0xffff]++;
    nextKeys[target] = keys[index];
    nextOrder[target] = order[index];
  }
}

/** Fills `counts` with each digit's first target slot; false when every key has the same digit. */
function prefixCounts(source: Uint32Array, shift: number, counts: Uint32Array): boolean {
  const count = source.length;
  counts.fill(0);
  for (let index = 0; index < count; index++) counts[(source[index] >>> shift) & 0xffff]++;
  if (counts[(source[0] >>> shift) & 0xffff] === count) return false;
  let total = 0;
  for (let digit = 0; digit < DIGITS; digit++) {
    const size = counts[digit];
    counts[digit] = total;
    total += size;
  }
  return true;
}
