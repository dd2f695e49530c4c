/**
 * The scenarios section: per scenario, both policies' correct answers and how often each kept the support,
 * at the QA capacity.
 *
 * @module
 */

import { type GradedRow, type PolicyPair, PUBLISHED_PAIR, qaSummaryGroups } from "../../qa/mod.ts";
import { fraction } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import type { ScenarioPoint } from "./run_report.ts";
import { scenarioKeys } from "./groups.ts";

/** Each `qa.summary.json` group (scenario × policy) with the number of its rows that kept the support. */
export function scenarioPoints(rows: readonly GradedRow[]): ScenarioPoint[] {
  return qaSummaryGroups(rows).map((group) => ({
    group,
    retained:
      rows.filter((row) =>
        row.source === group.source && row.scenario === group.scenario && row.policy === group.policy &&
        row.support_all_retained
      ).length,
  }));
}

/** The point of one scenario under one policy. */
export function scenarioPoint(
  points: readonly ScenarioPoint[],
  source: string,
  scenario: string,
  policy: string,
): ScenarioPoint {
  return points.find(({ group }) =>
    group.source === source && group.scenario === scenario && group.policy === policy
  )!;
}

/** The scenarios as a section: one row per scenario, both policies side by side. */
export function scenariosSection(
  points: readonly ScenarioPoint[],
  pair: PolicyPair = PUBLISHED_PAIR,
): Section {
  const [first, second] = pair;
  const rows = scenarioKeys(points.map(({ group }) => group)).map(([source, scenario]) => {
    const a = scenarioPoint(points, source, scenario, first);
    const b = scenarioPoint(points, source, scenario, second);
    return [
      source,
      scenario,
      String(a.group.cases),
      fraction(a.group.correct, a.group.cases),
      fraction(b.group.correct, b.group.cases),
      fraction(a.retained, a.group.cases),
      fraction(b.retained, b.group.cases),
    ];
  });
  return {
    id: "scenarios",
    title: "Scenarios",
    lines: [`correct answers (and support retained) per scenario, at the QA capacity`],
    tables: [table(
      ["source", "scenario", "cases", first, second, `retained ${first}`, `retained ${second}`],
      rows,
      [false, false, true, true, true, true, true],
    )],
  };
}
