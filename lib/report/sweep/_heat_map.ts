/**
 * The sweep's heat map: per capacity, the weight simplex (confidence at the top, confirmation bottom left,
 * access bottom right) at the published half-lives and reserve (or the first on the grid), each weight point a
 * cell coloured on a diverging scale centred on 0 (losses red, gains blue, by rank on each side), its number
 * in it when the cells are large enough to hold it at 12 px without touching a neighbour, its parameters and per-scenario counts in a tooltip, the
 * published point ringed outside its cell. A model ({@linkcode heatMapModel}) drawn two ways: a standalone SVG
 * document and, for the HTML page, one inline SVG per capacity.
 *
 * @module
 */

import { capacitiesOf } from "../run/groups.ts";
import { parametersKey, type Point, sameScalars, signed } from "./grid_points.ts";
import type { SweepRow } from "./sweep_schema.ts";

/** One weight point's cell, in its panel's coordinates. */
export interface HeatCell {
  cx: number;
  cy: number;
  value: number;
  fill: string;
  /** Black or white, whichever reads better on `fill`. */
  ink: string;
  published: boolean;
  /** The weights, confidence/confirmation/access. */
  weights: string;
  title: string;
}

/** The heat map: its scale, its legend and one panel of cells per capacity. */
export interface HeatMap {
  title: string;
  subtitle: string;
  min: number;
  max: number;
  legend: { value: number; fill: string; ink: string }[];
  /** Centre-to-centre distance of neighbouring cells. */
  cell: number;
  /** The cell labels' font size, or undefined when the cells are too small to hold a label. */
  labelSize: number | undefined;
  /** One panel's triangle: width and height in user units. */
  width: number;
  height: number;
  panels: { capacity: number; cells: HeatCell[] }[];
}

/** The standalone SVG's escaping: `&`, `<`, `>` and `"` (attributes are double-quoted). */
export function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll(
    '"',
    "&quot;",
  );
}

// ColorBrewer RdBu, 11 classes from dark red to dark blue (colour-blind safe, diverging): 0 the neutral grey
// in the middle, losses red and gains blue, darker with size.
const RDBU_HEX = "67001f b2182b d6604d f4a582 fddbc7 f7f7f7 d1e5f0 92c5de 4393c3 2166ac 053061";
const RDBU = RDBU_HEX.split(" ").map((hex) => [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16)));
const NEUTRAL = RDBU[5];
/** Each side's stops from the neutral grey outwards. */
const LOSS = RDBU.slice(0, 6).reverse();
const GAIN = RDBU.slice(5);
/** The palest a non-zero value is drawn: a loss or a gain is never mistaken for no difference. */
const FLOOR = 0.3;

/**
 * How dark `value` is drawn among the values shown (`levels`), signed as the value: 0 for 0, else from
 * {@linkcode FLOOR} to 1 by the rank of its magnitude among the magnitudes shown on either side, so a loss and
 * a gain of one size are equally dark, a larger one darker, and neighbouring sizes a step apart however far
 * apart the extremes are.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { heatLevel } from "./_heat_map.ts";
 * const levels = [-5, 0, 1, 5, 30];
 * deepStrictEqual([0, 1, 30].map((value) => heatLevel(value, levels)), [0, 0.3, 1]);
 * deepStrictEqual(heatLevel(-5, levels), -heatLevel(5, levels)); // a loss as dark as a gain of its size
 * ```
 */
export function heatLevel(value: number, levels: readonly number[]): number {
  if (value === 0) return 0;
  const sizes = [...new Set(levels.filter((level) => level !== 0).map(Math.abs))].sort((a, b) => a - b);
  const rank = sizes.findIndex((size) => size >= Math.abs(value));
  const t = FLOOR + (1 - FLOOR) * (sizes.length < 2 || rank === -1 ? 1 : rank / (sizes.length - 1));
  return Math.sign(value) * t;
}

/**
 * The colour of `value` among the values shown (`levels`, ascending, distinct) on a diverging scale centred on
 * 0: 0 is neutral, a loss red and a gain blue, as dark as {@linkcode heatLevel} says.
 */
export function heatColour(value: number, levels: readonly number[]): string {
  if (value === 0) return `rgb(${NEUTRAL.join(",")})`;
  const t = Math.abs(heatLevel(value, levels));
  const stops = value < 0 ? LOSS : GAIN;
  const at = t * (stops.length - 1);
  const index = Math.min(stops.length - 2, Math.floor(at));
  const [from, to] = [stops[index], stops[index + 1]];
  const mix = (channel: number) => Math.round(from[channel] + (to[channel] - from[channel]) * (at - index));
  return `rgb(${mix(0)},${mix(1)},${mix(2)})`;
}

