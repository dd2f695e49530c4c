/** `pyjson-floats.jsonl`: Python's `repr(float)` and `json.dumps(float)` of a double given by its bits. */

import { dumps, floatRepr, PyFloat } from "../../py/mod.ts";
import type { FieldMismatch, VectorChecker } from "../compare.ts";
import { requireHexDouble, requireString } from "../_record.ts";

/**
 * Checks one float line: `repr` and `json`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkPyjsonFloat } from "./pyjson_floats.ts";
 * deepStrictEqual(checkPyjsonFloat({ bits: "3ff0000000000000", repr: "1.0", json: "1.0" }).mismatches, []);
 * ```
 */
export const checkPyjsonFloat: VectorChecker = (record) => {
  const bits = requireString(record, "bits");
  const value = requireHexDouble(bits, "bits");
  const mismatches: FieldMismatch[] = [];
  const repr = floatRepr(value);
  const json = dumps(new PyFloat(value));
  if (repr !== requireString(record, "repr")) {
    mismatches.push({ field: "repr", expected: record.repr, actual: repr });
  }
  if (json !== requireString(record, "json")) {
    mismatches.push({ field: "json", expected: record.json, actual: json });
  }
  return { mismatches, tier: "core", input: bits };
};
