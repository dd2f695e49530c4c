/**
 * The many-candidate page (`report RUN RUN…`) in every format — terminal text, Markdown, HTML, JSON — built
 * from one table: the notices first (SYNTHETIC, NOT PINNED, STAND-IN, AUTHORED, decided by content as a run's
 * report decides them), the verdict sentence (which candidates beat the baseline after Holm's adjustment at
 * the protocol's alpha, or none), the sentence of what was checked, then the table (each row naming its test),
 * in HTML with a chart of each candidate's difference and interval beside it.
 *
 * @module
 */

import { formatP } from "../document/format.ts";
import { escapeHtml } from "../document/html_escape.ts";
import { type Section, table } from "../document/model.ts";
import type { Notice } from "../document/notices.ts";
import { differencesFigure, sectionsHtml } from "../render/html.ts";
import type { ManyCandidatesJson, ManyComparisonJson } from "../render/json_many.ts";
import { sectionsMarkdown } from "../render/markdown.ts";
import { sectionsText } from "../render/text.ts";
import type { BootstrapResult } from "../../qa/mod.ts";
import {
  beatBaseline,
  type CandidateLine,
  type ManyCandidates,
  type PairedComparison,
} from "./many_candidates.ts";

const signed = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(3)}`;
const interval = (result: BootstrapResult) => `[${signed(result.lower)}, ${signed(result.upper)}]`;

/** The heading every renderer shows. */
export function manyCandidatesHeading(many: ManyCandidates): string {
  return `${many.rows.length} candidates against ${many.baseline}`;
}

/**
 * The test a comparison used, as the table names it (its cases are the next column): `exact McNemar`, or
 * `exact sign-flip, K runs` (with the other side's runs when they differ).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { testName } from "./many_page.ts";
 * const comparison = { test: "exact-sign-flip", candidateRuns: 3, otherRuns: 3 } as const;
 * strictEqual(testName(comparison), "exact sign-flip, 3 runs");
 * strictEqual(testName({ ...comparison, otherRuns: 1 }), "exact sign-flip, 3 runs against 1");
 * ```
 */
export function testName(
  comparison: Pick<PairedComparison, "test" | "candidateRuns" | "otherRuns">,
): string {
  if (comparison.test === "exact-mcnemar") return "exact McNemar";
  const { candidateRuns, otherRuns } = comparison;
  return `exact sign-flip, ${candidateRuns} runs${
    otherRuns === candidateRuns ? "" : ` against ${otherRuns}`
  }`;
}

/**
 * The verdict sentence: the candidates that beat the baseline (a positive difference, Holm-adjusted p at most
 * alpha), or that none does.
 */
export function manyVerdict(many: ManyCandidates): string {
  const winners = beatBaseline(many).map((line) => line.candidate);
  const family = `after Holm's adjustment across the ${many.rows.length} candidates at alpha ${many.alpha}`;
  if (winners.length === 0) return `Verdict: no candidate beats ${many.baseline} ${family}.`;
  const names = winners.length === 1
    ? winners[0]
    : `${winners.slice(0, -1).join(", ")} and ${winners.at(-1)}`;
  return `Verdict: ${names} ${winners.length === 1 ? "beats" : "beat"} ${many.baseline} ${family} ` +
    `(a positive difference, Holm p ≤ ${many.alpha}).`;
}

/** What was checked: each candidate run's verification, what it re-derived and what it took as recorded. */
export function manyChecked(many: ManyCandidates): string {
  const runs = many.rows.reduce((total, line) => total + line.candidateRuns, 0);
  const each = runs === many.rows.length
    ? `each of the ${many.rows.length} candidate runs`
    : `each of the ${runs} runs of the ${many.rows.length} candidates (every run of a K-run candidate)`;
  const reused = many.reused === 0
    ? ""
    : ` ${many.reused} answer rows were taken from earlier runs, as their reuse.json records.`;
  const reference = many.reference === undefined
    ? ""
    : ` The reference's rows are those of ${many.reference.name} embedded in this program.`;
  return `Checked: ${each} passed verify's structure-and-statistics checks — its summary and statistics ` +
    "re-derived from its graded rows, the rows' form and its record checked; the grades and the model's " +
    `answers are taken as recorded (verify DIR --dataset re-derives the grades).${reused}${reference}`;
}

