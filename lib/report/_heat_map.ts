/**
 * The sweep's heat map: per capacity, the weight simplex (confidence at the top, confirmation bottom left,
 * access bottom right) at the published half-lives and reserve (or the first on the grid), each weight point a
 * cell coloured by the difference with its number in it and its parameters and per-scenario counts in a
 * tooltip. A standalone SVG document.
 *
 * @module
 */

import { capacitiesOf } from "./_groups.ts";
import { parametersKey, type Point, sameScalars, signed } from "./_grid_points.ts";
import type { SweepRow } from "./sweep_schema.ts";

/** The standalone SVG's escaping: `&`, `<`, `>` and `"` (attributes are double-quoted). */
function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll(
    '"',
    "&quot;",
  );
}

/** A diverging colour: red for fewer supports than confidence, white for equal, blue for more. */
function colour(difference: number, scale: number): string {
  const t = scale === 0 ? 0 : Math.max(-1, Math.min(1, difference / scale));
  const mix = (from: number, to: number) => Math.round(from + (to - from) * Math.abs(t));
  return t < 0
    ? `rgb(${mix(255, 202)},${mix(255, 0)},${mix(255, 32)})`
    : `rgb(${mix(255, 5)},${mix(255, 113)},${mix(255, 176)})`;
}

const CELL = 22;
const PANEL_GAP = 40;
const HEADER = 90;

/** The page's size and panel grid for `panels` triangles of `divisions` steps a side. */
function layout(divisions: number, panels: number) {
  const side = divisions * CELL;
  const panelWidth = side + 2 * CELL;
  const panelHeight = side * Math.sqrt(3) / 2 + 3 * CELL + 20;
  const columns = Math.min(2, Math.max(1, panels));
  const width = columns * panelWidth + (columns - 1) * PANEL_GAP + 2 * PANEL_GAP;
  const height = HEADER + Math.ceil(panels / columns) * (panelHeight + PANEL_GAP) + PANEL_GAP;
  return { panelWidth, panelHeight, columns, width, height };
}

function header(width: number, height: number, reference: SweepRow["parameters"] | undefined, scale: number) {
  const title = reference === undefined
    ? "no grid points"
    : `half-lives ${reference.confirmation_half_life_days}/${reference.access_half_life_days} d, reserve ${reference.correction_reserved_fraction} up to ${reference.correction_reserved_max}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${
      Math.round(height)
    }" viewBox="0 0 ${width} ${Math.round(height)}" font-family="sans-serif">`,
    `<title>hybrid-v1 minus confidence, supports kept over all scenarios, over the weight simplex</title>`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${PANEL_GAP}" y="30" font-size="16">hybrid-v1 minus confidence: supports kept over all scenarios, by weights</text>`,
    `<text x="${PANEL_GAP}" y="52" font-size="12">${
      escapeXml(title)
    }; confidence weight at the top, confirmation bottom left, access bottom right; ● published</text>`,
    `<text x="${PANEL_GAP}" y="72" font-size="12"><tspan fill="${
      colour(-scale, scale)
    }">■</tspan> ${-scale}  <tspan fill="${
      colour(0, scale)
    }" stroke="#999" stroke-width="0.5">■</tspan> 0  <tspan fill="${
      colour(scale, scale)
    }">■</tspan> +${scale}</text>`,
  ];
}

/** One weight point's cell: its circle, its number and its tooltip. */
function cell(point: Point, divisions: number, scale: number, isPublished: boolean): string {
  const { confidence, confirmation, access } = point.parameters.weights;
  const steps = [confidence, confirmation, access].map((weight) => Math.round(weight * divisions));
  // Row from the top: (divisions - confidence steps); within the row, access steps to the right.
  const row = divisions - steps[0];
  const x = CELL + (divisions - row) * CELL / 2 + steps[2] * CELL;
  const y = 2 * CELL + row * CELL * Math.sqrt(3) / 2;
  const detail = point.scenarios.map((s) => `${s.scenario} ${s.hybrid} vs ${s.confidence} of ${s.cases}`)
    .join("; ");
  return `<g><title>${
    escapeXml(
      `capacity ${point.capacity}, weights ${confidence}/${confirmation}/${access}: ${
        signed(point.difference)
      } (${point.hybrid} vs ${point.confidence} of ${point.cases}); ${detail}`,
    )
  }</title><circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${CELL / 2 - 0.5}" fill="${
    colour(point.difference, scale)
  }" stroke="${isPublished ? "black" : "#bbb"}" stroke-width="${isPublished ? 2 : 0.5}"/><text x="${
    x.toFixed(1)
  }" y="${(y + 3).toFixed(1)}" font-size="8" text-anchor="middle">${signed(point.difference)}</text></g>`;
}

/** One capacity's triangle, translated to its place in the grid, with its corners labelled. */
function panel(
  points: readonly Point[],
  capacity: number,
  origin: { left: number; top: number; panelWidth: number },
  divisions: number,
  isPublished: (point: Point) => boolean,
  scale: number,
): string[] {
  const { left, top, panelWidth } = origin;
  const bottom = 2 * CELL + divisions * CELL * Math.sqrt(3) / 2 + CELL;
  return [
    `<g transform="translate(${left},${top})">`,
    `<text x="${panelWidth / 2}" y="0" font-size="14" text-anchor="middle">capacity ${capacity}</text>`,
    ...points.filter((item) => item.capacity === capacity)
      .map((point) => cell(point, divisions, scale, isPublished(point))),
    `<text x="${panelWidth / 2}" y="${CELL - 4}" font-size="10" text-anchor="middle">confidence 1</text>`,
    `<text x="${CELL / 2}" y="${bottom.toFixed(1)}" font-size="10">confirmation 1</text>`,
    `<text x="${panelWidth - CELL / 2}" y="${
      bottom.toFixed(1)
    }" font-size="10" text-anchor="end">access 1</text>`,
    `</g>`,
  ];
}

/** The heat map of `all` grid points, the published parameters marked, on a grid of `step`. */
export function heatMap(all: readonly Point[], published: SweepRow["parameters"], step: number): string {
  const divisions = Math.round(1 / step);
  const reference = all.find((point) => sameScalars(point.parameters, published))?.parameters ??
    all[0]?.parameters;
  const shown = reference === undefined
    ? []
    : all.filter((point) => sameScalars(point.parameters, reference));
  const capacities = capacitiesOf(shown);
  const scale = Math.max(1, ...shown.map((point) => Math.abs(point.difference)));
  const { panelWidth, panelHeight, columns, width, height } = layout(divisions, capacities.length);
  const publishedKey = parametersKey(published);
  const isPublished = (point: Point) => parametersKey(point.parameters) === publishedKey;
  const parts = header(width, height, reference, scale);
  capacities.forEach((capacity, index) => {
    const left = PANEL_GAP + (index % columns) * (panelWidth + PANEL_GAP);
    const top = HEADER + Math.floor(index / columns) * (panelHeight + PANEL_GAP);
    parts.push(...panel(shown, capacity, { left, top, panelWidth }, divisions, isPublished, scale));
  });
  parts.push(`</svg>`);
  return parts.join("\n") + "\n";
}
