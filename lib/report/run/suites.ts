/**
 * The suites section: per suite (official, synthetic, overall) both policies' correct answers, the exact
 * McNemar test on the discordant pairs and the paired bootstrap difference with its interval.
 *
 * @module
 */

import { type GradedRow, type PolicyPair, PUBLISHED_PAIR, type QaStatsSuites } from "../../qa/mod.ts";
import { formatCount, formatP, formatSigned, fraction } from "../document/format.ts";
import { SUITE_ROWS } from "../../qa/mod.ts";
import { type Section, table } from "../document/model.ts";
import type { QaReport, SuiteReport } from "./run_report.ts";

/** The suites in report order, each with the rows it holds. */
export const SUITES: readonly (readonly [SuiteReport["name"], (row: GradedRow) => boolean])[] = [
  ["official", SUITE_ROWS.official],
  ["synthetic", SUITE_ROWS.synthetic],
  ["overall", SUITE_ROWS.overall],
];

/** Each suite's statistics, with the cases each policy answered correctly read off the McNemar counts. */
export function suiteReports(stats: QaStatsSuites, pair: PolicyPair = PUBLISHED_PAIR): SuiteReport[] {
  const [first, second] = pair;
  return SUITES.map(([name]) => {
    const { mcnemar } = stats[name];
    return {
      name,
      stats: stats[name],
      correct: {
        [first]: mcnemar.both_correct + mcnemar.only_first_correct,
        [second]: mcnemar.both_correct + mcnemar.only_second_correct,
      },
    };
  });
}

/** The suites as a section: one row per suite, the bootstrap's seed, iterations and level above the table. */
export function suitesSection(
  report: Pick<QaReport, "suites" | "bootstrap"> & Partial<Pick<QaReport, "policies">>,
): Section {
  const [first, second] = report.policies ?? PUBLISHED_PAIR;
  const { seed, iterations, alpha } = report.bootstrap;
  const level = Math.round((1 - alpha) * 100);
  const headers = [
    "suite",
    "cases",
    first,
    second,
    "discordant",
    `only ${first}`,
    `only ${second}`,
    "McNemar p",
    "difference",
    `${level}% interval`,
  ];
  const rows = report.suites.map(({ name, stats, correct }) => [
    name,
    String(stats.cases),
    fraction(correct[first], stats.cases),
    fraction(correct[second], stats.cases),
    String(stats.mcnemar.only_first_correct + stats.mcnemar.only_second_correct),
    String(stats.mcnemar.only_first_correct),
    String(stats.mcnemar.only_second_correct),
    // A suite with no cases has no statistics.
    ...(stats.cases === 0 ? ["–", "–", "–"] : [
      formatP(stats.mcnemar.p_value),
      formatSigned(stats.bootstrap.mean_difference),
      `[${formatSigned(stats.bootstrap.lower)}, ${formatSigned(stats.bootstrap.upper)}]`,
    ]),
  ]);
  return {
    id: "suites",
    title: "Suites",
    lines: [
      `${second} − ${first}: paired bootstrap, seed ${seed}, ${
        formatCount(iterations)
      } iterations, ${level}% percentile interval; exact two-sided McNemar on the discordant pairs`,
    ],
    tables: [table(headers, rows, [false, true, true, true, true, true, true, true, true, true])],
  };
}