function comparisonHeaders(other: string, level: string): string[] {
  return ["test", "cases", other, "candidate a/n", "p", "Holm p", "difference", `${level} interval`];
}

/** Which of a comparison's columns are numbers (right-aligned): all but the test and the interval. */
const COMPARISON_NUMERIC = [false, true, true, true, true, true, true, false];

function comparisonCells(comparison: PairedComparison): string[] {
  const { cases, difference } = comparison;
  return [
    testName(comparison),
    String(cases),
    `${comparison.baselineCorrect}/${cases * comparison.otherRuns}`,
    `${comparison.candidateCorrect}/${cases * comparison.candidateRuns}`,
    formatP(comparison.pValue),
    formatP(comparison.holmP),
    signed(difference.mean_difference),
    interval(difference),
  ];
}

/** The table as report sections (text, Markdown and HTML render them alike). */
export function manyCandidatesSections(many: ManyCandidates): Section[] {
  const level = `${Math.round((1 - many.alpha) * 100)}%`;
  const sections: Section[] = [{
    id: "candidates",
    title: `Each candidate against ${many.baseline}`,
    lines: [
      `Each row's p is its test's: exact McNemar for a one-run candidate, with the seeded paired bootstrap's ` +
      `${level} interval; for a K-run candidate the exact sign-flip test over its cases (correct answers out ` +
      `of K per case), with the seeded case bootstrap's. Holm-adjusted across the ${many.rows.length}; the ` +
      `difference is the candidate's accuracy minus ${many.baseline}'s; a/n counts answers (K per case). ` +
      "Best-supported first: improvements, then by Holm p, then by the difference.",
    ],
    tables: [table(
      ["candidate", "run", ...comparisonHeaders(many.baseline, level)],
      many.rows.map((line) => [line.candidate, line.directory, ...comparisonCells(line)]),
      [false, false, ...COMPARISON_NUMERIC],
    )],
  }];
  if (many.reference !== undefined) {
    const reference = many.reference;
    sections.push({
      id: "against-reference",
      title: `Each candidate against ${reference.policy} of ${reference.name}, on the cases both have`,
      lines: [
        `The same statistics against the published ${reference.policy}, Holm-adjusted across the candidates.`,
      ],
      tables: [table(
        ["candidate", ...comparisonHeaders(reference.policy, level)],
        many.rows.map((line) => [line.candidate, ...comparisonCells(line.reference!)]),
        [false, ...COMPARISON_NUMERIC],
      )],
    });
  }
  return sections;
}

function comparisonJson(line: PairedComparison): ManyComparisonJson {
  return {
    test: line.test,
    test_name: testName(line),
    cases: line.cases,
    other_runs: line.otherRuns,
    candidate_runs: line.candidateRuns,
    other_correct: line.baselineCorrect,
    candidate_correct: line.candidateCorrect,
    p: line.pValue,
    ...(line.test === "exact-mcnemar" ? { mcnemar_p: line.pValue } : {}),
    holm_p: line.holmP,
    difference: {
      mean_difference: line.difference.mean_difference,
      lower: line.difference.lower,
      upper: line.difference.upper,
    },
  };
}

/** The notices as a document's first keys: every line, the demo's line, the protocol an authored one extends. */
function noticeKeys(
  notices: readonly Notice[],
): Pick<ManyCandidatesJson, "notices" | "synthetic" | "authored_from"> {
  const keys: Pick<ManyCandidatesJson, "notices" | "synthetic" | "authored_from"> = notices.length === 0
    ? {}
    : { notices: notices.map((notice) => notice.line) };
  for (const notice of notices) {
    if (notice.kind === "synthetic") keys.synthetic = notice.data;
    else if (notice.kind === "authored") keys.authored_from = notice.from;
  }
  return keys;
}

