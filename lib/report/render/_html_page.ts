/**
 * The HTML pages' shared frame: the inline style sheet (light, dark and print), the page around a body, and
 * tables of a section's cells — a cell's markup replaceable, e.g. to let a cut answer expand to the full text.
 *
 * @module
 */

import { escapeHtml } from "../document/html_escape.ts";
import type { Table } from "../document/model.ts";
import { type Notice, noticeWord } from "../document/notices.ts";

const CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa;
  --grid: #d1d9e0; --p0: #bc4c00; --p1: #0969da; --p2: #8250df; --ok: #1a7f37; --lost: #8c959f; --zero: #cf222e; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --grid: #3d444d;
    --p0: #f0883e; --p1: #4493f8; --p2: #a371f7; --ok: #3fb950; --lost: #6e7681; --zero: #f85149; }
}
@media print {
  :root { --fg: #000000; --muted: #333333; --bg: #ffffff; --panel: #ffffff; --grid: #999999;
    --p0: #b35900; --p1: #0550ae; --p2: #6639ba; --ok: #116329; --lost: #8c959f; --zero: #a40e26; }
  figure, table { break-inside: avoid; }
  body { margin: 0; max-width: none; }
}
* { box-sizing: border-box; }
body { margin: 1.5rem auto; max-width: 90rem; padding: 0 1rem; background: var(--bg); color: var(--fg);
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
#claim { margin: 0 0 1.5rem; }
#claim h2 { margin-top: 0; }
#claim .suites { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 17rem), 1fr));
  gap: 0.75rem; }
#claim .suite { background: var(--panel); border: 1px solid var(--grid); border-radius: 6px; padding: 0.6rem 0.8rem; }
#claim h3 { font-size: 1rem; margin: 0 0 0.3rem; }
#claim .score { font-size: 1.25rem; font-weight: 600; font-variant-numeric: tabular-nums; }
#claim .p0 { color: var(--p0); } #claim .p1 { color: var(--p1); }
.pair { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
/* A chart's viewBox is 380 wide: from a phone's 358 px up to 512 px its 12-unit text renders at 11.3–16 px. */
.pair > figure { margin: 0.5rem 0; flex: 1 1 22rem; max-width: 32rem; min-width: 0; }
/* A table sits beside its chart only when it fits there whole; else it takes the next line. */
.pair > .table-wrap { flex: 1 1 max-content; min-width: 0; }
.pair > .table-wrap > table { width: 100%; }
figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 0.25rem; }
svg.chart { width: 100%; height: auto; display: block; }
svg.chart text { fill: var(--fg); font: 12px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
svg.chart .muted { fill: var(--muted); }
svg .axis { stroke: var(--fg); stroke-width: 1; }
svg .grid { stroke: var(--grid); stroke-width: 1; }
svg .zero { stroke: var(--zero); stroke-width: 2; stroke-dasharray: 6 3; }
svg .p0 { fill: var(--p0); } svg .p1 { fill: var(--p1); } svg .p2 { fill: var(--p2); }
svg .ok { fill: var(--ok); } svg .lost { fill: var(--lost); }
svg .whisker { stroke: var(--p1); stroke-width: 2.5; }
svg .point { fill: var(--p1); stroke: var(--bg); stroke-width: 1.5; }
details.answer summary { cursor: pointer; }
details.answer[open] summary { color: var(--muted); }
#grid-points pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13px; background: var(--panel);
  padding: 0.5rem 0.75rem; }
.legend { display: flex; flex-wrap: wrap; gap: 2px; margin: 0.5rem 0; }
.legend span { min-width: 2.6rem; padding: 0.1rem 0.3rem; text-align: center; font-size: 13px;
  font-variant-numeric: tabular-nums; }
.heat-panels { display: flex; flex-wrap: wrap; gap: 0.5rem 0.75rem; }
.heat-panel { margin: 0.5rem 0; min-width: 0; container-type: inline-size; }
.heat-panel figcaption { color: var(--fg); font-weight: 600; text-align: center; }
.heat-panel .corner { margin: 0; font-size: 13px; color: var(--muted); text-align: center; }
.heat-panel .corners { display: flex; justify-content: space-between; }
svg.heat { width: 100%; height: auto; display: block; }
svg.heat .ring { stroke: var(--fg); }
.name, td.name { white-space: nowrap; }
td { overflow-wrap: anywhere; }
#claim .checked { background: var(--panel); border-left: 4px solid var(--ok); padding: 0.5rem 0.75rem; }
/* On a phone a table of three or more columns stacks: each row a block, each cell its header then its value. */
@media (max-width: 40rem) {
  table.stack, table.stack tbody, table.stack tr { display: block; width: 100%; }
  table.stack thead { display: none; }
  table.stack tr { border: 1px solid var(--grid); border-radius: 4px; margin: 0 0 0.5rem; }
  table.stack td { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0.5rem;
    border: 0; border-bottom: 1px solid var(--grid); text-align: left; white-space: normal; }
  table.stack tr > td:last-child { border-bottom: 0; }
  table.stack td::before { content: attr(data-label); color: var(--muted); font-weight: 600;
    white-space: normal; overflow-wrap: normal; }
  table.stack td.name, table.stack td.num { white-space: nowrap; }
}
`;

/** A cell's markup in place of its escaped text, or undefined to keep the text (row and column from 0). */
export type CellHtml = (row: number, column: number, text: string) => string | undefined;

/** A name such as a policy's (`hybrid-v1`): one word with a hyphen, never broken there. */
const NAME = /^[A-Za-z][\w.]*-[\w.-]*$/;

/**
 * A table as HTML: hashes in monospace, numbers right-aligned, names unbroken; with three or more columns it
 * stacks on a phone (each cell labelled by its header through `data-label`), so no column is out of view.
 */
export function tableHtml(table: Table, cellHtml: CellHtml = () => undefined): string {
  const stack = table.headers.length >= 3 && table.headers.some((header) => header !== "");
  const cell = (tag: string, text: string, row: number, column: number) => {
    const classes = [
      table.numeric[column] ? "num" : "",
      /^[0-9a-f]{64}$/.test(text) ? "mono" : "",
      NAME.test(text) && text.length <= 24 ? "name" : "",
    ].filter((name) => name !== "").join(" ");
    const content = (row < 0 ? undefined : cellHtml(row, column, text)) ?? escapeHtml(text);
    const label = stack && tag === "td" ? ` data-label="${escapeHtml(table.headers[column])}"` : "";
    return `<${tag}${classes === "" ? "" : ` class="${classes}"`}${label}>${content}</${tag}>`;
  };
  const head = table.headers.every((header) => header === "")
    ? ""
    : `<thead><tr>${
      table.headers.map((header, column) => cell("th", header, -1, column)).join("")
    }</tr></thead>`;
  const body = table.rows.map((cells, row) =>
    `<tr>${cells.map((text, column) => cell("td", text, row, column)).join("")}</tr>`
  ).join("\n");
  return `<div class="table-wrap"><table${
    stack ? ' class="stack"' : ""
  }>${head}<tbody>\n${body}\n</tbody></table></div>`;
}

/**
 * A self-contained page: the shared head and style (and `style`, the page's own rules), the heading, `body`;
 * each notice's word before the title (the browser's first line) and its line first in the body.
 */
export function page(heading: string, body: string, style = "", notices: readonly Notice[] = []): string {
  const words = notices.map((notice) => `${noticeWord(notice)} — `).join("");
  const lines = notices.map((notice) => `<p><strong>${escapeHtml(notice.line)}</strong></p>\n`).join("");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${words}${escapeHtml(heading)}</title>
<style>${CSS}${style}</style>
</head>
<body>
${lines}<h1>${escapeHtml(heading)}</h1>
${body}
</body>
</html>
`;
}
