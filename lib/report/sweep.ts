/**
 * `report` of a sweep directory: from `sweep.json` and `sweep.jsonl`, a terminal table of the best and worst grid
 * points (by `hybrid-v1`'s supports kept minus `confidence`'s, over all scenarios) and a self-contained SVG heat
 * map of that difference over the weight simplex, one triangle per capacity, each cell with its number in it.
 * Pure over the two files' text; {@linkcode readSweepReport} reads them.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { readText, SWEEP_OUTPUT_CAP } from "../base/fs.ts";
import { parseWith } from "../base/schema.ts";
import { describe, gridPoints, parametersKey, parseJson, type Point, signed } from "./_grid_points.ts";
import { heatMap } from "./_heat_map.ts";
import { SweepRecordHead, type SweepRow } from "./sweep_schema.ts";

/** The report: terminal lines and the heat map. */
export interface SweepReport {
  lines: string[];
  /** A standalone SVG document (no external references). */
  svg: string;
}

/** A titled table of grid points: difference, capacity, parameters and the worst scenario of each. */
function pointTable(title: string, chosen: readonly Point[], publishedKey: string): string[] {
  return [
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
}

/** The terminal lines: a count, the best and worst `top` points, and the published parameters' differences. */
function sweepLines(
  head: { protocol_id: string; tool: string; rows: number },
  all: readonly Point[],
  published: SweepRow["parameters"],
  top: number,
): string[] {
  const publishedKey = parametersKey(published);
  // Ties keep file order, which is the grid's order: stable sorts.
  const best = [...all].sort((a, b) => b.difference - a.difference).slice(0, top);
  const worst = [...all].sort((a, b) => a.difference - b.difference).slice(0, top);
  const out = [
    `sweep of ${head.protocol_id} by ${head.tool}: ${all.length} grid points, ${head.rows} rows`,
    ...pointTable(
      `best ${best.length} grid points (hybrid-v1 minus confidence, supports kept over all scenarios):`,
      best,
      publishedKey,
    ),
    ...pointTable(`worst ${worst.length} grid points:`, worst, publishedKey),
  ];
  const publishedPoints = all.filter((point) => parametersKey(point.parameters) === publishedKey);
  if (publishedPoints.length > 0) {
    out.push(
      `published parameters: ${
        publishedPoints.map((point) => `capacity ${point.capacity} ${signed(point.difference)}`).join(", ")
      }`,
    );
  }
  return out;
}

/**
 * Builds the report from the text of `sweep.json` and `sweep.jsonl` (`directory` names them in errors). A row or
 * record that does not match is an {@linkcode InputError} naming the file, the line and the field.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonl, sweepRecord } from "../sweep/mod.ts";
 * import { sweepReport } from "./sweep.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), { contracts } = prepared;
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
  const { points, rows } = gridPoints(rowsText, rowsPath);
  if (rows !== record.rows) {
    throw new InputError(`holds ${rows} rows; sweep.json says ${record.rows}`, { path: rowsPath });
  }
  return {
    lines: sweepLines({ ...record, rows }, points, record.published, top),
    svg: heatMap(points, record.published, record.grid.weights_step),
  };
}

/**
 * Reads a sweep directory's `sweep.json` and `sweep.jsonl` (strict UTF-8) and builds the report.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonl, sweepRecord } from "../sweep/mod.ts";
 * import { readSweepReport } from "./sweep.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), { contracts } = prepared;
 * const result = runSweep(prepared, parseGrid("weights_step: 0.5\ncapacities: [7]\n", "grid.yaml", contracts.config));
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/sweep.jsonl`, sweepJsonl(result));
 * await Deno.writeTextFile(`${dir}/sweep.json`, sweepRecord(result, contracts, prepared.dataset.sha256, "deermem-eval 0.1.0"));
 * const { lines, svg } = await readSweepReport(dir); // from sweep.json and sweep.jsonl alone
 * strictEqual(lines[0], "sweep of deermem-demo-synthetic-v1 by deermem-eval 0.1.0: 108 grid points, 540 rows");
 * strictEqual(svg.includes("<script"), false);
 * ```
 */
export async function readSweepReport(directory: string): Promise<SweepReport> {
  const read = (name: string) => readText(`${directory}/${name}`, "sweep output", SWEEP_OUTPUT_CAP);
  return sweepReport(await read("sweep.json"), await read("sweep.jsonl"), directory);
}
