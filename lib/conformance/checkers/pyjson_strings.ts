/** `pyjson-strings.jsonl`: Python's `json.dumps(str)`, plain and with `ensure_ascii`. */

import { dumpsString } from "../../py/mod.ts";
import type { FieldMismatch, VectorChecker } from "../compare.ts";
import { requireString, summarize } from "../_record.ts";

/**
 * Checks one string line: `dumps` and `dumps_ascii`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkPyjsonString } from "./pyjson_strings.ts";
 * deepStrictEqual(checkPyjsonString({ string: "é", dumps: '"é"', dumps_ascii: '"\\u00e9"' }).mismatches, []);
 * ```
 */
export const checkPyjsonString: VectorChecker = (record) => {
  const text = requireString(record, "string");
  const mismatches: FieldMismatch[] = [];
  const plain = dumpsString(text);
  const ascii = dumpsString(text, true);
  if (plain !== requireString(record, "dumps")) {
    mismatches.push({ field: "dumps", expected: record.dumps, actual: plain });
  }
  if (ascii !== requireString(record, "dumps_ascii")) {
    mismatches.push({ field: "dumps_ascii", expected: record.dumps_ascii, actual: ascii });
  }
  return { mismatches, tier: "core", input: summarize(text) };
};
