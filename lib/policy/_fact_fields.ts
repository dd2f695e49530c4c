/**
 * How the selector reads a fact's other fields as the reference does: the record itself, its id, its category
 * (correction or not, Python truthiness), access heat, and whether a usage sidecar can inherit entries.
 *
 * @module
 */

import { pyFloatOf, pyStr, pyStrip } from "../py/mod.ts";

/** A fact as the selector reads it. */
export type Record_ = Readonly<Record<string, unknown>>;

/** The fact itself; anything but a plain object is a `TypeError` naming its position. */
export function asRecord(fact: unknown, index: number): Record_ {
  if (fact === null || typeof fact !== "object" || Array.isArray(fact)) {
    throw new TypeError(`fact ${index} is not an object`);
  }
  return fact as Record_;
}

/** The id a fact is scored under: its `id` when a non-empty string, else `__missing_{index}`. */
export function factId(fact: Record_, index: number): string {
  const rawId = fact.id;
  return typeof rawId === "string" && rawId !== "" ? rawId : `__missing_${index}`;
}

/** Whether a category is `correction`, stripped and in any case (as `str(category).strip().lower()`). */
export function isCorrection(category: unknown): boolean {
  if (category === "correction") return true;
  return !isFalsy(category) && pyStrip(pyStr(category)).toLowerCase() === "correction";
}

/** Python truthiness of a JSON value. */
export function isFalsy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length === 0;
  return !value;
}

/** An access heat: Python `float()` of the value when finite and positive, else 0. */
export function heatValue(value: unknown): number {
  if (typeof value === "number") return value - value === 0 && value > 0 ? value : 0;
  return heatOfNonNumber(value);
}

function heatOfNonNumber(value: unknown): number {
  if (value === null || value === undefined || typeof value === "boolean") return 0;
  const number = pyFloatOf(value);
  if (number === undefined || !Number.isFinite(number) || number <= 0) return 0;
  return number;
}

/**
 * Whether the only object-valued property `record` can inherit is `__proto__`: its prototype is an untouched
 * `Object.prototype` (or none), whose other members are all functions.
 */
export function isPlainRecord(record: object): boolean {
  const prototype = Object.getPrototypeOf(record);
  if (prototype === null) return true;
  if (prototype !== Object.prototype) return false;
  return Object.getOwnPropertyNames(Object.prototype).every((name) => {
    if (name === "__proto__") return true;
    const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, name)!;
    return typeof descriptor.value === "function" || descriptor.get !== undefined;
  });
}
