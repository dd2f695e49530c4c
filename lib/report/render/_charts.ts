/**
 * The HTML report's charts as inline SVG: the bootstrap differences per suite (a forest plot with the zero
 * line), accuracy per scenario and retention against accuracy for QA results, and support retained per
 * capacity for a policy run.
 *
 * @module
 */

import type { PolicyPair } from "../../qa/mod.ts";
import { formatSigned, shorten } from "../document/format.ts";
import { escapeHtml } from "../document/html_escape.ts";
import type { PolicyReport, QaReport, SuiteReport } from "../run/run_report.ts";
import { scenarioPoint } from "../run/scenarios.ts";
import { barChart, type BarGroup, CHART_WIDTH, round } from "./_svg.ts";
import { suiteName } from "../run/names.ts";
import { policyGroup, runPolicies, scenarioKeys } from "../run/groups.ts";

const FOREST = { width: CHART_WIDTH, rowHeight: 48, top: 34, left: 92, right: 24 };
/** The widest a row's "+0.000 [+0.000, +0.000]" label draws at 12 units. */
const LABEL_WIDTH = 160;

/** The suites the forest plot draws an interval for: those with cases. */
function drawn(suites: readonly SuiteReport[]): readonly SuiteReport[] {
  return suites.filter((suite) => suite.stats.cases > 0);
}

/** The x axis of the forest plot: from at most −0.25 to at least +0.25, in quarters around the intervals. */
function forestScale(
  suites: readonly SuiteReport[],
): { low: number; high: number; x: (value: number) => number } {
  const low = Math.min(
    -0.25,
    Math.floor(Math.min(...drawn(suites).map((suite) => suite.stats.bootstrap.lower)) * 4) / 4,
  );
  const high = Math.max(
    0.25,
    Math.ceil(Math.max(...drawn(suites).map((suite) => suite.stats.bootstrap.upper)) * 4) / 4,
  );
  const plotWidth = FOREST.width - FOREST.left - FOREST.right;
  return { low, high, x: (value: number) => FOREST.left + (plotWidth * (value - low)) / (high - low) };
}

/** A difference axis's quarter ticks and grid lines, and its zero line marked "no difference". */
function differenceAxis(
  x: (value: number) => number,
  low: number,
  high: number,
  top: number,
  bottom: number,
): string[] {
  const parts: string[] = [];
  for (let tick = low; tick <= high + 1e-9; tick += 0.25) {
    const value = Math.round(tick * 100) / 100;
    parts.push(
      `<line class="grid" x1="${round(x(value))}" x2="${round(x(value))}" y1="${top - 6}" y2="${bottom}"/>`,
      `<text class="muted" x="${round(x(value))}" y="${bottom + 16}" text-anchor="middle">${
        value === 0 ? "0" : formatSigned(value).replace(/0$/, "")
      }</text>`,
    );
  }
  parts.push(
    `<line class="zero" x1="${round(x(0))}" x2="${round(x(0))}" y1="${top - 10}" y2="${bottom}"/>`,
    `<text class="muted" x="${round(x(0) + 4)}" y="${top - 14}">no difference</text>`,
  );
  return parts;
}

function forestAxis(
  scale: ReturnType<typeof forestScale>,
  bottom: number,
  [first, second]: PolicyPair,
): string[] {
  const { width, top, left, right } = FOREST;
  const { low, high, x } = scale;
  const parts = differenceAxis(x, low, high, top, bottom);
  parts.push(
    `<text class="muted" x="${left + (width - left - right) / 2}" y="${
      bottom + 34
    }" text-anchor="middle">${second} − ${first} (accuracy)</text>`,
  );
  return parts;
}

