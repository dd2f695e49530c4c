/** `evidence.jsonl`: a dataset row's rendered evidence, its answer text and length (or the refusal). */

import { InputError } from "../../base/mod.ts";
import { codePointLength } from "../../py/mod.ts";
import { answerText, renderEvidence } from "../../protocol/mod.ts";
import { differences, type VectorChecker } from "../compare.ts";
import { requireField } from "../_record.ts";

/**
 * Checks one evidence line; its row is read with Python's float/int distinction (see `PYTHON_FLOAT_FILES`).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { checkEvidence } from "./evidence.ts";
 * strictEqual(checkEvidence({ row: { question_id: "q1" }, expected: {} }).input, "question q1");
 * ```
 */
export const checkEvidence: VectorChecker = (record) => {
  const row = requireField(record, "row") as Record<string, unknown>;
  const expected = requireField(record, "expected");
  let actual: unknown;
  try {
    const content = renderEvidence(row);
    actual = { answer: answerText(row.answer ?? null), content, length: codePointLength(content) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    actual = { error: error.detail };
  }
  return {
    mismatches: differences(expected, actual),
    tier: "core",
    input: `question ${String(row.question_id)}`,
  };
};
