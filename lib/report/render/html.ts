/**
 * The report as one self-contained HTML file: inline CSS and SVG only (no scripts, fonts, images or URLs),
 * readable in light and dark mode, when printed, and from a 390 px phone to a 1,600 px desktop (no text under
 * 11 px). A QA report opens with the claim, then verification, then three charts — the bootstrap differences
 * per suite (a forest plot with the zero line), accuracy per scenario (paired bars per policy) and retention
 * against accuracy — each with a caption and a table beside it carrying the same numbers; a cut answer expands
 * to the whole one. The official suite is named `longmemeval` throughout, as its rows name it.
 *
 * @module
 */

import {
  accuracyChart,
  type DifferenceRow,
  differencesChart,
  forestChart,
  retentionBarsChart,
  retentionChart,
} from "./_charts.ts";
import { claimHtml } from "./_claim_html.ts";
import { claimOf } from "../run/claim.ts";
import { capacitiesOf } from "../run/groups.ts";
import { type CellHtml, page, tableHtml } from "./_html_page.ts";
import { sweepBody } from "../sweep/sweep_html.ts";
import { escapeHtml } from "../document/html_escape.ts";
import type { Section, Table } from "../document/model.ts";
import type { Notice } from "../document/notices.ts";
import {
  type PerModel,
  perModel,
  type PolicyReport,
  type QaReport,
  type RunReport,
} from "../run/run_report.ts";
import { reportHeading, reportSections } from "../run/sections.ts";
import type { SweepReport } from "../sweep/sweep.ts";

function figure(svg: string, caption: string, table: Table): string {
  return `<div class="pair"><figure>${svg}<figcaption>${escapeHtml(caption)}</figcaption></figure>${
    tableHtml(table)
  }</div>`;
}

function sectionHtml(section: Section, chart?: string, cellHtml?: CellHtml): string {
  const parts = [`<section id="${section.id}"><h2>${escapeHtml(section.title)}</h2>`];
  // A section's lines come first, as in the text (the verification's reused rows before its checks).
  for (const line of section.lines) parts.push(`<p>${escapeHtml(line)}</p>`);
  if (section.checks !== undefined) {
    const { items, proved } = section.checks;
    parts.push(
      `<ul class="checks">${
        items.map((check) =>
          check.status === "pass"
            ? `<li>${escapeHtml(check.proves)}</li>`
            : `<li class="not-run">${escapeHtml(`${check.proves} — needs --dataset`)}</li>`
        ).join("")
      }</ul>`,
      `<p class="proved">${escapeHtml(`proved: ${proved}`)}</p>`,
    );
  } else if (chart !== undefined) parts.push(chart);
  else for (const table of section.tables) parts.push(tableHtml(table, cellHtml));
  parts.push("</section>");
  return parts.join("\n");
}

export type { DifferenceRow };

/**
 * A figure of each row's difference with its interval (the many-candidate page's chart, `axis` naming the
 * difference) with its caption, and `table`, carrying the same numbers, beside it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { differencesFigure } from "./html.ts";
 * const table = { headers: ["candidate"], rows: [["a"]], numeric: [false] };
 * const html = differencesFigure("chart-x", [{ label: "a", mean: 0.1, lower: -0.05, upper: 0.3 }], "a − b", "Figure 1.", table);
 * strictEqual(html.includes('<svg id="chart-x"'), true);
 * strictEqual(html.includes("+0.100 [-0.050, +0.300]"), true);
 * ```
 */
