/**
 * The grouped bar chart the HTML report draws its scenario and retention charts with: inline SVG on a 0–1
 * scale, styled by the page's CSS classes.
 *
 * @module
 */

import { escapeHtml } from "./html_escape.ts";

/** A coordinate at one decimal, as the charts write them. */
export const round = (value: number): number => Math.round(value * 10) / 10;

/** A bar of a grouped bar chart. */
export interface Bar {
  label: string;
  /** 0..1, or undefined when there is nothing to measure (drawn as "n=0"). */
  value: number | undefined;
  text: string;
  className: string;
  title: string;
}

/** A group of bars under one (possibly multi-line) label. */
export interface BarGroup {
  label: string;
  bars: Bar[];
}

const WIDTH = 720;
const HEIGHT = 300;
const LEFT = 44;
const RIGHT = 12;
const TOP = 40;
const BOTTOM = 58;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
const y = (value: number) => TOP + PLOT_HEIGHT * (1 - value);

function gridLines(): string[] {
  return [0, 0.25, 0.5, 0.75, 1].flatMap((tick) => [
    `<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${round(y(tick))}" y2="${round(y(tick))}"/>`,
    `<text class="muted" x="${LEFT - 6}" y="${round(y(tick) + 4)}" text-anchor="end">${
      tick.toFixed(2)
    }</text>`,
  ]);
}

function barParts(bar: Bar, x: number, barWidth: number): string[] {
  const center = round(x + barWidth / 2);
  if (bar.value === undefined) {
    return [
      `<text class="muted" x="${center}" y="${round(y(0) - 4)}" text-anchor="middle">${
        escapeHtml(bar.text)
      }</text>`,
    ];
  }
  const barHeight = Math.max(bar.value > 0 ? 1 : 0, PLOT_HEIGHT * bar.value);
  return [
    `<rect class="${bar.className}" x="${round(x + 1)}" y="${round(y(0) - barHeight)}" width="${
      round(barWidth - 2)
    }" height="${round(barHeight)}" data-value="${bar.value}"><title>${escapeHtml(bar.title)}</title></rect>`,
    `<text x="${center}" y="${round(y(0) - barHeight - 4)}" text-anchor="middle">${
      escapeHtml(bar.text)
    }</text>`,
  ];
}

function groupParts(group: BarGroup, index: number, slot: number): string[] {
  const barWidth = Math.min(44, (slot * 0.8) / group.bars.length);
  const start = LEFT + slot * index + (slot - barWidth * group.bars.length) / 2;
  const bars = group.bars.flatMap((bar, barIndex) => barParts(bar, start + barWidth * barIndex, barWidth));
  const labels = group.label.split("\n").map((line, lineIndex) =>
    `<text class="small" x="${round(LEFT + slot * index + slot / 2)}" y="${
      HEIGHT - BOTTOM + 16 + lineIndex * 14
    }" text-anchor="middle">${escapeHtml(line)}</text>`
  );
  return [...bars, ...labels];
}

function legendParts(legend: readonly [string, string][]): string[] {
  const parts: string[] = [];
  let legendX = LEFT;
  for (const [className, label] of legend) {
    parts.push(
      `<rect class="${className}" x="${legendX}" y="6" width="12" height="12"/>`,
      `<text x="${legendX + 16}" y="16">${escapeHtml(label)}</text>`,
    );
    legendX += 24 + label.length * 7;
  }
  return parts;
}

/** Grouped vertical bars on a 0–1 scale, with a legend of (CSS class, label) pairs. */
export function barChart(
  id: string,
  title: string,
  groups: readonly BarGroup[],
  legend: readonly [string, string][],
): string {
  const slot = PLOT_WIDTH / groups.length;
  const parts = [
    ...gridLines(),
    ...groups.flatMap((group, index) => groupParts(group, index, slot)),
    `<line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(0)}" y2="${y(0)}"/>`,
    ...legendParts(legend),
  ];
  return `<svg id="${id}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(title)}">${
    parts.join("")
  }</svg>`;
}
