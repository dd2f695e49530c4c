/**
 * Comparing a vector line's expected values with this build's: the verdict a checker returns, the differing
 * fields (every leaf compared with `Object.is`), and how many ulps apart two hex doubles are.
 *
 * @module
 */

import { hexToDouble, ulpDistance } from "./float_bits.ts";

/** `core` lines must agree; `exotic` ones are reported and only fail under `--strict`. */
export type Tier = "core" | "exotic";

/** One field of one line that disagrees. */
export interface FieldMismatch {
  field: string;
  expected: unknown;
  actual: unknown;
}

/** The verdict on one vector line. */
export interface LineVerdict {
  mismatches: FieldMismatch[];
  tier: Tier;
  /** A short description of the input, for reports. */
  input: string;
}

/** Checks one parsed vector line; throws a `VectorFormatError` when the line lacks a field. */
export type VectorChecker = (record: Record<string, unknown>) => LineVerdict;

/** A {@linkcode VectorChecker} that hashes, so answers later (WebCrypto's digest is asynchronous). */
export type AsyncVectorChecker = (record: Record<string, unknown>) => Promise<LineVerdict>;

/**
 * The leaves where `actual` differs from `expected`, by dotted path (`[i]` for array items, `value` for the
 * root); arrays of different lengths, and values of different kinds, differ as a whole.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { differences } from "./compare.ts";
 * deepStrictEqual(differences({ a: [1, 2], b: "x" }, { a: [1, 3], b: "x" }), [
 *   { field: "a[1]", expected: 2, actual: 3 },
 * ]);
 * deepStrictEqual(differences(NaN, NaN), []); // compared with Object.is
 * ```
 */
export function differences(expected: unknown, actual: unknown): FieldMismatch[] {
  const found: FieldMismatch[] = [];
  collectDifferences(expected, actual, "", (difference) => found.push(difference));
  return found;
}

function collectDifferences(
  expected: unknown,
  actual: unknown,
  path: string,
  report: (difference: FieldMismatch) => void,
): void {
  if (Object.is(expected, actual)) return;
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    expected.forEach((item, index) => collectDifferences(item, actual[index], `${path}[${index}]`, report));
    return;
  }
  if (
    expected !== null && actual !== null && typeof expected === "object" && typeof actual === "object" &&
    !Array.isArray(expected) && !Array.isArray(actual)
  ) {
    const left = expected as Record<string, unknown>;
    const right = actual as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
    for (const key of keys) {
      collectDifferences(left[key], right[key], path === "" ? key : `${path}.${key}`, report);
    }
    return;
  }
  report({ field: path === "" ? "value" : path, expected, actual });
}

const HEX_DOUBLE = /^[0-9a-f]{16}$/;

/**
 * The ulp distance when both sides of a mismatch are 16-hex-digit doubles, else undefined.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ulpsApart } from "./compare.ts";
 * strictEqual(ulpsApart({ field: "y", expected: "3fe6666666666666", actual: "3fe6666666666668" }), 2);
 * strictEqual(ulpsApart({ field: "y", expected: 1, actual: 2 }), undefined);
 * ```
 */
export function ulpsApart(mismatch: FieldMismatch): number | undefined {
  const { expected, actual } = mismatch;
  if (typeof expected !== "string" || typeof actual !== "string") return undefined;
  if (!HEX_DOUBLE.test(expected) || !HEX_DOUBLE.test(actual)) return undefined;
  return ulpDistance(hexToDouble(expected), hexToDouble(actual));
}
