/**
 * The report as one self-contained HTML file: inline CSS and SVG only (no scripts, fonts, images or URLs),
 * readable in light and dark mode and when printed. A QA report has three charts — accuracy per scenario
 * (paired bars per policy), the bootstrap differences per suite (a forest plot with the zero line), and
 * retention against accuracy — each with a caption and a table beside it carrying the same numbers.
 *
 * @module
 */

import { POLICIES } from "../policy/mod.ts";
import {
  formatSigned,
  type PolicyReport,
  type QaReport,
  reportHeading,
  reportSections,
  type RunReport,
  type Section,
  type Table,
} from "./report.ts";
import type { SweepReport } from "./sweep.ts";

/**
 * Escapes text for HTML element content and attribute values.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./html.ts";
 * console.log(escapeHtml(`<a href="x">&</a>`)); // "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

const CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa;
  --grid: #d1d9e0; --p0: #bc4c00; --p1: #0969da; --ok: #1a7f37; --lost: #8c959f; --zero: #cf222e; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --grid: #3d444d;
    --p0: #f0883e; --p1: #4493f8; --ok: #3fb950; --lost: #6e7681; --zero: #f85149; }
}
@media print {
  :root { --fg: #000000; --muted: #333333; --bg: #ffffff; --panel: #ffffff; --grid: #999999;
    --p0: #b35900; --p1: #0550ae; --ok: #116329; --lost: #8c959f; --zero: #a40e26; }
  figure, table { break-inside: avoid; }
  body { margin: 0; max-width: none; }
}
* { box-sizing: border-box; }
body { margin: 2rem auto; max-width: 96rem; padding: 0 1rem; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 2rem 0 0.5rem; border-bottom: 1px solid var(--grid); padding-bottom: 0.25rem; }
p { margin: 0.4rem 0; }
.muted { color: var(--muted); }
.checks { list-style: none; padding: 0; margin: 0.5rem 0; }
.checks li::before { content: "✓ "; color: var(--ok); font-weight: 700; }
.checks li.not-run::before { content: "– "; color: var(--muted); }
.proved { background: var(--panel); border-left: 4px solid var(--ok); padding: 0.5rem 0.75rem; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.9rem; }
th, td { border: 1px solid var(--grid); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: var(--panel); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.pair { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
figure { margin: 0.5rem 0; flex: 0 1 40rem; min-width: min(100%, 28rem); }
figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 0.25rem; }
svg { width: 100%; height: auto; display: block; }
svg text { fill: var(--fg); font: 12px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
svg .muted { fill: var(--muted); }
svg text.small { font-size: 11px; }
svg .axis { stroke: var(--fg); stroke-width: 1; }
svg .grid { stroke: var(--grid); stroke-width: 1; }
svg .zero { stroke: var(--zero); stroke-width: 2; stroke-dasharray: 6 3; }
svg .p0 { fill: var(--p0); } svg .p1 { fill: var(--p1); }
svg .ok { fill: var(--ok); } svg .lost { fill: var(--lost); }
svg .whisker { stroke: var(--p1); stroke-width: 2.5; }
svg .point { fill: var(--p1); stroke: var(--bg); stroke-width: 1.5; }
`;

function tableHtml(table: Table, className = ""): string {
  const cell = (tag: string, text: string, column: number) => {
    const classes = [
      table.numeric[column] ? "num" : "",
      /^[0-9a-f]{64}$/.test(text) ? "mono" : "",
    ].filter((name) => name !== "").join(" ");
    return `<${tag}${classes === "" ? "" : ` class="${classes}"`}>${escapeHtml(text)}</${tag}>`;
  };
  const head = table.headers.every((header) => header === "")
    ? ""
    : `<thead><tr>${table.headers.map((header, column) => cell("th", header, column)).join("")}</tr></thead>`;
  const body = table.rows.map((row) =>
    `<tr>${row.map((text, column) => cell("td", text, column)).join("")}</tr>`
  )
    .join("\n");
  return `<div class="table-wrap"><table${
    className === "" ? "" : ` class="${className}"`
  }>${head}<tbody>\n${body}\n</tbody></table></div>`;
}

const round = (value: number) => Math.round(value * 10) / 10;

/** A bar of a grouped bar chart. */
interface Bar {
  label: string;
  /** 0..1, or undefined when there is nothing to measure (drawn as "n=0"). */
  value: number | undefined;
  text: string;
  className: string;
  title: string;
}

