/** `offsets.jsonl`: each case's distractor offset, hashed from the namespace and the case id. */

import { distractorOffset } from "../../protocol/mod.ts";
import type { AsyncVectorChecker } from "../compare.ts";
import { requireField, requireString } from "../_record.ts";

/**
 * Checks one offset line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { distractorOffset } from "../../protocol/cases.ts";
 * import { checkOffset } from "./offsets.ts";
 * const offset = await distractorOffset("ns", "c1", 100);
 * deepStrictEqual((await checkOffset({ namespace: "ns", case_id: "c1", bank_size: 100, offset })).mismatches, []);
 * ```
 */
export const checkOffset: AsyncVectorChecker = async (record) => {
  const namespace = requireString(record, "namespace");
  const caseId = requireString(record, "case_id");
  const bankSize = requireField(record, "bank_size") as number;
  const expected = requireField(record, "offset");
  const actual = await distractorOffset(namespace, caseId, bankSize);
  return {
    mismatches: actual === expected ? [] : [{ field: "offset", expected, actual }],
    tier: "core",
    input: `${namespace}:${caseId} mod ${bankSize}`,
  };
};
