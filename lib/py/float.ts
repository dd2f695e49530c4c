/**
 * Python's `float` where JavaScript has one number type: {@linkcode PyFloat} marks a number Python holds as a
 * float (so `1` prints as `1.0`), and {@linkcode floatRepr} is Python's `repr` of one.
 *
 * @module
 */

/**
 * A number that Python holds as a `float` (so `1` prints as `1.0`).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { dumps } from "./json_dumps.ts";
 * import { PyFloat } from "./float.ts";
 * strictEqual(dumps({ accuracy: new PyFloat(1) }), '{"accuracy": 1.0}');
 * strictEqual(dumps({ accuracy: 1 }), '{"accuracy": 1}');
 * ```
 */
export class PyFloat {
  /**
   * Wraps `value` so it serialises as a Python float.
   *
   * @param value The number.
   */
  constructor(readonly value: number) {}
  /** The plain number, for arithmetic. */
  valueOf(): number {
    return this.value;
  }
}

/**
 * Wraps a number as a Python float.
 *
 * @param value The number.
 * @returns The number as a {@linkcode PyFloat}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { dumps } from "./json_dumps.ts";
 * import { pyFloat } from "./float.ts";
 * strictEqual(dumps(pyFloat(0)), "0.0");
 * strictEqual(pyFloat(2.5).value, 2.5);
 * ```
 */
export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

/**
 * Python's `repr(float)`: the shortest round-tripping digits, fixed notation when the decimal exponent is in
 * [-4, 16), scientific (`1e-05`, `1e+16`) otherwise, `.0` added to integral values.
 *
 * @param value The number.
 * @returns Its Python `repr`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { floatRepr } from "./float.ts";
 * strictEqual(floatRepr(0.1 + 0.2), "0.30000000000000004");
 * strictEqual(floatRepr(1e16), "1e+16");
 * strictEqual(floatRepr(0.00001), "1e-05");
 * strictEqual(floatRepr(3), "3.0");
 * ```
 */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    // Here both languages print the shortest round-trip digits in positional notation; Python adds ".0".
    const text = String(value);
    return text.includes(".") ? text : `${text}.0`;
  }
  const sign = value < 0 ? "-" : "";
  // toExponential() with no argument yields the shortest round-trip digits, like Python's repr.
  const [mantissa, exponentText] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  const pointPosition = exponent + 1;
  if (pointPosition > -4 && pointPosition <= 16) {
    if (pointPosition <= 0) return `${sign}0.${"0".repeat(-pointPosition)}${digits}`;
    if (pointPosition >= digits.length) {
      return `${sign}${digits}${"0".repeat(pointPosition - digits.length)}.0`;
    }
    return `${sign}${digits.slice(0, pointPosition)}.${digits.slice(pointPosition)}`;
  }
  const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const exponentSign = exponent < 0 ? "-" : "+";
  return `${sign}${head}e${exponentSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}
