/**
 * `report CANDIDATE_RUN --against results/pr4789-reproduction-v1`: a candidate run beside the published run on
 * the cases both hold — per suite the candidate's accuracy and the published `hybrid-v1`'s and `confidence`'s,
 * and every case where the candidate's row differs from a published one in support kept, prediction or grade.
 *
 * @module
 */

import { compareCodePoints, InputError } from "../../base/mod.ts";
import {
  type BootstrapResult,
  exactMcnemar,
  type GradedRow,
  type McnemarResult,
  type Pair,
  pairedBootstrapDifference,
  PUBLISHED_PAIR,
} from "../../qa/mod.ts";
import type { ProtocolConfig } from "../../protocol/mod.ts";
import { formatCount, formatP, formatSigned, fraction, shorten } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import type { QaReport } from "../run/run_report.ts";
import { SUITES } from "../run/suites.ts";
import { suiteName } from "../run/names.ts";

/** One suite: the candidate's correct answers and each published policy's, on the cases both runs hold. */
export interface PublishedSuite {
  name: string;
  cases: number;
  candidate: number;
  /** Correct answers per published policy. */
  published: Record<string, number>;
  /**
   * Per published policy, the paired statistics of the candidate against it on this suite's shared cases
   * (McNemar's first is the published policy; the difference is the candidate minus it); none without cases.
   */
  paired: Record<string, { mcnemar: McnemarResult; bootstrap: BootstrapResult } | undefined>;
}

/** A case where the candidate's row differs from a published one. */
export interface PublishedDifference {
  caseId: string;
  scenario: string;
  candidate: GradedRow;
  /** The published rows, by policy. */
  published: Record<string, GradedRow>;
  /** Why, per published policy it differs from: `support`, `prediction`, `grade`. */
  why: Record<string, string[]>;
}

/** The candidate run against the published run. */
export interface PublishedComparison {
  directory: string;
  other: string;
  candidate: string;
  baseline: string;
  suites: PublishedSuite[];
  differences: PublishedDifference[];
  /** Cases both runs hold. */
  cases: number;
  /** Of them, those whose baseline row has the published prediction and grade for that policy. */
  baselineAsPublished: number;
  /** The bootstrap's settings (the protocol's). */
  statistics: ProtocolConfig["statistics"];
  /** Whether the other run is the published run (its rows the published ones): only then is it called so. */
  published: boolean;
}

/**
 * How the other run and its rows are named: "the published run" and its "published" rows, or "run B" and
 * "B's" rows (`theRows` in a sentence, `rows` in a table).
 */
function namesOf(comparison: PublishedComparison): { run: string; rows: string; theRows: string } {
  const other = `${comparison.other}'s`;
  return comparison.published
    ? { run: "the published run", rows: "published", theRows: "the published" }
    : { run: `run ${comparison.other}`, rows: other, theRows: other };
}

function differences(mine: GradedRow, theirs: GradedRow): string[] {
  const why: string[] = [];
  if (mine.support_all_retained !== theirs.support_all_retained) why.push("support");
  if (mine.prediction !== theirs.prediction) why.push("prediction");
  if (mine.grade_correct !== theirs.grade_correct) why.push("grade");
  return why;
}

/**
 * Compares a candidate run's rows with the published run's on the cases both hold; refuses when they share none.
 *
 * @param candidateRun The candidate run's report (its directory and the two policies it compares).
 * @param candidateRows Its graded rows.
 * @param other The published run's directory, for the heading.
 * @param publishedRows The published run's graded rows (the published pair).
 * @param statistics The protocol's bootstrap settings, for the paired statistics on the shared cases.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { demoGradedRun } from "../../qa/mod.ts";
 * import { comparePublished } from "./against_published.ts";
 * const { rows, contracts } = await demoGradedRun(); // the published pair on the demo protocol
 * const candidateRows = rows.map((row) => row.policy === "confidence" ? row : { ...row, policy: "copy", row_id: `${row.case_id}__copy` });
 * const comparison = comparePublished({ directory: "run", policies: ["confidence", "copy"] }, candidateRows, "published", rows, contracts.config.statistics);
 * strictEqual(comparison.differences.filter((item) => item.why["hybrid-v1"].length > 0).length, 0); // hybrid-v1's rows, renamed
 * strictEqual(comparison.baselineAsPublished, comparison.cases);
 * strictEqual(comparison.suites[2].paired["hybrid-v1"]?.mcnemar.p_value, 1); // the same answers: no discordant pair
 * ```
 */
