/**
 * `report` of a sweep directory: from `sweep.json` and `sweep.jsonl`, a terminal table of the best and worst grid
 * points (by `hybrid-v1`'s supports kept minus `confidence`'s, over all scenarios) and a self-contained SVG heat
 * map of that difference over the weight simplex, one triangle per capacity, each cell with its number in it.
 * Pure over the two files' text; {@linkcode readSweepReport} reads them.
 *
 * @module
 */

import * as z from "../base/zod.ts";
import { InputError } from "../base/errors.ts";
import { readBytes, SWEEP_OUTPUT_CAP } from "../base/fs.ts";
import { parseWith } from "../base/schema.ts";

const count = z.number().check(z.int("must be an integer"), z.minimum(0, "must be ≥ 0"));

/** One `sweep.jsonl` row. */
export const SweepRow = z.strictObject({
  capacity: z.number().check(z.int("must be an integer"), z.minimum(1, "must be ≥ 1")),
  cases: count,
  confidence_retained: count,
  difference: z.number().check(z.int("must be an integer")),
  hybrid_v1_retained: count,
  parameters: z.strictObject({
    access_half_life_days: z.number(),
    confirmation_half_life_days: z.number(),
    correction_reserved_fraction: z.number(),
    correction_reserved_max: z.number(),
    weights: z.strictObject({ access: z.number(), confidence: z.number(), confirmation: z.number() }),
  }),
  scenario: z.string(),
  source: z.string(),
}).check(z.refine((row) => row.difference === row.hybrid_v1_retained - row.confidence_retained, {
  message: "must equal hybrid_v1_retained - confidence_retained",
  path: ["difference"],
}));

/** A `sweep.jsonl` row. */
export type SweepRow = z.infer<typeof SweepRow>;

/** The parts of `sweep.json` the report reads. */
export const SweepRecordHead = z.object({
  protocol_id: z.string(),
  tool: z.string(),
  rows: count,
  grid: z.object({ weights_step: z.number().check(z.gt(0, "must be > 0")), capacities: z.array(z.number()) }),
  published: SweepRow.shape.parameters,
});

/** The report: terminal lines and the heat map. */
export interface SweepReport {
  lines: string[];
  /** A standalone SVG document (no external references). */
  svg: string;
}

/** A grid point: a parameter set at one capacity, with its per-scenario rows. */
interface Point {
  parameters: SweepRow["parameters"];
  capacity: number;
  difference: number;
  hybrid: number;
  confidence: number;
  cases: number;
  scenarios: { scenario: string; difference: number; hybrid: number; confidence: number; cases: number }[];
}

function parametersKey(parameters: SweepRow["parameters"]): string {
  const { weights: w } = parameters;
  return [
    w.confidence,
    w.confirmation,
    w.access,
    parameters.confirmation_half_life_days,
    parameters.access_half_life_days,
    parameters.correction_reserved_fraction,
    parameters.correction_reserved_max,
  ].join(",");
}

function sameScalars(a: SweepRow["parameters"], b: SweepRow["parameters"]): boolean {
  return a.confirmation_half_life_days === b.confirmation_half_life_days &&
    a.access_half_life_days === b.access_half_life_days &&
    a.correction_reserved_fraction === b.correction_reserved_fraction &&
    a.correction_reserved_max === b.correction_reserved_max;
}

