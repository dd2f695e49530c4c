/**
 * IEEE-754 bit patterns: the reference vectors give doubles as 16 hex digits so comparisons are exact.
 *
 * @module
 */

const view = new DataView(new ArrayBuffer(8));

/**
 * A double's bit pattern as 16 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { doubleToHex } from "./float_bits.ts";
 * deepStrictEqual(doubleToHex(0.7), "3fe6666666666666");
 * ```
 */
export function doubleToHex(value: number): string {
  view.setFloat64(0, value);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
}

/**
 * The double with the given 16-hex-digit bit pattern.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { hexToDouble } from "./float_bits.ts";
 * deepStrictEqual(hexToDouble("3fe6666666666666"), 0.7);
 * ```
 */
export function hexToDouble(hex: string): number {
  if (!/^[0-9a-f]{16}$/.test(hex)) throw new SyntaxError(`not a 16-hex-digit double: ${hex}`);
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

/**
 * The distance in units in the last place between two finite doubles of the same sign (0 when equal).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { ulpDistance } from "./float_bits.ts";
 * deepStrictEqual(ulpDistance(1, 1 + Number.EPSILON), 1);
 * ```
 */
export function ulpDistance(a: number, b: number): number {
  if (Object.is(a, b)) return 0;
  view.setFloat64(0, a);
  const left = view.getBigInt64(0);
  view.setFloat64(0, b);
  const right = view.getBigInt64(0);
  if ((left < 0n) !== (right < 0n)) return Infinity;
  const distance = left > right ? left - right : right - left;
  return Number(distance);
}
