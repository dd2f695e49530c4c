/**
 * A policy run's own sections: support retained per capacity, scenario and policy (with a total per
 * capacity), and the cases where the policies keep different supports.
 *
 * @module
 */

import type { PolicyRawRow } from "../../policy/mod.ts";
import { compareCodePoints } from "../../base/mod.ts";
import { fraction } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import type { PolicyReport, SupportDifference } from "./run_report.ts";
import { capacitiesOf, policyGroup, runPolicies, scenarioKeys, supportKept } from "./groups.ts";

/**
 * Every case and capacity where the run's policies (the published two, and a module's) do not all keep every
 * support fact, once for each policy that kept it, by source, scenario, case id (code-point order), capacity and
 * policy (the run's order). With two policies that is the one that kept it.
 */
export function supportDifferences(rows: readonly PolicyRawRow[]): SupportDifference[] {
  const policies = runPolicies(rows);
  const byPair = Map.groupBy(rows, (row) => JSON.stringify([row.case_id, row.capacity]));
  const differences: SupportDifference[] = [];
  for (const pair of byPair.values()) {
    if (new Set(pair.map((row) => row.support_all_retained)).size < 2) continue;
    for (const row of pair.filter((row) => row.support_all_retained)) {
      const { case_id: caseId, source, scenario, capacity } = row;
      differences.push({ caseId, source, scenario, capacity, keptBy: row.policy });
    }
  }
  return differences.sort((a, b) =>
    compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
    compareCodePoints(a.caseId, b.caseId) || a.capacity - b.capacity ||
    policies.indexOf(a.keptBy) - policies.indexOf(b.keptBy)
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
 * The differences as a section: one row per case, for each of the run's `policies` the capacities at which it
 * kept the support and another policy did not.
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
export function differencesSection(
  differences: readonly SupportDifference[],
  policies: readonly string[] = runPolicies(differences.map((item) => ({ policy: item.keptBy }))),
): Section {
  const byCase = new Map<string, SupportDifference[]>();
  for (const difference of differences) {
    byCase.set(difference.caseId, [...(byCase.get(difference.caseId) ?? []), difference]);
  }
  const keptBy = (items: SupportDifference[], policy: string) =>
    items.filter((item) => item.keptBy === policy).map((item) => item.capacity).join(", ") || "–";
  const pairs = new Set(differences.map((item) => `${item.caseId} ${item.capacity}`)).size;
  // Two policies differ where one alone kept it; with a module's, a column says where each kept it and another not.
  const heading = policies.length === 2 ? "kept only by" : "kept by";
  return {
    id: "differences",
    title: "Cases where the policies keep different supports",
    lines: [`${byCase.size} cases, ${pairs} case × capacity pairs`],
    tables: [table(
      ["case", "scenario", ...policies.map((policy) => `${heading} ${policy} at`)],
      [...byCase.values()].map((items) => [
        items[0].caseId,
        items[0].scenario,
        ...policies.map((policy) => keptBy(items, policy)),
      ]),
      [false, false, ...policies.map(() => true)],
    )],
  };
}