export function comparePublished(
  candidateRun: Pick<QaReport, "directory" | "policies">,
  candidateRows: readonly GradedRow[],
  other: string,
  publishedRows: readonly GradedRow[],
  statistics: ProtocolConfig["statistics"],
  published = true,
): PublishedComparison {
  const [baseline, candidate] = candidateRun.policies;
  const byCase = (rows: readonly GradedRow[]) => {
    const map = new Map<string, Record<string, GradedRow>>();
    for (const row of rows) map.set(row.case_id, { ...map.get(row.case_id), [row.policy]: row });
    return map;
  };
  const mine = byCase(candidateRows);
  const theirs = byCase(publishedRows);
  const common = [...mine.keys()].filter((caseId) => theirs.has(caseId)).sort(compareCodePoints);
  if (common.length === 0) {
    throw new InputError(
      "holds none of this run's cases: a candidate is compared with the published run on the same cases " +
        "(run it under the published protocol)",
      { path: other },
    );
  }
  const suites = SUITES.map(([name, member]) => {
    const cases = common.filter((caseId) => member(mine.get(caseId)![candidate]));
    const correct = (rows: Map<string, Record<string, GradedRow>>, policy: string) =>
      cases.filter((caseId) => rows.get(caseId)![policy].grade_correct).length;
    // The published policy first, the candidate second: the difference is the candidate minus it.
    const paired = (policy: string) => {
      if (cases.length === 0) return undefined;
      const pairs: Pair[] = cases.map((caseId) => [
        theirs.get(caseId)![policy].grade_correct,
        mine.get(caseId)![candidate].grade_correct,
      ]);
      const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = statistics;
      return {
        mcnemar: exactMcnemar(pairs),
        bootstrap: pairedBootstrapDifference(pairs, { seed, iterations, alpha }),
      };
    };
    return {
      name,
      cases: cases.length,
      candidate: correct(mine, candidate),
      published: Object.fromEntries(PUBLISHED_PAIR.map((policy) => [policy, correct(theirs, policy)])),
      paired: Object.fromEntries(PUBLISHED_PAIR.map((policy) => [policy, paired(policy)])),
    };
  });
  const found: PublishedDifference[] = [];
  let baselineAsPublished = 0;
  for (const caseId of common) {
    const row = mine.get(caseId)![candidate];
    const published = theirs.get(caseId)!;
    const base = mine.get(caseId)![baseline];
    const same = published[baseline];
    if (base.prediction === same.prediction && base.grade_correct === same.grade_correct) {
      baselineAsPublished++;
    }
    const why = Object.fromEntries(
      PUBLISHED_PAIR.map((policy) => [policy, differences(row, published[policy])]),
    );
    if (Object.values(why).some((reasons) => reasons.length > 0)) {
      found.push({ caseId, scenario: row.scenario, candidate: row, published, why });
    }
  }
  return {
    directory: candidateRun.directory,
    other,
    candidate,
    baseline,
    suites,
    differences: found,
    cases: common.length,
    baselineAsPublished,
    statistics,
    published,
  };
}

/** Compares both runs' graded rows: the ones their checks ran on (both verified, neither read again). */
export function readPublishedComparison(
  candidateRun: QaReport,
  published: QaReport,
  statistics: ProtocolConfig["statistics"],
  isPublished = true,
): PublishedComparison {
  return comparePublished(
    candidateRun,
    candidateRun.rows,
    published.directory,
    published.rows,
    statistics,
    isPublished,
  );
}

/** The heading of the comparison. */
export function publishedComparisonHeading(comparison: PublishedComparison): string {
  const against = comparison.published ? `the published run ${comparison.other}` : `run ${comparison.other}`;
  return `deermem-eval report: ${comparison.directory} (candidate ${comparison.candidate}) against ${against}`;
}