function forestRow(suite: SuiteReport, index: number, x: (value: number) => number): string[] {
  const { rowHeight, top, left } = FOREST;
  const { lower, upper, mean_difference: mean } = suite.stats.bootstrap;
  const cy = round(top + rowHeight * index + rowHeight / 2 + 6);
  const label = `${formatSigned(mean)} [${formatSigned(lower)}, ${formatSigned(upper)}]`;
  const name = suiteName(suite.name);
  const named = `<text x="${left - 10}" y="${cy + 4}" text-anchor="end">${escapeHtml(name)}</text>`;
  // A suite with no cases has no difference to draw: no point, no interval.
  if (suite.stats.cases === 0) {
    return [named, `<text class="muted" x="${left}" y="${cy + 4}">no cases</text>`];
  }
  return [
    named,
    // From the interval's start, or ending at the chart's edge when it would run past it.
    x(lower) + LABEL_WIDTH <= FOREST.width
      ? `<text x="${round(x(lower))}" y="${cy - 11}">${escapeHtml(label)}</text>`
      : `<text x="${FOREST.width - 2}" y="${cy - 11}" text-anchor="end">${escapeHtml(label)}</text>`,
    `<line class="whisker" x1="${round(x(lower))}" x2="${round(x(upper))}" y1="${cy}" y2="${cy}"/>`,
    `<line class="whisker" x1="${round(x(lower))}" x2="${round(x(lower))}" y1="${cy - 6}" y2="${cy + 6}"/>`,
    `<line class="whisker" x1="${round(x(upper))}" x2="${round(x(upper))}" y1="${cy - 6}" y2="${cy + 6}"/>`,
    `<circle class="point" cx="${
      round(x(mean))
    }" cy="${cy}" r="6" data-value="${mean}" data-lower="${lower}" data-upper="${upper}"><title>${
      escapeHtml(`${name}: ${label}`)
    }</title></circle>`,
  ];
}

/** Forest plot of the bootstrap differences with their intervals, the zero line marked. */
export function forestChart(report: QaReport): string {
  const { width, rowHeight, top } = FOREST;
  const suites = report.suites;
  const bottom = top + rowHeight * suites.length;
  const height = bottom + 42;
  const scale = forestScale(suites);
  const parts = [
    ...forestAxis(scale, bottom, report.policies),
    ...suites.flatMap((suite, index) => forestRow(suite, index, scale.x)),
  ];
  return `<svg id="chart-forest" class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="bootstrap differences per suite">${
    parts.join("")
  }</svg>`;
}

/** The legend of a chart with one bar per policy. */
function policyLegend(policies: readonly string[]): [string, string][] {
  return policies.map((policy, index) => [`p${index}`, policy]);
}

/** Accuracy per scenario, paired bars per policy. */
export function accuracyChart(report: QaReport): string {
  const groups = scenarioKeys(report.scenarios.map(({ group }) => group)).map(([source, scenario]) => ({
    label: `${scenario} · ${source} · n=${
      report.scenarios.find(({ group }) => group.scenario === scenario)!.group.cases
    }`,
    bars: report.policies.map((policy, index) => {
      const { group } = scenarioPoint(report.scenarios, source, scenario, policy);
      return {
        label: policy,
        value: group.accuracy,
        text: `${group.correct}/${group.cases}`,
        className: `p${index}`,
        title: `${scenario} · ${policy}: ${group.correct}/${group.cases} correct (${
          group.accuracy.toFixed(3)
        })`,
      };
    }),
  }));
  return barChart(
    "chart-accuracy",
    "accuracy per scenario and policy",
    groups,
    policyLegend(report.policies),
  );
}

/** Retention against accuracy: per suite and policy, accuracy with the support retained and with it lost. */
export function retentionChart(report: QaReport): string {
  const groups: BarGroup[] = report.retention.map((item) => ({
    label: `${suiteName(item.suite)} · ${item.policy}`,
    bars: ([["retained", item.retained, "ok"], ["lost", item.lost, "lost"]] as const).map((
      [name, part, className],
    ) => ({
      label: name,
      value: part.cases === 0 ? undefined : part.correct / part.cases,
      text: part.cases === 0 ? "n=0" : `${part.correct}/${part.cases}`,
      className,
      title: `${
        suiteName(item.suite)
      } · ${item.policy} · support ${name}: ${part.correct}/${part.cases} correct`,
    })),
  }));
  return barChart("chart-retention", "accuracy when the support was retained and when it was lost", groups, [
    ["ok", "support retained"],
    ["lost", "support lost (evicted)"],
  ]);
}

