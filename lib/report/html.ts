/**
 * The report as one self-contained HTML file: inline CSS and SVG only (no scripts, fonts, images or URLs),
 * readable in light and dark mode and when printed. A QA report has three charts — accuracy per scenario
 * (paired bars per policy), the bootstrap differences per suite (a forest plot with the zero line), and
 * retention against accuracy — each with a caption and a table beside it carrying the same numbers.
 *
 * @module
 */

import { accuracyChart, forestChart, retentionBarsChart, retentionChart } from "./_charts.ts";
import { capacitiesOf } from "./_groups.ts";
import { escapeHtml } from "./html_escape.ts";
import type { Section, Table } from "./model.ts";
import type { PolicyReport, QaReport, RunReport } from "./run_report.ts";
import { reportHeading, reportSections } from "./sections.ts";
import type { SweepReport } from "./sweep.ts";

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

/** The QA report's charts, each a figure with its section's table beside it, by section id. */
function qaCharts(report: QaReport, sections: Section[]): Map<string, string> {
  const tableOf = (id: string) => sections.find((section) => section.id === id)!.tables[0];
  return new Map([
    [
      "suites",
      figure(
        forestChart(report),
        `Figure 1. Paired bootstrap difference in accuracy (${report.policies[1]} − ${
          report.policies[0]
        }) per suite: the point is the observed difference, the whiskers the percentile interval; the dashed line marks zero (no difference).`,
        tableOf("suites"),
      ),
    ],
    [
      "scenarios",
      figure(
        accuracyChart(report),
        `Figure 2. Accuracy per scenario, paired bars per policy (${
          report.policies.join(" and ")
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

/** A policy run's retention: one figure per capacity, each with that capacity's rows of the table beside it. */
function policyCharts(report: PolicyReport, sections: Section[]): Map<string, string> {
  const retention = sections.find((section) => section.id === "retention")!.tables[0];
  return new Map([[
    "retention",
    capacitiesOf(report.groups).map((capacity) =>
      figure(
        retentionBarsChart(report, capacity),
        `Support retained at capacity ${capacity}, paired bars per policy; labels give cases kept/cases.`,
        { ...retention, rows: retention.rows.filter((row) => row[0] === String(capacity)) },
      )
    ).join("\n"),
  ]]);
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
 * import { policySummaryGroups } from "../policy/mod.ts";
 * import type { PolicyReport } from "./run_report.ts";
 * import { reportHtml } from "./html.ts";
 * const entries = [false, true].map((kept, index) => ({ source: "longmemeval", scenario: "access_help", capacity: 7,
 *   policy: ["confidence", "hybrid-v1"][index], supportAllRetained: kept, supportRecall: Number(kept) }));
 * const verification = { checks: [], ok: true, proved: "demo" }, provenance = { entries: [] };
 * const report: PolicyReport = { kind: "policy", directory: "run", verification, entries, groups: policySummaryGroups(entries), provenance, differences: [] };
 * strictEqual(reportHtml(report).includes("<title>deermem-eval report: run (policy run)</title>"), true);
 * strictEqual(reportHtml(report).includes('<svg id="chart-retention-7"'), true); // the retention chart, inline
 * ```
 */
export function reportHtml(report: RunReport): string {
  const sections = reportSections(report);
  const charts = report.kind === "qa" ? qaCharts(report, sections) : policyCharts(report, sections);
  return sectionsHtml(reportHeading(report), sections, charts);
}
