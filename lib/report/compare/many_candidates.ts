/**
 * Many candidates, one verdict: several candidate runs of one protocol against one baseline, each compared
 * with it on its cases — a/n, exact McNemar p, Holm-adjusted p across the candidates, the seeded paired
 * bootstrap difference and interval — and, when a reference run (the published hybrid-v1) shares cases, with
 * that too. The best-supported candidate comes first: improvements before the rest, then by Holm-adjusted p,
 * then by the difference.
 *
 * @module
 */

import { compareCodePoints, InputError } from "../../base/mod.ts";
import {
  type BootstrapResult,
  exactMcnemar,
  type GradedRow,
  holmAdjust,
  type Pair,
  pairedBootstrapDifference,
} from "../../qa/mod.ts";
import { formatP } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import { sectionsHtml } from "../render/html.ts";
import { sectionsMarkdown } from "../render/markdown.ts";
import { sectionsText } from "../render/text.ts";

/** The row fields the comparison reads. */
export type CandidateRow = Pick<GradedRow, "case_id" | "policy" | "grade_correct">;

/** One verified candidate run. */
export interface CandidateRunInput {
  directory: string;
  baseline: string;
  candidate: string;
  rows: CandidateRow[];
}

/** The bootstrap's settings (the protocol's `statistics`). */
export interface ManyStatistics {
  bootstrap_seed: bigint | number;
  bootstrap_iterations: number;
  alpha: number;
}

/** One paired comparison: the other side's and the candidate's correct counts on `cases` shared cases. */
export interface PairedComparison {
  cases: number;
  baselineCorrect: number;
  candidateCorrect: number;
  pValue: number;
  holmP: number;
  difference: BootstrapResult;
}

/** One candidate's line of the table. */
export interface CandidateLine extends PairedComparison {
  directory: string;
  candidate: string;
  /** Against the reference run's policy on the cases both have, when given and shared. */
  reference?: PairedComparison;
}

/** The table. */
export interface ManyCandidates {
  baseline: string;
  /** The reference's policy and where it is from, when one was given. */
  reference?: { policy: string; name: string };
  alpha: number;
  rows: CandidateLine[];
}

function correctByCase(rows: readonly CandidateRow[], policy: string): Map<string, boolean> {
  return new Map(rows.filter((row) => row.policy === policy).map((row) => [row.case_id, row.grade_correct]));
}

function paired(first: Map<string, boolean>, second: Map<string, boolean>): Pair[] {
  const cases = [...first.keys()].filter((id) => second.has(id)).sort(compareCodePoints);
  return cases.map((id) => [first.get(id)!, second.get(id)!] as const);
}

function compare(pairs: readonly Pair[], statistics: ManyStatistics): Omit<PairedComparison, "holmP"> {
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = statistics;
  return {
    cases: pairs.length,
    baselineCorrect: pairs.filter(([first]) => first).length,
    candidateCorrect: pairs.filter(([, second]) => second).length,
    pValue: exactMcnemar(pairs).p_value,
    difference: pairedBootstrapDifference(pairs, { seed, iterations, alpha }),
  };
}

function withHolm<T extends Omit<PairedComparison, "holmP">>(
  comparisons: readonly T[],
): (T & { holmP: number })[] {
  const adjusted = holmAdjust(comparisons.map((comparison) => comparison.pValue));
  return comparisons.map((comparison, index) => ({ ...comparison, holmP: adjusted[index] }));
}

/**
 * Builds the table. Refused in one line: fewer than two runs, runs with different baselines, the same
 * candidate name twice.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { manyCandidates } from "./many_candidates.ts";
 * const rows = (name: string, right: number) =>
 *   [0, 1, 2, 3].flatMap((i) => [
 *     { case_id: `c${i}`, policy: "confidence", grade_correct: i < 1 },
 *     { case_id: `c${i}`, policy: name, grade_correct: i < right },
 *   ]);
 * const runs = [2, 4].map((right, i) => ({ directory: `r${i}`, baseline: "confidence", candidate: `p${i}`, rows: rows(`p${i}`, right) }));
 * const table = manyCandidates(runs, { bootstrap_seed: 1, bootstrap_iterations: 100, alpha: 0.05 });
 * strictEqual(table.rows[0].candidate, "p1"); // 4 of 4 against 1 of 4: first
 * ```
 */
export function manyCandidates(
  runs: readonly CandidateRunInput[],
  statistics: ManyStatistics,
  reference?: { name: string; policy: string; rows: readonly CandidateRow[] },
): ManyCandidates {
  checkOneBaseline(runs);
  const [first] = runs;
  const againstBaseline = withHolm(
    runs.map((run) =>
      compare(
        paired(correctByCase(run.rows, run.baseline), correctByCase(run.rows, run.candidate)),
        statistics,
      )
    ),
  );
  const referenceCorrect = reference && correctByCase(reference.rows, reference.policy);
  const shared = referenceCorrect === undefined
    ? undefined
    : runs.map((run) => paired(referenceCorrect, correctByCase(run.rows, run.candidate)));
  const againstReference = shared !== undefined && shared.every((pairs) => pairs.length > 0)
    ? withHolm(shared.map((pairs) => compare(pairs, statistics)))
    : undefined;
  const rows: CandidateLine[] = runs.map((run, index) => ({
    directory: run.directory,
    candidate: run.candidate,
    ...againstBaseline[index],
    ...(againstReference === undefined ? {} : { reference: againstReference[index] }),
  }));
  rows.sort(bestSupportedFirst);
  return {
    baseline: first.baseline,
    ...(againstReference === undefined || reference === undefined
      ? {}
      : { reference: { policy: reference.policy, name: reference.name } }),
    alpha: statistics.alpha,
    rows,
  };
}