/** A policy run's support retained at one capacity, paired bars per policy. */
export function retentionBarsChart(report: PolicyReport, capacity: number): string {
  const groups = scenarioKeys(report.groups).map(([source, scenario]) => ({
    label: `${scenario} · ${source}`,
    bars: runPolicies(report.groups).map((policy, index) => {
      const group = policyGroup(report.groups, capacity, [source, scenario], policy);
      return {
        label: policy,
        value: group?.support_all_retained_rate,
        text: group === undefined ? "–" : `${group.support_all_retained}/${group.cases}`,
        className: `p${index}`,
        title: `capacity ${capacity} · ${scenario} · ${policy}: ${group?.support_all_retained ?? 0}/${
          group?.cases ?? 0
        } kept the support`,
      };
    }),
  }));
  return barChart(
    `chart-retention-${capacity}`,
    `support retained at capacity ${capacity}`,
    groups,
    policyLegend(runPolicies(report.groups)),
  );
}

/** One row of a differences chart: a name, the observed difference and its interval. */
export interface DifferenceRow {
  label: string;
  mean: number;
  lower: number;
  upper: number;
}

const DIFFERENCES = { width: CHART_WIDTH, rowHeight: 46, top: 34, side: 24 };
/** The most characters of a name drawn beside its row's numbers (the full name is in the point's title). */
const NAME_CHARACTERS = 22;

/**
 * Each row's difference with its interval on one axis (the many-candidate page's chart): the name (cut to
 * {@linkcode NAME_CHARACTERS}, whole in the point's title and the table) and the numbers above each interval,
 * so a long name never narrows the plot nor runs into its numbers; the zero line marked; `axis` names the
 * difference. Drawn in 380 units, it keeps its 12-unit text legible on a 390 px screen.
 */
export function differencesChart(id: string, rows: readonly DifferenceRow[], axis: string): string {
  const { width, rowHeight, top, side } = DIFFERENCES;
  const low = Math.min(-0.25, Math.floor(Math.min(...rows.map((row) => row.lower)) * 4) / 4);
  const high = Math.max(0.25, Math.ceil(Math.max(...rows.map((row) => row.upper)) * 4) / 4);
  const x = (value: number) => side + ((width - 2 * side) * (value - low)) / (high - low);
  const bottom = top + rowHeight * rows.length;
  const parts = differenceAxis(x, low, high, top, bottom);
  parts.push(
    `<text class="muted" x="${width / 2}" y="${bottom + 34}" text-anchor="middle">${escapeHtml(axis)}</text>`,
  );
  rows.forEach((row, index) => parts.push(...differenceRow(row, top + rowHeight * index, x)));
  return `<svg id="${id}" class="chart" viewBox="0 0 ${width} ${bottom + 42}" role="img" aria-label="${
    escapeHtml(axis)
  }">${parts.join("")}</svg>`;
}

function differenceRow(row: DifferenceRow, y: number, x: (value: number) => number): string[] {
  const { width, side } = DIFFERENCES;
  const cy = round(y + 30);
  const numbers = `${formatSigned(row.mean)} [${formatSigned(row.lower)}, ${formatSigned(row.upper)}]`;
  const [left, right] = [round(x(row.lower)), round(x(row.upper))];
  return [
    `<text x="${side}" y="${cy - 12}">${escapeHtml(shorten(row.label, NAME_CHARACTERS))}</text>`,
    `<text x="${width - side}" y="${cy - 12}" text-anchor="end">${escapeHtml(numbers)}</text>`,
    `<line class="whisker" x1="${left}" x2="${right}" y1="${cy}" y2="${cy}"/>`,
    `<line class="whisker" x1="${left}" x2="${left}" y1="${cy - 6}" y2="${cy + 6}"/>`,
    `<line class="whisker" x1="${right}" x2="${right}" y1="${cy - 6}" y2="${cy + 6}"/>`,
    `<circle class="point" cx="${
      round(x(row.mean))
    }" cy="${cy}" r="6" data-value="${row.mean}" data-lower="${row.lower}" data-upper="${row.upper}"><title>${
      escapeHtml(`${row.label}: ${numbers}`)
    }</title></circle>`,
  ];
}