/** The paired statistics on the shared cases: per suite and published policy, McNemar and the bootstrap. */
function pairedSection(comparison: PublishedComparison): Section {
  const { candidate, cases, statistics } = comparison;
  const theirs = namesOf(comparison).rows;
  const level = Math.round((1 - statistics.alpha) * 100);
  const rows = comparison.suites.flatMap((suite) =>
    [PUBLISHED_PAIR[1], PUBLISHED_PAIR[0]].map((policy) => {
      const paired = suite.paired[policy];
      const cells = paired === undefined ? ["–", "–", "–", "–"] : [
        `${paired.mcnemar.only_second_correct} / ${paired.mcnemar.only_first_correct}`,
        formatP(paired.mcnemar.p_value),
        formatSigned(paired.bootstrap.mean_difference),
        `[${formatSigned(paired.bootstrap.lower)}, ${formatSigned(paired.bootstrap.upper)}]`,
      ];
      return [suiteName(suite.name), String(suite.cases), `${theirs} ${policy}`, ...cells];
    })
  );
  return {
    id: "published-paired",
    title: "Paired statistics on the shared cases",
    lines: [
      `${candidate} against each ${
        comparison.published ? "published policy" : `policy of ${comparison.other}`
      } on the ${cases} cases both runs hold: exact two-sided McNemar on the discordant pairs, the paired bootstrap difference (${candidate} − ${theirs}, seed ${statistics.bootstrap_seed}, ${
        formatCount(statistics.bootstrap_iterations)
      } iterations) with its ${level}% percentile interval`,
    ],
    tables: [table(
      [
        "suite",
        "shared cases",
        "against",
        `only ${candidate} / only ${theirs}`,
        "McNemar p",
        "difference",
        `${level}% interval`,
      ],
      rows,
      [false, true, false, true, true, true, true],
    )],
  };
}

/** The comparison as sections: the suites side by side, then the rows that differ and why. */
export function publishedComparisonSections(comparison: PublishedComparison): Section[] {
  const { candidate, baseline, cases } = comparison;
  const names = namesOf(comparison);
  const theirs = names.rows;
  const sentence = names.theRows;
  const [first, second] = PUBLISHED_PAIR;
  const suites = comparison.suites.map((suite) => [
    suiteName(suite.name),
    String(suite.cases),
    fraction(suite.candidate, suite.cases),
    fraction(suite.published[second], suite.cases),
    fraction(suite.published[first], suite.cases),
    formatSigned(suite.cases === 0 ? 0 : (suite.candidate - suite.published[second]) / suite.cases),
    formatSigned(suite.cases === 0 ? 0 : (suite.candidate - suite.published[first]) / suite.cases),
  ]);
  const kept = (row: GradedRow) => row.support_all_retained ? "yes" : "no";
  const grade = (row: GradedRow) => row.grade_correct ? "correct" : "wrong";
  const why = (item: PublishedDifference) =>
    [second, first].map((policy) => `${policy}: ${item.why[policy].join(", ") || "same"}`).join("; ");
  const count = (policy: string) =>
    comparison.differences.filter((item) => item.why[policy].length > 0).length;
  return [
    {
      id: "published-suites",
      title: `Suites beside ${names.run}`,
      lines: [
        `${cases} cases in both runs; correct answers of ${candidate} here and of ${sentence} ${second} and ` +
        `${first} on them`,
        `the baseline ${baseline} here has ${sentence} prediction and grade on ${comparison.baselineAsPublished} ` +
        `of ${cases} cases`,
      ],
      tables: [table(
        [
          "suite",
          "cases",
          candidate,
          `${theirs} ${second}`,
          `${theirs} ${first}`,
          `− ${second}`,
          `− ${first}`,
        ],
        suites,
        [false, true, true, true, true, true, true],
      )],
    },
    pairedSection(comparison),
    {
      id: "published-rows",
      title: comparison.published
        ? "Rows that differ from the published ones"
        : `Rows that differ from ${theirs}`,
      lines: [
        `${candidate} differs from ${sentence} ${second} on ${count(second)} cases and from ${first} on ` +
        `${count(first)} (support kept, prediction or grade)`,
        `support kept and grade: ${candidate} / ${second} / ${first}`,
      ],
      tables: [table(
        ["case", "scenario", "support kept", "grade", `${candidate} answer`, "differs in"],
        comparison.differences.map((item) => [
          item.caseId,
          item.scenario,
          [item.candidate, item.published[second], item.published[first]].map(kept).join(" / "),
          [item.candidate, item.published[second], item.published[first]].map(grade).join(" / "),
          shorten(item.candidate.prediction, 28) || "(empty)",
          why(item),
        ]),
        [false, false, false, false, false, false],
      )],
    },
  ];
}
