/**
 * The discordant-cases section: the cases the two policies grade differently, who won each, whether each
 * kept the support, both answers and the grade rules that decided them.
 *
 * @module
 */

import { compareCodePoints } from "../../base/mod.ts";
import { type GradedRow, type PolicyPair, PUBLISHED_PAIR } from "../../qa/mod.ts";
import { shorten } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import type { DiscordantCase } from "./run_report.ts";

/** The cases whose two rows are graded differently, by source, scenario and case id (code-point order). */
export function discordantCases(
  rows: readonly GradedRow[],
  pair: PolicyPair = PUBLISHED_PAIR,
): DiscordantCase[] {
  const [first, second] = pair;
  const byCase = new Map<string, Record<string, GradedRow>>();
  for (const row of rows) byCase.set(row.case_id, { ...byCase.get(row.case_id), [row.policy]: row });
  return [...byCase.entries()]
    .filter(([, pair]) => pair[first].grade_correct !== pair[second].grade_correct)
    .map(([caseId, pair]) => ({
      caseId,
      source: pair[first].source,
      scenario: pair[first].scenario,
      winner: pair[first].grade_correct ? first : second,
      rows: pair,
    }))
    .sort((a, b) =>
      compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
      compareCodePoints(a.caseId, b.caseId)
    );
}

/** The discordant cases as a section: how many each policy won, then one row per case. */
export function discordantSection(
  discordant: readonly DiscordantCase[],
  pair: PolicyPair = PUBLISHED_PAIR,
): Section {
  const [first, second] = pair;
  const wins = (policy: string) => discordant.filter((item) => item.winner === policy).length;
  const yesNo = (item: DiscordantCase, policy: string) =>
    item.rows[policy].support_all_retained ? "yes" : "no";
  const answer = (item: DiscordantCase, policy: string) =>
    shorten(item.rows[policy].prediction, 28) || "(empty)";
  return {
    id: "discordant",
    title: "Discordant cases",
    lines: [
      `${discordant.length} cases graded differently: ${wins(second)} won by ${second}, ${
        wins(first)
      } won by ${first}`,
      `support kept, answers and grade rules: ${first} / ${second}`,
    ],
    tables: [table(
      ["case", "scenario", "won by", "support kept", `${first} answer`, `${second} answer`, "grade rules"],
      discordant.map((item) => [
        item.caseId,
        item.scenario,
        item.winner,
        `${yesNo(item, first)} / ${yesNo(item, second)}`,
        answer(item, first),
        answer(item, second),
        `${item.rows[first].grade_rule} / ${item.rows[second].grade_rule}`,
      ]),
      [false, false, false, false, false, false, false],
    )],
  };
}
