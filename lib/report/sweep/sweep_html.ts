/**
 * The sweep page's body: the count and the published point's differences, the heat map (its legend and one
 * triangle per capacity, titles and corners as page text) and the best and worst grid points, wrapped to the
 * page. A triangle drops its cell numbers (the tooltips keep them) when it is drawn too narrow for them to
 * render at 11 px: a container query on each panel, computed from the triangle's width.
 *
 * @module
 */

import { signed } from "./grid_points.ts";
import { type HeatMap, heatPanelSvg } from "./_heat_map.ts";
import { escapeHtml } from "../document/html_escape.ts";

/** The smallest rendered size of a cell number. */
const MIN_LABEL_PX = 11;

/** The heat map's own style: each panel as wide as its triangle at most, its numbers only where legible. */
function heatStyle(map: HeatMap): string {
  const natural = Math.ceil(map.width);
  const rules = [
    `.heat-panel { flex: 1 1 ${Math.min(natural, 600)}px; max-width: ${natural}px; }`,
    "details.values tr.published td { font-weight: 700; }",
    "details.values summary { cursor: pointer; }",
    // A column a capacity: its heading wraps ("capacity" over the number), so a phone holds every column.
    "details.values th.num { white-space: normal; }",
    "ul.verdict { padding-left: 1.2rem; overflow-wrap: anywhere; } ul.verdict li.detail { margin-left: 1.2rem; }",
  ];
  if (map.labelSize !== undefined) {
    const narrowest = (map.width * MIN_LABEL_PX) / map.labelSize;
    rules.push(`@container (width < ${narrowest.toFixed(1)}px) { .cell-label { display: none; } }`);
  }
  return `\n${rules.join("\n")}\n`;
}

function legendHtml(map: HeatMap): string {
  return `<div class="legend" aria-label="colour scale, ${signed(map.min)} to ${signed(map.max)}">${
    map.legend.map((step) =>
      `<span style="background:${step.fill};color:${step.ink}">${escapeHtml(signed(step.value))}</span>`
    ).join("")
  }</div>`;
}

/**
 * Every cell's number as a table, one row per weight point and a column per capacity, the published point
 * marked: the numbers without hover or a wide screen (a phone hides the cells' labels).
 */
function valuesHtml(map: HeatMap): string {
  const weights = [...new Set(map.panels.flatMap((panel) => panel.cells.map((cell) => cell.weights)))];
  const byKey = new Map(
    map.panels.flatMap((panel) => panel.cells.map((cell) => [`${panel.capacity} ${cell.weights}`, cell])),
  );
  const rows = weights.map((weight) => {
    const cells = map.panels.map((panel) => byKey.get(`${panel.capacity} ${weight}`));
    const published = cells.some((cell) => cell?.published);
    const values = cells.map((cell) =>
      `<td class="num">${cell === undefined ? "–" : escapeHtml(signed(cell.value))}</td>`
    ).join("");
    return `<tr${published ? ' class="published"' : ""}><td>${escapeHtml(weight)}${
      published ? " (published)" : ""
    }</td>${values}</tr>`;
  });
  const head = map.panels.map((panel) => `<th class="num">capacity ${panel.capacity}</th>`).join("");
  return `<details class="values"><summary>Every cell's number (${weights.length} weight points)</summary>
<table><thead><tr><th>weights c/cf/a</th>${head}</tr></thead><tbody>
${rows.join("\n")}
</tbody></table></details>`;
}

function panelHtml(map: HeatMap, panel: HeatMap["panels"][number]): string {
  return `<figure class="heat-panel"><figcaption>capacity ${panel.capacity}</figcaption>` +
    `<p class="corner">confidence 1</p>${heatPanelSvg(map, panel)}` +
    `<p class="corner corners"><span>confirmation 1</span><span>access 1</span></p></figure>`;
}

/** The sweep page's body and its own style rules. */
export function sweepBody(
  lines: readonly string[],
  map: HeatMap,
  gridPoints?: string,
  verdict?: string,
): { body: string; style: string } {
  const published = lines.find((line) => line.startsWith("published parameters: "));
  const lead = [lines[0], published].filter((line) => line !== undefined)
    .map((line) => `<p>${escapeHtml(line!)}</p>`).join("\n");
  const body = `${lead}
${verdict ?? ""}
<section id="heat-map"><h2>${escapeHtml(map.title)}</h2>
<p class="muted">${escapeHtml(map.subtitle)}.</p>
${legendHtml(map)}
<div class="heat-panels">${map.panels.map((panel) => panelHtml(map, panel)).join("\n")}</div>
<p class="muted">Red: hybrid-v1 keeps fewer supports than confidence (a loss); blue: more; grey: the same. Hover over a cell for its weights and its counts per scenario; every number is in the table below.</p>
${valuesHtml(map)}
</section>
${
    gridPoints ?? `<section id="grid-points"><h2>Best and worst grid points</h2>
<pre>${escapeHtml(lines.join("\n"))}</pre>
</section>`
  }`;
  return { body, style: heatStyle(map) };
}