/**
 * Refuses, in one line, fewer than two runs, runs with different baselines, or the same candidate twice.
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { checkOneBaseline } from "./many_candidates.ts";
 * const run = (candidate: string, baseline: string) => ({ directory: candidate, baseline, candidate, rows: [] });
 * throws(() => checkOneBaseline([run("a", "confidence"), run("b", "hybrid-v1")]), /one baseline/);
 * ```
 */
export function checkOneBaseline(runs: readonly CandidateRunInput[]): void {
  if (runs.length < 2) throw new InputError("many candidates: give at least two runs");
  const [first] = runs;
  const seen = new Map<string, string>();
  for (const run of runs) {
    if (run.baseline !== first.baseline) {
      throw new InputError(
        `${run.directory}: compared with ${run.baseline}, but ${first.directory} with ${first.baseline}: ` +
          "many candidates are compared against one baseline",
      );
    }
    const other = seen.get(run.candidate);
    if (other !== undefined) {
      throw new InputError(`${run.directory}: candidate ${run.candidate} is also ${other}'s; give each once`);
    }
    seen.set(run.candidate, run.directory);
  }
}

function bestSupportedFirst(a: CandidateLine, b: CandidateLine): number {
  const better = (line: CandidateLine) => line.difference.mean_difference > 0 ? 0 : 1;
  return better(a) - better(b) || a.holmP - b.holmP ||
    b.difference.mean_difference - a.difference.mean_difference ||
    compareCodePoints(a.candidate, b.candidate);
}

const p = formatP;
const signed = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(3)}`;
const interval = (result: BootstrapResult) => `[${signed(result.lower)}, ${signed(result.upper)}]`;

/** The heading every renderer shows. */
export function manyCandidatesHeading(table: ManyCandidates): string {
  return `${table.rows.length} candidates against ${table.baseline}`;
}

/** A paired comparison's columns, `other` the side the candidate is compared with. */
function comparisonHeaders(other: string, level: string): string[] {
  return ["cases", other, "candidate a/n", "McNemar p", "Holm p", "difference", `${level} interval`];
}

/** Which of a comparison's columns are numbers (right-aligned): all but the interval. */
const COMPARISON_NUMERIC = [true, true, true, true, true, true, false];

function comparisonCells(comparison: PairedComparison): string[] {
  const { cases, difference } = comparison;
  return [
    String(cases),
    `${comparison.baselineCorrect}/${cases}`,
    `${comparison.candidateCorrect}/${cases}`,
    p(comparison.pValue),
    p(comparison.holmP),
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
      `Exact McNemar p per candidate, Holm-adjusted across the ${many.rows.length}; the difference is the ` +
      `candidate's accuracy minus ${many.baseline}'s, with the seeded paired bootstrap's ${level} interval. ` +
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

/** The table as one JSON value (`report RUN… --json`). */
export function manyCandidatesJson(table: ManyCandidates): unknown {
  const comparison = (line: PairedComparison) => ({
    cases: line.cases,
    other_correct: line.baselineCorrect,
    candidate_correct: line.candidateCorrect,
    mcnemar_p: line.pValue,
    holm_p: line.holmP,
    difference: line.difference,
  });
  return {
    kind: "many-candidates",
    baseline: table.baseline,
    alpha: table.alpha,
    ...(table.reference === undefined ? {} : { reference: table.reference }),
    candidates: table.rows.map((line) => ({
      candidate: line.candidate,
      directory: line.directory,
      against_baseline: comparison(line),
      ...(line.reference === undefined ? {} : { against_reference: comparison(line.reference) }),
    })),
  };
}

/**
 * The table as `report RUN RUN…` shows it: the terminal's text (fitted to `columns` when given), the Markdown
 * or HTML document, or the JSON one (`--json`).
 *
 * @example
 * ```ts
 * import { match, strictEqual } from "node:assert/strict";
 * import { manyCandidates, renderManyCandidates } from "./many_candidates.ts";
 * const rows = (name: string) => ["c0", "c1"].flatMap((case_id) => [
 *   { case_id, policy: "confidence", grade_correct: false }, { case_id, policy: name, grade_correct: true }]);
 * const runs = ["p0", "p1"].map((candidate) => ({ directory: candidate, baseline: "confidence", candidate, rows: rows(candidate) }));
 * const table = manyCandidates(runs, { bootstrap_seed: 1, bootstrap_iterations: 100, alpha: 0.05 });
 * match(renderManyCandidates(table, "text"), /^2 candidates against confidence\n/);
 * match(renderManyCandidates(table, "markdown"), /^# 2 candidates against confidence\n/);
 * strictEqual(JSON.parse(renderManyCandidates(table, "json")).candidates[0].against_baseline.candidate_correct, 2);
 * ```
 */
export function renderManyCandidates(
  table: ManyCandidates,
  format: "text" | "markdown" | "html" | "json",
  columns?: number,
): string {
  if (format === "json") return JSON.stringify(manyCandidatesJson(table), null, 2);
  const heading = manyCandidatesHeading(table);
  const sections = manyCandidatesSections(table);
  if (format === "markdown") return sectionsMarkdown(heading, sections);
  if (format === "html") return sectionsHtml(heading, sections);
  return sectionsText(heading, sections, undefined, columns);
}
