/**
 * The sweep page's body: the count and the published point's differences, the heat map (its legend and one
 * triangle per capacity, titles and corners as page text) and the best and worst grid points, wrapped to the
 * page. A triangle drops its cell numbers (the tooltips keep them) when it is drawn too narrow for them to
 * render at 11 px: a container query on each panel, computed from the triangle's width.
 *
 * @module
 */

import { signed } from "./_grid_points.ts";
import { type HeatMap, heatPanelSvg } from "./_heat_map.ts";
import { escapeHtml } from "./html_escape.ts";

/** The smallest rendered size of a cell number. */
const MIN_LABEL_PX = 11;

/** The heat map's own style: each panel as wide as its triangle at most, its numbers only where legible. */
function heatStyle(map: HeatMap): string {
  const natural = Math.ceil(map.width);
  const rules = [`.heat-panel { flex: 1 1 ${Math.min(natural, 600)}px; max-width: ${natural}px; }`];
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
): { body: string; style: string } {
  const published = lines.find((line) => line.startsWith("published parameters: "));
  const lead = [lines[0], published].filter((line) => line !== undefined)
    .map((line) => `<p>${escapeHtml(line!)}</p>`).join("\n");
  const body = `${lead}
<section id="heat-map"><h2>${escapeHtml(map.title)}</h2>
<p class="muted">${escapeHtml(map.subtitle)}.</p>
${legendHtml(map)}
<div class="heat-panels">${map.panels.map((panel) => panelHtml(map, panel)).join("\n")}</div>
<p class="muted">Hover over or tap a cell for its weights and its counts per scenario; where a triangle is too narrow for its numbers to be read, the colours and the tooltips carry them.</p>
</section>
${
    gridPoints ?? `<section id="grid-points"><h2>Best and worst grid points</h2>
<pre>${escapeHtml(lines.join("\n"))}</pre>
</section>`
  }`;
  return { body, style: heatStyle(map) };
}