/** Grouped vertical bars on a 0–1 scale. */
function barChart(
  id: string,
  title: string,
  groups: { label: string; bars: Bar[] }[],
  legend: [string, string][],
): string {
  const width = 720;
  const height = 300;
  const left = 44;
  const right = 12;
  const top = 40;
  const bottom = 58;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const y = (value: number) => top + plotHeight * (1 - value);
  const parts: string[] = [];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<line class="grid" x1="${left}" x2="${width - right}" y1="${round(y(tick))}" y2="${round(y(tick))}"/>`,
      `<text class="muted" x="${left - 6}" y="${round(y(tick) + 4)}" text-anchor="end">${
        tick.toFixed(2)
      }</text>`,
    );
  }
  const slot = plotWidth / groups.length;
  groups.forEach((group, index) => {
    const barWidth = Math.min(44, (slot * 0.8) / group.bars.length);
    const start = left + slot * index + (slot - barWidth * group.bars.length) / 2;
    group.bars.forEach((bar, barIndex) => {
      const x = start + barWidth * barIndex;
      const center = round(x + barWidth / 2);
      if (bar.value === undefined) {
        parts.push(
          `<text class="muted" x="${center}" y="${round(y(0) - 4)}" text-anchor="middle">${
            escapeHtml(bar.text)
          }</text>`,
        );
        return;
      }
      const barHeight = Math.max(bar.value > 0 ? 1 : 0, plotHeight * bar.value);
      parts.push(
        `<rect class="${bar.className}" x="${round(x + 1)}" y="${round(y(0) - barHeight)}" width="${
          round(barWidth - 2)
        }" height="${round(barHeight)}" data-value="${bar.value}"><title>${
          escapeHtml(bar.title)
        }</title></rect>`,
        `<text x="${center}" y="${round(y(0) - barHeight - 4)}" text-anchor="middle">${
          escapeHtml(bar.text)
        }</text>`,
      );
    });
    const lines = group.label.split("\n");
    lines.forEach((line, lineIndex) => {
      parts.push(
        `<text class="small" x="${round(left + slot * index + slot / 2)}" y="${
          height - bottom + 16 + lineIndex * 14
        }" text-anchor="middle">${escapeHtml(line)}</text>`,
      );
    });
  });
  parts.push(`<line class="axis" x1="${left}" x2="${width - right}" y1="${y(0)}" y2="${y(0)}"/>`);
  let legendX = left;
  for (const [className, label] of legend) {
    parts.push(
      `<rect class="${className}" x="${legendX}" y="6" width="12" height="12"/>`,
      `<text x="${legendX + 16}" y="16">${escapeHtml(label)}</text>`,
    );
    legendX += 24 + label.length * 7;
  }
  return `<svg id="${id}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}">${
    parts.join("")
  }</svg>`;
}

/** Forest plot of the bootstrap differences with their intervals, the zero line marked. */
function forestChart(report: QaReport): string {
  const width = 720;
  const rowHeight = 44;
  const top = 30;
  const left = 90;
  const right = 190;
  const height = top + rowHeight * report.suites.length + 36;
  const lows = report.suites.map((suite) => suite.stats.bootstrap.lower);
  const highs = report.suites.map((suite) => suite.stats.bootstrap.upper);
  const low = Math.min(-0.25, Math.floor(Math.min(...lows) * 4) / 4);
  const high = Math.max(0.25, Math.ceil(Math.max(...highs) * 4) / 4);
  const plotWidth = width - left - right;
  const x = (value: number) => left + (plotWidth * (value - low)) / (high - low);
  const bottom = top + rowHeight * report.suites.length;
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
    `<text class="muted" x="${width - right + 12}" y="${top - 14}">difference [interval]</text>`,
    `<text class="muted" x="${left + plotWidth / 2}" y="${
      bottom + 32
    }" text-anchor="middle">hybrid-v1 − confidence (accuracy)</text>`,
  );
  report.suites.forEach((suite, index) => {
    const { lower, upper, mean_difference: mean } = suite.stats.bootstrap;
    const cy = round(top + rowHeight * index + rowHeight / 2);
    const label = `${formatSigned(mean)} [${formatSigned(lower)}, ${formatSigned(upper)}]`;
    parts.push(
      `<text x="${left - 10}" y="${cy + 4}" text-anchor="end">${escapeHtml(suite.name)}</text>`,
      `<line class="whisker" x1="${round(x(lower))}" x2="${round(x(upper))}" y1="${cy}" y2="${cy}"/>`,
      `<line class="whisker" x1="${round(x(lower))}" x2="${round(x(lower))}" y1="${cy - 6}" y2="${cy + 6}"/>`,
      `<line class="whisker" x1="${round(x(upper))}" x2="${round(x(upper))}" y1="${cy - 6}" y2="${cy + 6}"/>`,
      `<circle class="point" cx="${
        round(x(mean))
      }" cy="${cy}" r="6" data-value="${mean}" data-lower="${lower}" data-upper="${upper}"><title>${
        escapeHtml(`${suite.name}: ${label}`)
      }</title></circle>`,
      `<text x="${width - right + 12}" y="${cy + 4}">${escapeHtml(label)}</text>`,
    );
  });
  return `<svg id="chart-forest" viewBox="0 0 ${width} ${height}" role="img" aria-label="bootstrap differences per suite">${
    parts.join("")
  }</svg>`;
}

