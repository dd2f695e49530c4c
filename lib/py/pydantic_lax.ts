/**
 * Pydantic 2's lax-mode conversions, which the reference's config and manifest models apply (its conversion
 * table): an `int` field takes an integer, an integral float, a bool, or a string of ASCII digits (with `_`
 * between digits and an optional `.0…` tail, surrounding whitespace stripped); a `float` field takes a number,
 * a bool, or a numeric string (`inf`, `nan`, `1e400` included); a `bool` field takes a bool, 0/1, or one of
 * `0 off f false n no 1 on t true y yes` in any case; a `str` field takes only a string; `Literal[1]` takes 1,
 * 1.0 or True. YAML integers arrive as `bigint` (py/yaml.ts) and stay exact where a field needs it.
 *
 * Follows pydantic 2.13 (pydantic-core's lax-mode validators for `int`, `float`, `bool`, `str` and `Literal`), the
 * version the reference harness pins.
 *
 * @module
 */

import * as z from "../base/zod.ts";
import { PY_INT_MAX_STR_DIGITS, PyFloat } from "./json.ts";
import { parsePyFloat, pyStrip } from "./builtins.ts";

const INT_TEXT = /^[+-]?[0-9]+(?:_[0-9]+)*(?:\.0+)?$/;
const BOOL_TRUE = new Set(["1", "on", "t", "true", "y", "yes"]);
const BOOL_FALSE = new Set(["0", "off", "f", "false", "n", "no"]);

/** Pydantic's lax `int`: the exact integer, or a message saying why not. */
export function laxIntValue(value: unknown): bigint | string {
  if (typeof value === "bigint") return value;
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (value instanceof PyFloat) value = value.value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "must be a finite number";
    if (!Number.isInteger(value)) return "must be an integer, got a number with a fractional part";
    return BigInt(value);
  }
  if (typeof value === "string") {
    const text = pyStrip(value);
    if (!INT_TEXT.test(text)) return "must be an integer, unable to parse string as an integer";
    // pydantic-core's str_as_int: a string over 4,300 bytes is refused before it is read, as int() refuses it.
    if (text.length > PY_INT_MAX_STR_DIGITS) {
      return "must be an integer, unable to parse input string as an integer, exceeded maximum size";
    }
    return BigInt(text.replace(/\.0+$/, "").replaceAll("_", ""));
  }
  return "must be an integer";
}

/** Pydantic's lax `float`, or a message. */
export function laxFloatValue(value: unknown): number | string {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "bigint") {
    const number = Number(value);
    return Number.isFinite(number) ? number : "must be a valid number";
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") {
    // Python's float() syntax, but ASCII digits only (pydantic refuses "１"); whitespace stripped as str.strip().
    const text = pyStrip(value);
    const parsed = /^[\x21-\x7e]*$/.test(text) ? parsePyFloat(text) : undefined;
    return parsed ?? "must be a number, unable to parse string as a number";
  }
  return "must be a number";
}

/** Pydantic's lax `bool`, or a message. */
export function laxBoolValue(value: unknown): boolean | string {
  if (typeof value === "boolean") return value;
  const number = typeof value === "bigint" ? Number(value) : value instanceof PyFloat ? value.value : value;
  if (number === 0 || number === 1) return number === 1;
  if (typeof value === "string") {
    const text = value.toLowerCase();
    if (BOOL_TRUE.has(text)) return true;
    if (BOOL_FALSE.has(text)) return false;
  }
  return "must be a boolean";
}

/** Reports `message` as the field's issue (zod/mini's transforms have no `addIssue`). */
function fail(context: z.core.ParsePayload, message: string): never {
  context.issues.push({ code: "custom", message, input: context.value });
  return z.NEVER;
}

/** A field that `convert` turns into its value, or into a message saying why not. */
function converted<T, I = unknown>(convert: (value: I) => T | string): z.ZodMiniType<T, I> {
  return z.transform((value: I, context) => {
    const result = convert(value);
    return typeof result === "string" ? fail(context, result) : result;
  }) as z.ZodMiniType<T, I>;
}

/** Options of {@linkcode laxInt}. */
export interface IntBounds {
  min?: number;
  max?: number;
  /** The message when out of bounds. */
  message?: string;
}

/**
 * A lax `int` field as a JS number, checked against bounds (exactly, before conversion).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { laxInt } from "./pydantic_lax.ts";
 * deepStrictEqual([laxInt({ min: 1 }).parse(" 7 "), laxInt().parse(7.0), laxInt().parse(true)], [7, 7, 1]);
 * ```
 */
export function laxInt(bounds: IntBounds = {}): z.ZodMiniType<number, unknown> {
  const { min, max } = bounds;
  return z.pipe(
    laxBigInt(),
    converted((value: bigint) => {
      const below = min !== undefined && value < BigInt(min);
      if (below || (max !== undefined && value > BigInt(max))) {
        return bounds.message ?? (below ? `must be ≥ ${min}` : `must be ≤ ${max}`);
      }
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
        return "is too large (beyond 2^53)";
      }
      return Number(value);
    }),
  );
}

/**
 * A lax `int` field of any size, as a bigint (e.g. a bootstrap seed).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { laxBigInt } from "./pydantic_lax.ts";
 * deepStrictEqual(laxBigInt().parse("18446744073709551621"), 18446744073709551621n);
 * ```
 */
export function laxBigInt(): z.ZodMiniType<bigint, unknown> {
  return converted(laxIntValue);
}

/**
 * A lax `float` field.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { laxFloat } from "./pydantic_lax.ts";
 * deepStrictEqual([laxFloat().parse("0.05"), laxFloat().parse(false)], [0.05, 0]);
 * ```
 */
export function laxFloat(): z.ZodMiniType<number, unknown> {
  return converted(laxFloatValue);
}

/**
 * A lax `bool` field.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { laxBool } from "./pydantic_lax.ts";
 * deepStrictEqual([laxBool().parse("off"), laxBool().parse(1n)], [false, true]);
 * ```
 */
export function laxBool(): z.ZodMiniType<boolean, unknown> {
  return converted(laxBoolValue);
}

/**
 * `Literal[n]` for an integer n, as pydantic's lax mode checks it: n, n.0 or the bool equal to n; not a string.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { laxIntLiteral } from "./pydantic_lax.ts";
 * deepStrictEqual(laxIntLiteral(1).parse(true), 1);
 * ```
 */
export function laxIntLiteral<N extends number>(literal: N): z.ZodMiniType<N, unknown> {
  return converted((value) => {
    const number = typeof value === "bigint"
      ? Number(value)
      : typeof value === "boolean"
      ? Number(value)
      : value instanceof PyFloat
      ? value.value
      : value;
    return number === literal ? literal : `must be ${literal}`;
  });
}