/** The table as one JSON value (`report RUN… --json`): the notices, the verdict and the checks first. */
export function manyCandidatesJson(many: ManyCandidates): ManyCandidatesJson {
  return {
    ...noticeKeys(many.notices),
    kind: "many-candidates",
    schema_version: 1,
    baseline: many.baseline,
    alpha: many.alpha,
    verdict: { line: manyVerdict(many), beat_baseline: beatBaseline(many).map((line) => line.candidate) },
    checked: manyChecked(many),
    reused_rows: many.reused,
    ...(many.reference === undefined ? {} : { reference: many.reference }),
    candidates: many.rows.map((line) => ({
      candidate: line.candidate,
      directory: line.directory,
      against_baseline: comparisonJson(line),
      ...(line.reference === undefined ? {} : { against_reference: comparisonJson(line.reference) }),
    })),
  };
}

/** The HTML page's chart: each candidate's difference against the baseline and its interval, the table beside it. */
function candidatesChart(many: ManyCandidates, sections: readonly Section[]): Map<string, string> {
  const rows = many.rows.map((line: CandidateLine) => ({
    label: line.candidate,
    mean: line.difference.mean_difference,
    lower: line.difference.lower,
    upper: line.difference.upper,
  }));
  const level = `${Math.round((1 - many.alpha) * 100)}%`;
  return new Map([[
    "candidates",
    differencesFigure(
      "chart-candidates",
      rows,
      `candidate − ${many.baseline} (accuracy)`,
      `Figure 1. Each candidate's difference in accuracy against ${many.baseline}: the point is the observed ` +
        `difference, the whiskers its ${level} bootstrap interval (paired for one run, over cases for K ` +
        "runs); the dashed line marks zero (no difference). The table beside it has the same numbers.",
      sections[0].tables[0],
    ),
  ]]);
}

/**
 * The table as `report RUN RUN…` shows it: the terminal's text (fitted to `columns` when given), the Markdown
 * or HTML document, or the JSON one (`--json`); each opens with the notices, the verdict and what was checked.
 *
 * @example
 * ```ts
 * import { match, strictEqual } from "node:assert/strict";
 * import { manyCandidates } from "./many_candidates.ts";
 * import { renderManyCandidates } from "./many_page.ts";
 * const rows = (name: string) => ["c0", "c1"].flatMap((case_id) => [
 *   { case_id, policy: "confidence", grade_correct: false }, { case_id, policy: name, grade_correct: true }]);
 * const runs = ["p0", "p1"].map((candidate) => ({ directory: candidate, baseline: "confidence", candidate, rows: rows(candidate) }));
 * const table = manyCandidates(runs, { bootstrap_seed: 1, bootstrap_iterations: 100, alpha: 0.05 });
 * match(renderManyCandidates(table, "text"), /^2 candidates against confidence\nVerdict: no candidate beats confidence /);
 * match(renderManyCandidates(table, "markdown"), /^# 2 candidates against confidence\n/);
 * strictEqual(JSON.parse(renderManyCandidates(table, "json")).candidates[0].against_baseline.candidate_correct, 2);
 * ```
 */
export function renderManyCandidates(
  many: ManyCandidates,
  format: "text" | "markdown" | "html" | "json",
  columns?: number,
): string {
  if (format === "json") return JSON.stringify(manyCandidatesJson(many), null, 2);
  const heading = manyCandidatesHeading(many);
  const sections = manyCandidatesSections(many);
  const lead = [manyVerdict(many), manyChecked(many)];
  const notices = many.notices;
  if (format === "markdown") {
    return sectionsMarkdown(heading, sections, [...lead.flatMap((line) => [line, ""])], notices);
  }
  if (format === "html") {
    const leadHtml = `<section id="claim"><h2>Verdict</h2><p class="verdict">${escapeHtml(lead[0])}</p>` +
      `<p class="checked">${escapeHtml(lead[1])}</p></section>`;
    return sectionsHtml(heading, sections, candidatesChart(many, sections), { lead: leadHtml, notices });
  }
  return sectionsText(heading, sections, undefined, columns, lead, notices);
}
