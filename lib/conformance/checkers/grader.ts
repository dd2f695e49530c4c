/** `grader.jsonl`: the answer grader's verdict (or its error) and both normalized texts. */

import { gradeAnswer, normalizeAnswer } from "../../qa/mod.ts";
import { differences, type VectorChecker } from "../compare.ts";
import { requireField, requireString, summarize } from "../_record.ts";

/**
 * Checks one grader line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkGrader } from "./grader.ts";
 * const normalized = { normalized_prediction: ["7", "weeks"], normalized_reference: ["7", "weeks"] };
 * const line = { prediction: "Seven WEEKS!", reference: "7 weeks", expected: { correct: true, rule: "exact" }, ...normalized };
 * deepStrictEqual(checkGrader(line).mismatches, []);
 * ```
 */
export const checkGrader: VectorChecker = (record) => {
  const prediction = requireString(record, "prediction");
  const reference = requireString(record, "reference");
  const expected = {
    expected: requireField(record, "expected"),
    normalized_prediction: requireField(record, "normalized_prediction"),
    normalized_reference: requireField(record, "normalized_reference"),
  };
  let verdict: unknown;
  try {
    verdict = gradeAnswer(prediction, reference);
  } catch (error) {
    verdict = { error: (error as Error).message };
  }
  const actual = {
    expected: verdict,
    normalized_prediction: normalizeAnswer(prediction),
    normalized_reference: normalizeAnswer(reference),
  };
  return {
    mismatches: differences(expected, actual),
    tier: "core",
    input: `${summarize(prediction, 30)} vs ${summarize(reference, 30)}`,
  };
};
