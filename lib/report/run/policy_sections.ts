/**
 * A policy run's own sections: support retained per capacity, scenario and policy (with a total per
 * capacity), and the cases where the two policies keep different supports.
 *
 * @module
 */

import { POLICIES, type PolicyRawRow } from "../../policy/mod.ts";
import { compareCodePoints } from "../../base/mod.ts";
import { fraction } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import type { PolicyReport, SupportDifference } from "./run_report.ts";
import { capacitiesOf, policyGroup, runPolicies, scenarioKeys, supportKept } from "./groups.ts";

/**
 * Every case and capacity where exactly one policy kept every support fact, by source, scenario, case id
 * (code-point order) and capacity.
 */
export function supportDifferences(rows: readonly PolicyRawRow[]): SupportDifference[] {
  const [first, second] = POLICIES;
  const byKey = new Map<string, Record<string, PolicyRawRow>>();
  for (const row of rows) {
    const key = JSON.stringify([row.case_id, row.capacity]);
    byKey.set(key, { ...byKey.get(key), [row.policy]: row });
  }
  const differences: SupportDifference[] = [];
  for (const pair of byKey.values()) {
    const a = pair[first];
    const b = pair[second];
    if (a === undefined || b === undefined || a.support_all_retained === b.support_all_retained) continue;
    differences.push({
      caseId: a.case_id,
      source: a.source,
      scenario: a.scenario,
      capacity: a.capacity,
      keptBy: a.support_all_retained ? first : second,
    });
  }
  return differences.sort((a, b) =>
    compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
    compareCodePoints(a.caseId, b.caseId) || a.capacity - b.capacity
  );
}

/** Support retained as a section: per capacity, one row per scenario and a total over all cases. */
export function supportRetainedSection(report: Pick<PolicyReport, "groups" | "entries">): Section {
  const policies = runPolicies(report.groups);
  const scenarios = scenarioKeys(report.groups);
  const rows: string[][] = [];
  for (const capacity of capacitiesOf(report.groups)) {
    for (const key of scenarios) {
      const cell = (policy: string) => {
        const group = policyGroup(report.groups, capacity, key, policy);
        return group === undefined ? "–" : fraction(group.support_all_retained, group.cases);
      };
      rows.push([String(capacity), ...key, ...policies.map(cell)]);
    }
    const total = (policy: string) => {
      const { kept, cases } = supportKept(report.entries, capacity, policy);
      return fraction(kept, cases);
    };
    rows.push([String(capacity), "all", "all cases", ...policies.map(total)]);
  }
  return {
    id: "retention",
    title: "Support retained",
    lines: ["cases whose support fact was kept, per capacity, scenario and policy"],
    tables: [
      table(["capacity", "source", "scenario", ...policies], rows, [
        true,
        false,
        false,
        ...policies.map(() => true),
      ]),
    ],
  };
}

/**
 * The differences as a section: one row per case, the capacities at which only one policy kept the support.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { differencesSection } from "./policy_sections.ts";
 * const difference = { caseId: "q1", source: "longmemeval", scenario: "access_help", keptBy: "hybrid-v1" };
 * const section = differencesSection([{ ...difference, capacity: 5 }, { ...difference, capacity: 7 }]);
 * deepStrictEqual(section.tables[0].rows, [["q1", "access_help", "–", "5, 7"]]);
 * ```
 */
export function differencesSection(differences: readonly SupportDifference[]): Section {
  const [first, second] = POLICIES;
  const byCase = new Map<string, SupportDifference[]>();
  for (const difference of differences) {
    byCase.set(difference.caseId, [...(byCase.get(difference.caseId) ?? []), difference]);
  }
  const keptOnlyBy = (items: SupportDifference[], policy: string) =>
    items.filter((item) => item.keptBy === policy).map((item) => item.capacity).join(", ") || "–";
  return {
    id: "differences",
    title: "Cases where the policies keep different supports",
    lines: [`${byCase.size} cases, ${differences.length} case × capacity pairs`],
    tables: [table(
      ["case", "scenario", `kept only by ${first} at`, `kept only by ${second} at`],
      [...byCase.values()].map((items) => [
        items[0].caseId,
        items[0].scenario,
        keptOnlyBy(items, first),
        keptOnlyBy(items, second),
      ]),
      [false, false, true, true],
    )],
  };
}
