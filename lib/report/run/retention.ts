/**
 * The retention-against-accuracy section: per suite and policy, accuracy on the cases whose support fact was
 * retained and on those where it was evicted — does retention explain the gain?
 *
 * @module
 */

import { type GradedRow, type PolicyPair, PUBLISHED_PAIR } from "../../qa/mod.ts";
import { rate } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import type { RetentionAccuracy } from "./run_report.ts";
import { SUITES } from "./suites.ts";

/** Per suite and policy: cases and correct answers with the support retained, and with it lost. */
export function retentionAccuracy(
  rows: readonly GradedRow[],
  pair: PolicyPair = PUBLISHED_PAIR,
): RetentionAccuracy[] {
  return SUITES.flatMap(([suite, member]) =>
    pair.map((policy) => {
      const mine = rows.filter((row) => member(row) && row.policy === policy);
      const part = (retained: boolean) => {
        const subset = mine.filter((row) => row.support_all_retained === retained);
        return { cases: subset.length, correct: subset.filter((row) => row.grade_correct).length };
      };
      return { suite, policy, retained: part(true), lost: part(false) };
    })
  );
}

/**
 * Retention against accuracy as a section: one row per suite and policy.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { retentionSection } from "./retention.ts";
 * const item = { suite: "official" as const, policy: "confidence", retained: { cases: 4, correct: 3 }, lost: { cases: 0, correct: 0 } };
 * deepStrictEqual(retentionSection([item]).tables[0].rows, [["official", "confidence", "4", "3", "0.750", "0", "0", "–"]]);
 * ```
 */
export function retentionSection(retention: readonly RetentionAccuracy[]): Section {
  return {
    id: "retention",
    title: "Retention against accuracy",
    lines: [
      "accuracy when the support fact was retained and when it was evicted: does retention explain the gain?",
    ],
    tables: [table(
      ["suite", "policy", "support retained", "correct", "accuracy", "support lost", "correct", "accuracy"],
      retention.map(({ suite, policy, retained, lost }) => [
        suite,
        policy,
        String(retained.cases),
        String(retained.correct),
        rate(retained.correct, retained.cases),
        String(lost.cases),
        String(lost.correct),
        rate(lost.correct, lost.cases),
      ]),
      [false, false, true, true, true, true, true, true],
    )],
  };
}