function describe(parameters: SweepRow["parameters"]): string {
  const w = parameters.weights;
  return `${w.confidence}/${w.confirmation}/${w.access}`.padEnd(16) +
    `${parameters.confirmation_half_life_days}/${parameters.access_half_life_days} d`.padEnd(12) +
    `${parameters.correction_reserved_fraction} ≤ ${parameters.correction_reserved_max}`.padEnd(10);
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/**
 * Builds the report from the text of `sweep.json` and `sweep.jsonl` (`directory` names them in errors). A row or
 * record that does not match is an {@linkcode InputError} naming the file, the line and the field.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * import { parseGrid, runSweep, sweepJsonl, sweepRecord } from "../sweep/mod.ts";
 * import { sweepReport } from "./sweep.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", contracts.config)); // 231 weights × 2 reserves
 * const record = sweepRecord(result, contracts, prepared.dataset.sha256, "deermem-eval 0.1.0");
 * const { lines, svg } = sweepReport(record, sweepJsonl(result), "/tmp/sweep");
 * strictEqual(lines[0], "sweep of deermem-demo-synthetic-v1 by deermem-eval 0.1.0: 1386 grid points, 6930 rows");
 * strictEqual(svg.startsWith("<svg"), true);
 * ```
 */
export function sweepReport(recordText: string, rowsText: string, directory: string, top = 5): SweepReport {
  const recordPath = `${directory}/sweep.json`;
  const rowsPath = `${directory}/sweep.jsonl`;
  const record = parseWith(SweepRecordHead, parseJson(recordText, recordPath, ""), recordPath, {
    error: InputError,
  });
  // A grid point's rows are consecutive in the file (parameter set, then capacity, then scenario).
  const all: Point[] = [];
  let point: Point | undefined;
  let pointKey = "";
  const lines = rowsText.split("\n");
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((line, index) => {
    const prefix = `line ${index + 1}: `;
    const row = parseWith(SweepRow, parseJson(line, rowsPath, prefix), rowsPath, {
      error: InputError,
      prefix,
    });
    const key = `${parametersKey(row.parameters)}@${row.capacity}`;
    if (point === undefined || key !== pointKey) {
      point = {
        parameters: row.parameters,
        capacity: row.capacity,
        difference: 0,
        hybrid: 0,
        confidence: 0,
        cases: 0,
        scenarios: [],
      };
      pointKey = key;
      all.push(point);
    }
    point.difference += row.difference;
    point.hybrid += row.hybrid_v1_retained;
    point.confidence += row.confidence_retained;
    point.cases += row.cases;
    point.scenarios.push({
      scenario: row.scenario,
      difference: row.difference,
      hybrid: row.hybrid_v1_retained,
      confidence: row.confidence_retained,
      cases: row.cases,
    });
  });
  if (lines.length !== record.rows) {
    throw new InputError(`holds ${lines.length} rows; sweep.json says ${record.rows}`, { path: rowsPath });
  }
  const published = record.published;
  const publishedKey = parametersKey(published);
  const table = (title: string, chosen: Point[]) => [
    title,
    `  ${"difference".padEnd(16)}${"capacity".padEnd(9)}${"weights".padEnd(16)}${"half-lives".padEnd(12)}${
      "reserve".padEnd(10)
    }worst scenario`,
    ...chosen.map((point) => {
      const worst = point.scenarios.reduce((a, b) => b.difference < a.difference ? b : a);
      const mark = parametersKey(point.parameters) === publishedKey ? " (published)" : "";
      return `  ${`${signed(point.difference)} (${point.hybrid} vs ${point.confidence})`.padEnd(16)}${
        String(point.capacity).padEnd(9)
      }${describe(point.parameters)}${worst.scenario} ${signed(worst.difference)}${mark}`;
    }),
  ];
  // Ties keep file order, which is the grid's order: stable sorts.
  const best = [...all].sort((a, b) => b.difference - a.difference).slice(0, top);
  const worst = [...all].sort((a, b) => a.difference - b.difference).slice(0, top);
  const out = [
    `sweep of ${record.protocol_id} by ${record.tool}: ${all.length} grid points, ${lines.length} rows`,
    ...table(
      `best ${best.length} grid points (hybrid-v1 minus confidence, supports kept over all scenarios):`,
      best,
    ),
    ...table(`worst ${worst.length} grid points:`, worst),
  ];
  const publishedPoints = all.filter((point) => parametersKey(point.parameters) === publishedKey);
  if (publishedPoints.length > 0) {
    out.push(
      `published parameters: ${
        publishedPoints.map((point) => `capacity ${point.capacity} ${signed(point.difference)}`).join(", ")
      }`,
    );
  }
  return { lines: out, svg: heatMap(all, published, record.grid.weights_step) };
}

function parseJson(text: string, path: string, prefix: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`${prefix}not valid JSON: ${(error as Error).message}`, { path, cause: error });
  }
}

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

/**
 * The heat map: per capacity, the weight simplex (confidence at the top, confirmation bottom left, access bottom
 * right) at the published half-lives and reserve (or the first on the grid), each weight point a cell coloured by
 * the difference with its number in it and its parameters and per-scenario counts in a tooltip.
 */