function accuracyChart(report: QaReport): string {
  const keys = [...new Set(report.scenarios.map(({ group }) => `${group.source}\u0000${group.scenario}`))];
  const groups = keys.map((key) => {
    const [source, scenario] = key.split("\u0000");
    return {
      label: `${scenario}\n${source === "longmemeval" ? "official" : source} · n=${
        report.scenarios.find(({ group }) => group.scenario === scenario)!.group.cases
      }`,
      bars: POLICIES.map((policy, index) => {
        const { group } = report.scenarios.find(({ group }) =>
          group.source === source && group.scenario === scenario && group.policy === policy
        )!;
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
    };
  });
  return barChart(
    "chart-accuracy",
    "accuracy per scenario and policy",
    groups,
    POLICIES.map((policy, index) => [`p${index}`, policy]),
  );
}

function retentionChart(report: QaReport): string {
  const groups = report.retention.map((item) => ({
    label: `${item.suite}\n${item.policy}`,
    bars: ([["retained", item.retained, "ok"], ["lost", item.lost, "lost"]] as const).map((
      [name, part, className],
    ) => ({
      label: name,
      value: part.cases === 0 ? undefined : part.correct / part.cases,
      text: part.cases === 0 ? "n=0" : `${part.correct}/${part.cases}`,
      className,
      title: `${item.suite} · ${item.policy} · support ${name}: ${part.correct}/${part.cases} correct`,
    })),
  }));
  return barChart("chart-retention", "accuracy when the support was retained and when it was lost", groups, [
    ["ok", "support retained"],
    ["lost", "support lost (evicted)"],
  ]);
}

function retentionBarsChart(report: PolicyReport, capacity: number): string {
  const keys = [...new Set(report.groups.map((group) => `${group.source}\u0000${group.scenario}`))];
  const groups = keys.map((key) => {
    const [source, scenario] = key.split("\u0000");
    return {
      label: `${scenario}\n${source === "longmemeval" ? "official" : source}`,
      bars: POLICIES.map((policy, index) => {
        const group = report.groups.find((item) =>
          item.capacity === capacity && item.source === source && item.scenario === scenario &&
          item.policy === policy
        );
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
    };
  });
  return barChart(
    `chart-retention-${capacity}`,
    `support retained at capacity ${capacity}`,
    groups,
    POLICIES.map((policy, index) => [`p${index}`, policy]),
  );
}

function figure(svg: string, caption: string, table: Table): string {
  return `<div class="pair"><figure>${svg}<figcaption>${escapeHtml(caption)}</figcaption></figure>${
    tableHtml(table)
  }</div>`;
}

function sectionHtml(section: Section, chart?: string): string {
  const parts = [`<section id="${section.id}"><h2>${escapeHtml(section.title)}</h2>`];
  if (section.id === "verification") {
    const checks = section.lines.slice(0, -1);
    parts.push(
      `<ul class="checks">${
        checks.map((line) =>
          line.startsWith("✓ ")
            ? `<li>${escapeHtml(line.slice(2))}</li>`
            : `<li class="not-run">${escapeHtml(line.slice(2))}</li>`
        ).join("")
      }</ul>`,
      `<p class="proved">${escapeHtml(section.lines[section.lines.length - 1])}</p>`,
    );
  } else {
    for (const line of section.lines) parts.push(`<p>${escapeHtml(line)}</p>`);
    if (chart !== undefined) parts.push(chart);
    else for (const table of section.tables) parts.push(tableHtml(table));
  }
  parts.push("</section>");
  return parts.join("\n");
}

function qaCharts(report: QaReport, sections: Section[]): Map<string, string> {
  const tableOf = (id: string) => sections.find((section) => section.id === id)!.tables[0];
  return new Map([
    [
      "suites",
      figure(
        forestChart(report),
        "Figure 1. Paired bootstrap difference in accuracy (hybrid-v1 − confidence) per suite: the point is the observed difference, the whiskers the percentile interval; the dashed line marks zero (no difference).",
        tableOf("suites"),
      ),
    ],
    [
      "scenarios",
      figure(
        accuracyChart(report),
        `Figure 2. Accuracy per scenario, paired bars per policy (${
          POLICIES.join(" and ")
        }); labels give correct/cases.`,
        tableOf("scenarios"),
      ),
    ],
    [
      "retention",
      figure(
        retentionChart(report),
        "Figure 3. Retention against accuracy: for each suite and policy, accuracy on the cases whose support fact was retained and on those where it was evicted (n=0 where there were none).",
        tableOf("retention"),
      ),
    ],
  ]);
}

/**
 * Sections (e.g. a comparison's) as a self-contained HTML page of tables.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sectionsHtml } from "./html.ts";
 * const table = { headers: ["policy", "kept"], rows: [["hybrid-v1", "35/40"]], numeric: [false, true] };
 * const page = sectionsHtml("a <b>", [{ id: "a", title: "Retention", lines: ["at capacity 7"], tables: [table] }]);
 * strictEqual(page.startsWith("<!DOCTYPE html>"), true);
 * strictEqual(page.includes("<h1>a &lt;b&gt;</h1>"), true); // escaped
 * strictEqual(/<(script|link)\b|src=/.test(page), false); // self-contained
 * ```
 */
export function sectionsHtml(
  heading: string,
  sections: readonly Section[],
  charts = new Map<string, string>(),
): string {
  return page(
    heading,
    `${sections.map((section) => sectionHtml(section, charts.get(section.id))).join("\n")}
<footer><p class="muted">Generated by deermem-eval from the verified files; every number above is also in a table.</p></footer>`,
  );
}

/** A self-contained page: the shared head and style, the heading, then `body`. */
function page(heading: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(heading)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeHtml(heading)}</h1>
${body}
</body>
</html>
`;
}

/**
 * A sweep's report as one self-contained HTML page: the terminal table and the heat map.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sweepHtml } from "./html.ts";
 * const page = sweepHtml("/tmp/sweep", { lines: ["best: 3 < 5"], svg: "<svg></svg>" });
 * strictEqual(page.includes("<pre>best: 3 &lt; 5</pre>"), true);
 * strictEqual(page.includes("<figure><svg></svg>"), true);
 * ```
 */
export function sweepHtml(directory: string, sweep: SweepReport): string {
  const heading = `Sweep ${directory}`;
  return page(
    heading,
    `<pre>${escapeHtml(sweep.lines.join("\n"))}</pre>
<figure>${sweep.svg}<figcaption>hybrid-v1 minus confidence, supports kept over all scenarios, over the weight simplex; one triangle per capacity.</figcaption></figure>`,
  );
}

/**
 * The report as one self-contained HTML page.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { policySummaryGroups } from "../policy/outputs.ts";
 * import type { PolicyReport } from "./report.ts";
 * import { reportHtml } from "./html.ts";
 * const entries = ["confidence", "hybrid-v1"].map((policy, index) => ({
 *   source: "longmemeval", scenario: "access_help", capacity: 7, policy, supportAllRetained: index === 1, supportRecall: index,
 * }));
 * const report: PolicyReport = {
 *   kind: "policy", directory: "run", verification: { checks: [], ok: true, proved: "demo" }, entries,
 *   groups: policySummaryGroups(entries), provenance: { entries: [["protocol", "demo-v1"]] },
 *   differences: [{ caseId: "q1", source: "longmemeval", scenario: "access_help", capacity: 7, keptBy: "hybrid-v1" }],
 * };
 * const page = reportHtml(report);
 * strictEqual(page.includes("<title>deermem-eval report: run (policy run)</title>"), true);
 * strictEqual(page.includes("<svg"), true); // the retention chart, inline
 * ```
 */
export function reportHtml(report: RunReport): string {
  const sections = reportSections(report);
  let charts: Map<string, string>;
  if (report.kind === "qa") {
    charts = qaCharts(report, sections);
  } else {
    const capacities = [...new Set(report.groups.map((group) => group.capacity))].sort((a, b) => a - b);
    const retention = sections.find((section) => section.id === "retention")!.tables[0];
    charts = new Map([[
      "retention",
      capacities.map((capacity) =>
        figure(
          retentionBarsChart(report, capacity),
          `Support retained at capacity ${capacity}, paired bars per policy; labels give cases kept/cases.`,
          { ...retention, rows: retention.rows.filter((row) => row[0] === String(capacity)) },
        )
      ).join("\n"),
    ]]);
  }
  return sectionsHtml(reportHeading(report), sections, charts);
}
