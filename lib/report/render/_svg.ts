/**
 * The grouped bar chart the HTML report draws its scenario and retention charts with: inline SVG, horizontal
 * bars on a 0–1 scale under each group's label, styled by the page's CSS classes. The viewBox is as wide as a
 * phone's column ({@linkcode CHART_WIDTH}), so its 12-unit text never renders under 11 px there; the page caps
 * a figure's width so the text stays near body size on a desktop.
 *
 * @module
 */

import { escapeHtml } from "../document/html_escape.ts";

/** A coordinate at one decimal, as the charts write them. */
export const round = (value: number): number => Math.round(value * 10) / 10;

/** Every chart's viewBox width: a 390 px phone's column (358 px) draws 12-unit text at 11.3 px. */
export const CHART_WIDTH = 380;

/** A bar of a grouped bar chart. */
export interface Bar {
  label: string;
  /** 0..1, or undefined when there is nothing to measure (drawn as "n=0"). */
  value: number | undefined;
  text: string;
  className: string;
  title: string;
}

/** A group of bars under one label. */
export interface BarGroup {
  label: string;
  bars: Bar[];
}

const LEFT = 8;
const PLOT_WIDTH = 300;
const LEGEND = 26;
const AXIS = 22;
const LABEL = 18;
const BAR = 15;
const GAP = 12;
const x = (value: number) => LEFT + PLOT_WIDTH * value;

function gridLines(top: number, bottom: number): string[] {
  return [0, 0.25, 0.5, 0.75, 1].flatMap((tick) => [
    `<line class="grid" x1="${round(x(tick))}" x2="${round(x(tick))}" y1="${top}" y2="${bottom}"/>`,
    `<text class="muted" x="${round(x(tick))}" y="${bottom + 15}" text-anchor="${
      tick === 0 ? "start" : "middle"
    }">${tick === 0 || tick === 1 ? tick.toFixed(0) : tick.toFixed(2)}</text>`,
  ]);
}

function barParts(bar: Bar, top: number): string[] {
  const middle = round(top + BAR / 2 + 4);
  if (bar.value === undefined) {
    return [`<text class="muted" x="${LEFT + 4}" y="${middle}">${escapeHtml(bar.text)}</text>`];
  }
  const width = Math.max(bar.value > 0 ? 1 : 0, PLOT_WIDTH * bar.value);
  return [
    `<rect class="${bar.className}" x="${LEFT}" y="${round(top + 1)}" width="${round(width)}" height="${
      BAR - 2
    }" data-value="${bar.value}"><title>${escapeHtml(bar.title)}</title></rect>`,
    `<text x="${round(LEFT + width + 4)}" y="${middle}">${escapeHtml(bar.text)}</text>`,
  ];
}

/** A group's height: its label line, then one bar per row. */
const groupHeight = (group: BarGroup) => LABEL + BAR * group.bars.length + GAP;

function groupParts(group: BarGroup, top: number): string[] {
  return [
    `<text x="${LEFT}" y="${top + 13}">${escapeHtml(group.label)}</text>`,
    ...group.bars.flatMap((bar, index) => barParts(bar, top + LABEL + BAR * index)),
  ];
}

function legendParts(legend: readonly [string, string][]): string[] {
  const parts: string[] = [];
  let legendX = LEFT;
  for (const [className, label] of legend) {
    parts.push(
      `<rect class="${className}" x="${legendX}" y="5" width="12" height="12"/>`,
      `<text x="${legendX + 16}" y="15">${escapeHtml(label)}</text>`,
    );
    legendX += 28 + label.length * 6.6;
  }
  return parts;
}

/** Grouped horizontal bars on a 0–1 scale, with a legend of (CSS class, label) pairs. */
export function barChart(
  id: string,
  title: string,
  groups: readonly BarGroup[],
  legend: readonly [string, string][],
): string {
  const parts: string[] = [];
  let top = LEGEND;
  for (const group of groups) {
    parts.push(...groupParts(group, top));
    top += groupHeight(group);
  }
  const bottom = top - GAP + 4;
  const height = bottom + AXIS;
  return `<svg id="${id}" class="chart" viewBox="0 0 ${CHART_WIDTH} ${height}" role="img" aria-label="${
    escapeHtml(title)
  }">${[...gridLines(LEGEND - 4, bottom), ...parts, ...legendParts(legend)].join("")}</svg>`;
}
