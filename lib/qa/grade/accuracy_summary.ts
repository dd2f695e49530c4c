/**
 * `qa.summary.json`: accuracy by source, scenario and policy — official and synthetic never folded together.
 *
 * @module
 */

import { compareCodePoints, groupBy } from "../../base/mod.ts";
import type { ProtocolConfig } from "../../protocol/mod.ts";
import { dumps, PyFloat } from "../../py/mod.ts";
import type { GradedRow } from "./graded_rows.ts";
import { GRADER_VERSION } from "./grading.ts";

/** One `qa.summary.json` group: accuracy of one policy on one (source, scenario). */
export interface QaSummaryGroup {
  accuracy: number;
  cases: number;
  correct: number;
  policy: string;
  scenario: string;
  source: string;
}

/**
 * The groups of `qa.summary.json` as values: accuracy per (source, scenario, policy), sorted by those keys.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { qaSummaryGroups } from "./accuracy_summary.ts";
 * import { graded } from "./_samples.ts";
 * const groups = qaSummaryGroups([graded("q1", "hybrid-v1", true, "longmemeval"), graded("q2", "hybrid-v1", false, "longmemeval")]);
 * deepStrictEqual(groups, [{ accuracy: 0.5, cases: 2, correct: 1, policy: "hybrid-v1", scenario: "access_help", source: "longmemeval" }]);
 * ```
 */
export function qaSummaryGroups(rows: readonly GradedRow[]): QaSummaryGroup[] {
  const groups = groupBy(rows, (row) => [row.source, row.scenario, row.policy]);
  return groups.map((members) => {
    const correct = members.filter((member) => member.grade_correct).length;
    return {
      accuracy: correct / members.length,
      cases: members.length,
      correct,
      policy: members[0].policy,
      scenario: members[0].scenario,
      source: members[0].source,
    };
  }).sort((a, b) =>
    compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
    compareCodePoints(a.policy, b.policy)
  );
}

/**
 * `qa.summary.json`: accuracy per (source, scenario, policy), sorted by those keys.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { qaSummary } from "./accuracy_summary.ts";
 * import { graded } from "./_samples.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const summary = JSON.parse(qaSummary([graded("q1", "confidence", true, "synthetic")], config));
 * strictEqual(summary.qa_capacity, 7);
 * strictEqual(summary.groups[0].accuracy, 1);
 * ```
 */
export function qaSummary(rows: readonly GradedRow[], config: ProtocolConfig): string {
  const summary = qaSummaryGroups(rows).map((group) => ({ ...group, accuracy: new PyFloat(group.accuracy) }));
  return dumps({
    grader_version: GRADER_VERSION,
    groups: summary,
    protocol_id: config.protocol_id,
    qa_capacity: config.pool.qa_capacity,
    schema_version: 1,
  }, { indent: 2 }) + "\n";
}