/** Black or white ink for text on `fill`: the one of higher WCAG contrast (never under 4.5 on this scale). */
function inkOn(fill: string): string {
  const [r, g, b] = fill.match(/\d+/g)!.map((value) => {
    const channel = Number(value) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff";
}

const LABEL_SIZE = 12;
/** The widest triangle drawn with labels; a finer grid draws smaller cells without them. */
const MAX_LABELLED_SIDE = 1000;

/** Cell spacing: room for a `chars`-character label at 12 px inside the cell with a ring around it. */
function cellSize(divisions: number, chars: number): { cell: number; labelSize: number | undefined } {
  // A character is at most 0.7 em wide (DejaVu Sans's "+" is 0.84, its digits 0.64) and a label box 1.2 em
  // tall; the ring, drawn at half the spacing, clears the label's corners by 1.4 units inside its stroke.
  const halfDiagonal = Math.hypot(0.35 * LABEL_SIZE * chars, 0.6 * LABEL_SIZE);
  const labelled = Math.max(30, Math.ceil(2 * (halfDiagonal + 2.4)));
  if (divisions * labelled <= MAX_LABELLED_SIDE) return { cell: labelled, labelSize: LABEL_SIZE };
  return { cell: Math.max(6, Math.floor(MAX_LABELLED_SIDE / divisions)), labelSize: undefined };
}

function cellOf(
  point: Point,
  divisions: number,
  cell: number,
  levels: readonly number[],
  published: boolean,
) {
  const { confidence, confirmation, access } = point.parameters.weights;
  // Row from the top: (divisions - confidence steps); within the row, access steps to the right.
  const row = divisions - Math.round(confidence * divisions);
  const right = Math.round(access * divisions);
  const fill = heatColour(point.difference, levels);
  const detail = point.scenarios.map((s) => `${s.scenario} ${s.hybrid} vs ${s.confidence} of ${s.cases}`)
    .join("; ");
  return {
    cx: cell / 2 + 2 + ((divisions - row) * cell) / 2 + right * cell,
    cy: cell / 2 + 2 + (row * cell * Math.sqrt(3)) / 2,
    value: point.difference,
    fill,
    ink: inkOn(fill),
    published,
    weights: `${confidence}/${confirmation}/${access}`,
    title: `capacity ${point.capacity}, weights ${confidence}/${confirmation}/${access}: ${
      signed(point.difference)
    } (${point.hybrid} vs ${point.confidence} of ${point.cases}); ${detail}${published ? "; published" : ""}`,
  };
}

/**
 * The legend's values: every level when they are few, else about 12 spread by rank with both ends, 0 and the
 * most common value always among them.
 */
function legendValues(levels: readonly number[], values: readonly number[]): number[] {
  if (levels.length <= 16) return [...levels];
  const step = (levels.length - 1) / 11;
  const spread = Array.from({ length: 12 }, (_, index) => levels[Math.round(index * step)]);
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const common = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  const kept = [...spread, common, ...(levels.includes(0) ? [0] : [])].filter((value) => value !== undefined);
  return [...new Set(kept)].sort((a, b) => a - b);
}

/** The heat map of `all` grid points, the published parameters marked, on a grid of `step`. */
export function heatMapModel(
  all: readonly Point[],
  published: SweepRow["parameters"],
  step: number,
): HeatMap {
  const divisions = Math.round(1 / step);
  const reference = all.find((point) => sameScalars(point.parameters, published))?.parameters ??
    all[0]?.parameters;
  const shown = reference === undefined
    ? []
    : all.filter((point) => sameScalars(point.parameters, reference));
  const values = shown.map((point) => point.difference);
  const levels = [...new Set(values)].sort((a, b) => a - b);
  const [min, max] = levels.length === 0 ? [0, 0] : [levels[0], levels[levels.length - 1]];
  const chars = Math.max(1, ...values.map((value) => signed(value).length));
  const { cell, labelSize } = cellSize(divisions, chars);
  const publishedKey = parametersKey(published);
  return {
    title: "hybrid-v1 minus confidence: supports kept over all scenarios, by weights",
    subtitle: reference === undefined
      ? "no grid points"
      : `half-lives ${reference.confirmation_half_life_days}/${reference.access_half_life_days} d, reserve ${reference.correction_reserved_fraction} up to ${reference.correction_reserved_max}; confidence weight at the top, confirmation bottom left, access bottom right; the ringed cell is the published point`,
    min,
    max,
    legend: legendValues(levels, values).map((value) => {
      const fill = heatColour(value, levels);
      return { value, fill, ink: inkOn(fill) };
    }),
    cell,
    labelSize,
    width: divisions * cell + cell + 4,
    height: (divisions * cell * Math.sqrt(3)) / 2 + cell + 4,
    panels: capacitiesOf(shown).map((capacity) => ({
      capacity,
      cells: shown.filter((point) => point.capacity === capacity).map((point) =>
        cellOf(point, divisions, cell, levels, parametersKey(point.parameters) === publishedKey)
      ),
    })),
  };
}

/** One cell: its tooltip, its disc, the published ring outside the disc, and its number. */
function cellSvg(item: HeatCell, map: HeatMap): string {
  const [cx, cy] = [item.cx.toFixed(1), item.cy.toFixed(1)];
  const ring = item.published
    ? `<circle class="ring" cx="${cx}" cy="${cy}" r="${
      (map.cell / 2 - 1).toFixed(1)
    }" fill="none" stroke="#000000" stroke-width="2"/>`
    : "";
  const label = map.labelSize === undefined
    ? ""
    : `<text class="cell-label" x="${cx}" y="${
      (item.cy + map.labelSize * 0.36).toFixed(1)
    }" font-size="${map.labelSize}" text-anchor="middle" fill="${item.ink}"${
      item.published ? ' font-weight="700"' : ""
    }>${signed(item.value)}</text>`;
  return `<g class="cell${item.published ? " published" : ""}"><title>${escapeXml(item.title)}</title>` +
    `<circle class="dot" cx="${cx}" cy="${cy}" r="${(map.cell / 2 - 4).toFixed(1)}" fill="${item.fill}"/>` +
    `${ring}${label}</g>`;
}

/** One capacity's triangle as an inline SVG for the HTML page (which draws its title and corners). */
export function heatPanelSvg(map: HeatMap, panel: HeatMap["panels"][number]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="heat" viewBox="0 0 ${map.width} ${
    Math.round(map.height)
  }" role="img" aria-label="capacity ${panel.capacity}">${
    panel.cells.map((item) => cellSvg(item, map)).join("")
  }</svg>`;
}

const GAP = 40;
const HEADER = 110;

/** The heat map as a standalone SVG document: title, legend, and the triangles two to a row. */
export function heatMapSvg(map: HeatMap): string {
  const columns = Math.min(2, Math.max(1, map.panels.length));
  const panelHeight = map.height + 44;
  const width = Math.max(640, columns * map.width + (columns + 1) * GAP);
  const height = Math.round(HEADER + Math.ceil(map.panels.length / columns) * (panelHeight + GAP) + GAP);
  const legend = map.legend.map((step, index) =>
    `<rect x="${GAP + index * 44}" y="66" width="40" height="22" fill="${step.fill}"/><text x="${
      GAP + index * 44 + 20
    }" y="81" font-size="12" text-anchor="middle" fill="${step.ink}">${signed(step.value)}</text>`
  );
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<title>${escapeXml(map.title)}</title>`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${GAP}" y="30" font-size="16">${escapeXml(map.title)}</text>`,
    `<text x="${GAP}" y="52" font-size="12">${escapeXml(map.subtitle)}</text>`,
    ...legend,
  ];
  map.panels.forEach((panel, index) => {
    const left = GAP + (index % columns) * (map.width + GAP);
    const top = HEADER + Math.floor(index / columns) * (panelHeight + GAP);
    parts.push(
      `<g transform="translate(${left},${top})">`,
      `<text x="${
        map.width / 2
      }" y="14" font-size="14" text-anchor="middle">capacity ${panel.capacity} · confidence 1</text>`,
      `<g transform="translate(0,22)">${panel.cells.map((item) => cellSvg(item, map)).join("")}</g>`,
      `<text x="0" y="${(map.height + 40).toFixed(1)}" font-size="12">confirmation 1</text>`,
      `<text x="${map.width}" y="${
        (map.height + 40).toFixed(1)
      }" font-size="12" text-anchor="end">access 1</text>`,
      `</g>`,
    );
  });
  parts.push(`</svg>`);
  return parts.join("\n") + "\n";
}