export function differencesFigure(
  id: string,
  rows: readonly DifferenceRow[],
  axis: string,
  caption: string,
  table: Table,
): string {
  return figure(differencesChart(id, rows, axis), caption, table);
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

/** The discordant table's answer cells: a cut answer expands to the whole one. */
function fullAnswers(report: QaReport): CellHtml {
  return (row, column, text) => {
    const policy = column === 4 ? report.policies[0] : column === 5 ? report.policies[1] : undefined;
    const full = policy === undefined ? undefined : report.discordant[row]?.rows[policy].prediction;
    if (full === undefined || full === "" || full === text) return undefined;
    return `<details class="answer"><summary>${escapeHtml(text)}</summary>${escapeHtml(full)}</details>`;
  };
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
  charts: Map<string, string> = new Map<string, string>(),
  options: { lead?: string; cells?: Map<string, CellHtml>; notices?: readonly Notice[] } = {},
): string {
  const parts = sections.map((section) =>
    sectionHtml(section, charts.get(section.id), options.cells?.get(section.id))
  );
  return page(
    heading,
    `${options.lead === undefined ? "" : `${options.lead}\n`}${parts.join("\n")}
<footer><p class="muted">Generated by deermem-eval from the verified files; every number above is also in a table.</p></footer>`,
    "",
    options.notices,
  );
}

/** The sweep's verdict: its lines as a list, indented lines (a capacity's details) nested under the one above. */
function verdictHtml(section: Section): string {
  const items = section.lines.map((line) =>
    `<li${line.startsWith("  ") ? ' class="detail"' : ""}>${escapeHtml(line.trim())}</li>`
  );
  return `<section id="verdict"><h2>${escapeHtml(section.title)}</h2><ul class="verdict">${
    items.join("")
  }</ul></section>`;
}

/** The last part of a path: a page is headed by the directory's name, not where it sat. */
function baseName(path: string): string {
  return path.replace(/\/+$/, "").split("/").at(-1) || path;
}

/**
 * A sweep's report as one self-contained HTML page: the published point's differences, the heat map with its
 * legend, and the best and worst grid points; headed by the directory's name.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sweepHtml } from "./html.ts";
 * const heat = { title: "t", subtitle: "s", min: 0, max: 0, legend: [], cell: 33, labelSize: 12, width: 37, height: 37, panels: [] };
 * const page = sweepHtml("/tmp/runs/sweep/", { lines: ["best: 3 < 5"], svg: "<svg></svg>", heat });
 * strictEqual(page.includes("<h1>deermem-eval report: sweep (sweep)</h1>"), true); // its name, not its path
 * strictEqual(page.includes("<pre>best: 3 &lt; 5</pre>"), true);
 * ```
 */
export function sweepHtml(directory: string, sweep: SweepReport, notices: readonly Notice[] = []): string {
  const heading = `deermem-eval report: ${baseName(directory)} (sweep)`;
  if (sweep.heat === undefined) {
    return page(
      heading,
      `<section id="grid-points"><pre>${escapeHtml(sweep.lines.join("\n"))}</pre></section>`,
      "",
      notices,
    );
  }
  // The grid points as the Markdown shows them: a table per section (the count is the page's lead line).
  const verdict = sweep.sections?.find((section) => section.id === "verdict");
  const tables = sweep.sections?.filter((section) => section.id !== "sweep" && section !== verdict).map((
    section,
  ) => sectionHtml(section));
  const { body, style } = sweepBody(
    sweep.lines,
    sweep.heat,
    tables?.join("\n"),
    verdict === undefined ? undefined : verdictHtml(verdict),
  );
  return page(heading, body, style, notices);
}

/**
 * The report as one self-contained HTML page: for QA results the claim first (each suite's correct answers,
 * McNemar p and bootstrap interval), then verification, the charts with their tables, and the rest.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { samplePolicyReport } from "../run/samples.ts";
 * import { reportHtml } from "./html.ts";
 * const report = samplePolicyReport();
 * strictEqual(reportHtml(report).includes("<title>deermem-eval report: run (policy run)</title>"), true);
 * strictEqual(reportHtml(report).includes('<svg id="chart-retention-7"'), true); // the retention chart, inline
 * ```
 */
export function reportHtml(report: RunReport, notices: readonly Notice[] = []): string {
  const sections = reportSections(report);
  const { charts, cells } = perModel(HTML_PARTS, report, sections);
  return sectionsHtml(reportHeading(report), sections, charts, {
    lead: claimHtml(claimOf(report)),
    notices,
    ...(cells === undefined ? {} : { cells }),
  });
}

/** Each report model's charts, and the cells it draws in full (a QA run's discordant answers). */
const HTML_PARTS: PerModel<[Section[]], { charts: Map<string, string>; cells?: Map<string, CellHtml> }> = {
  qa: (report, sections) => ({
    charts: qaCharts(report, sections),
    cells: new Map([["discordant", fullAnswers(report)]]),
  }),
  policy: (report, sections) => ({ charts: policyCharts(report, sections) }),
};