function heatMap(all: Point[], published: SweepRow["parameters"], step: number): string {
  const divisions = Math.round(1 / step);
  const reference = all.find((point) => sameScalars(point.parameters, published))?.parameters ??
    all[0]?.parameters;
  const shown = reference === undefined
    ? []
    : all.filter((point) => sameScalars(point.parameters, reference));
  const capacities = [...new Set(shown.map((point) => point.capacity))].sort((a, b) => a - b);
  const scale = Math.max(1, ...shown.map((point) => Math.abs(point.difference)));
  const side = divisions * CELL;
  const panelWidth = side + 2 * CELL;
  const panelHeight = side * Math.sqrt(3) / 2 + 3 * CELL + 20;
  const columns = Math.min(2, Math.max(1, capacities.length));
  const width = columns * panelWidth + (columns - 1) * PANEL_GAP + 2 * PANEL_GAP;
  const header = 90;
  const height = header + Math.ceil(capacities.length / columns) * (panelHeight + PANEL_GAP) + PANEL_GAP;
  const parts: string[] = [];
  const title = reference === undefined
    ? "no grid points"
    : `half-lives ${reference.confirmation_half_life_days}/${reference.access_half_life_days} d, reserve ${reference.correction_reserved_fraction} up to ${reference.correction_reserved_max}`;
  parts.push(
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
  );
  capacities.forEach((capacity, panel) => {
    const left = PANEL_GAP + (panel % columns) * (panelWidth + PANEL_GAP);
    const top = header + Math.floor(panel / columns) * (panelHeight + PANEL_GAP);
    parts.push(`<g transform="translate(${left},${top})">`);
    parts.push(
      `<text x="${panelWidth / 2}" y="0" font-size="14" text-anchor="middle">capacity ${capacity}</text>`,
    );
    for (const point of shown.filter((item) => item.capacity === capacity)) {
      const { confidence, confirmation, access } = point.parameters.weights;
      const steps = [confidence, confirmation, access].map((weight) => Math.round(weight * divisions));
      // Row from the top: (divisions - confidence steps); within the row, access steps to the right.
      const row = divisions - steps[0];
      const x = CELL + (divisions - row) * CELL / 2 + steps[2] * CELL;
      const y = 2 * CELL + row * CELL * Math.sqrt(3) / 2;
      const isPublished = parametersKey(point.parameters) === parametersKey(published);
      const detail = point.scenarios.map((s) => `${s.scenario} ${s.hybrid} vs ${s.confidence} of ${s.cases}`)
        .join("; ");
      parts.push(
        `<g><title>${
          escapeXml(
            `capacity ${capacity}, weights ${confidence}/${confirmation}/${access}: ${
              signed(point.difference)
            } (${point.hybrid} vs ${point.confidence} of ${point.cases}); ${detail}`,
          )
        }</title><circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${CELL / 2 - 0.5}" fill="${
          colour(point.difference, scale)
        }" stroke="${isPublished ? "black" : "#bbb"}" stroke-width="${isPublished ? 2 : 0.5}"/><text x="${
          x.toFixed(1)
        }" y="${(y + 3).toFixed(1)}" font-size="8" text-anchor="middle">${
          signed(point.difference)
        }</text></g>`,
      );
    }
    const bottom = 2 * CELL + divisions * CELL * Math.sqrt(3) / 2 + CELL;
    parts.push(
      `<text x="${panelWidth / 2}" y="${CELL - 4}" font-size="10" text-anchor="middle">confidence 1</text>`,
      `<text x="${CELL / 2}" y="${bottom.toFixed(1)}" font-size="10">confirmation 1</text>`,
      `<text x="${panelWidth - CELL / 2}" y="${
        bottom.toFixed(1)
      }" font-size="10" text-anchor="end">access 1</text>`,
      `</g>`,
    );
  });
  parts.push(`</svg>`);
  return parts.join("\n") + "\n";
}

/**
 * Reads a sweep directory's `sweep.json` and `sweep.jsonl` (strict UTF-8) and builds the report.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { sweep } from "../sweep/mod.ts";
 * import { readSweepReport } from "./sweep.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const dir = await Deno.makeTempDir();
 * for (const [name, body] of [["c.yaml", demo.config], ["o.json", demo.official], ["s.json", demo.synthetic]]) {
 *   await Deno.writeTextFile(`${dir}/${name}`, body);
 * }
 * await Deno.writeFile(`${dir}/data.json`, demo.dataset);
 * const contracts = { config: `${dir}/c.yaml`, officialManifest: `${dir}/o.json`, syntheticManifest: `${dir}/s.json` };
 * await Deno.writeTextFile(`${dir}/grid.yaml`, "weights_step: 0.5\ncapacities: [7]\n");
 * const request = { contracts, dataset: `${dir}/data.json`, directory: `${dir}/sweep`, grid: `${dir}/grid.yaml` };
 * await sweep({ ...request, tool: "deermem-eval 0.1.0" });
 * const { lines, svg } = await readSweepReport(`${dir}/sweep`); // from sweep.json and sweep.jsonl alone
 * strictEqual(lines[0], "sweep of deermem-demo-synthetic-v1 by deermem-eval 0.1.0: 108 grid points, 540 rows");
 * strictEqual(svg.includes("<script"), false);
 * ```
 */
export async function readSweepReport(directory: string): Promise<SweepReport> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const read = async (name: string) => {
    const bytes = await readBytes(`${directory}/${name}`, "sweep output", SWEEP_OUTPUT_CAP);
    try {
      return decoder.decode(bytes);
    } catch {
      throw new InputError("not valid UTF-8", { path: `${directory}/${name}` });
    }
  };
  return sweepReport(await read("sweep.json"), await read("sweep.jsonl"), directory);
}
