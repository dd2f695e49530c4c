/**
 * `report` of a sweep directory: from `sweep.json` and `sweep.jsonl`, a terminal table of the best and worst grid
 * points (by `hybrid-v1`'s supports kept minus `confidence`'s, over all scenarios) and a self-contained SVG heat
 * map of that difference over the weight simplex, one triangle per capacity, each cell with its number in it.
 * Pure over the two files' text; {@linkcode readSweepReport} reads them.
 *
 * @module
 */

import { InputError, parseWith } from "../../base/mod.ts";
import { NotVerifiedError } from "../../verify/mod.ts";
import type { Contracts, PreparedCase } from "../../protocol/mod.ts";
import { parseJsonText } from "../../py/mod.ts";
import { parametersAt, type SweepResult, sweepSummaryLines } from "../../sweep/mod.ts";
import { verifySweep } from "../../verify/mod.ts";
import { describe, gridPoints, parametersKey, type Point, signed } from "./grid_points.ts";
import { type HeatMap, heatMapModel, heatMapSvg } from "./_heat_map.ts";
import { type Section, type Table, table } from "../document/model.ts";
import { verificationSection } from "../run/sections.ts";
import type { Verification } from "../run/verification.ts";
import { SweepRecordHead, type SweepRow } from "./sweep_schema.ts";

export type { HeatMap };

/** The report: terminal lines and the heat map (what every renderer reads), tables, figures and verification. */
export interface SweepReport {
  lines: string[];
  /** The heat map as a standalone SVG document (no external references). */
  svg: string;
  /** The heat map's cells, scale and legend, which the HTML page draws (always set by `sweepReport`). */
  heat?: HeatMap;
  /** The lines' content as titled tables, for the renderers that draw tables. */
  sections?: Section[];
  /** The figures the lines and tables show, as values (`report --json`). */
  summary?: SweepSummary;
  /** What `verify` proved of the directory, when it was verified ({@linkcode readSweepReport}). */
  verification?: Verification;
  /** The SHA-256 of the dataset the sweep was made on, as its `sweep.json` records it. */
  datasetSha256?: string;
}

/** A report as {@linkcode sweepReport} and {@linkcode readSweepReport} build it: tables and figures included. */
export interface BuiltSweepReport extends SweepReport {
  sections: Section[];
  summary: SweepSummary;
}

/** What a sweep report shows, as values. */
export interface SweepSummary {
  protocolId: string;
  tool: string;
  gridPoints: number;
  rows: number;
  /** The best and worst grid points (hybrid-v1 minus confidence over all scenarios), ties in the grid's order. */
  best: Point[];
  worst: Point[];
  /** The published parameters, and their grid point at each capacity of the grid (none when off the grid). */
  published: SweepRow["parameters"];
  publishedPoints: Point[];
}

/** A table of grid points: one row per point, its difference, counts, parameters and worst scenario. */
function pointRowsTable(chosen: readonly Point[], publishedKey: string): Table {
  return table(
    [
      "difference",
      "hybrid-v1",
      "confidence",
      "capacity",
      "weights",
      "half-lives",
      "reserve",
      "worst scenario",
      "published",
    ],
    chosen.map((point) => {
      const worst = point.scenarios.reduce((a, b) => b.difference < a.difference ? b : a);
      const { weights: w } = point.parameters;
      return [
        signed(point.difference),
        String(point.hybrid),
        String(point.confidence),
        String(point.capacity),
        `${w.confidence}/${w.confirmation}/${w.access}`,
        `${point.parameters.confirmation_half_life_days}/${point.parameters.access_half_life_days} d`,
        `${point.parameters.correction_reserved_fraction} ≤ ${point.parameters.correction_reserved_max}`,
        `${worst.scenario} ${signed(worst.difference)}`,
        parametersKey(point.parameters) === publishedKey ? "yes" : "",
      ];
    }),
    [true, true, true, true, false, false, false, false, false],
  );
}

/** The sections: the count, the best and worst points, and the published parameters at each capacity. */
function sweepSections(summary: SweepSummary): Section[] {
  const { best, worst, published, publishedPoints } = summary;
  const publishedKey = parametersKey(published);
  const what =
    "hybrid-v1 minus confidence, supports kept over all scenarios; weights confidence/confirmation/access";
  return [
    {
      id: "sweep",
      title: "Sweep",
      lines: [countLine(summary)],
      tables: [],
    },
    {
      id: "best",
      title: `Best ${best.length} grid points`,
      lines: [what],
      tables: [pointRowsTable(best, publishedKey)],
    },
    {
      id: "worst",
      title: `Worst ${worst.length} grid points`,
      lines: [],
      tables: [pointRowsTable(worst, publishedKey)],
    },
    {
      id: "published",
      title: "Published parameters",
      lines: [
        publishedPoints.length > 0 ? describeInWords(published) : "not on this grid",
      ],
      tables: publishedPoints.length === 0 ? [] : [table(
        ["capacity", "difference", "hybrid-v1", "confidence"],
        publishedPoints.map((point) => [
          String(point.capacity),
          signed(point.difference),
          String(point.hybrid),
          String(point.confidence),
        ]),
        [true, true, true, true],
      )],
    },
  ];
}

/** Parameters in one sentence: `weights 0.65/0.25/0.1, half-lives 90/30 d, reserve 0.1 up to 10`. */
function describeInWords(parameters: SweepRow["parameters"]): string {
  const { weights: w } = parameters;
  return `weights ${w.confidence}/${w.confirmation}/${w.access}, half-lives ${parameters.confirmation_half_life_days}/${parameters.access_half_life_days} d, reserve ${parameters.correction_reserved_fraction} up to ${parameters.correction_reserved_max}`;
}

/** The best and worst `top` points; ties keep file order, which is the grid's order (stable sorts). */
function bestAndWorst(all: readonly Point[], top: number): { best: Point[]; worst: Point[] } {
  return {
    best: [...all].sort((a, b) => b.difference - a.difference).slice(0, top),
    worst: [...all].sort((a, b) => a.difference - b.difference).slice(0, top),
  };
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

/** The count line the terminal and the sections open with. */
function countLine(summary: SweepSummary): string {
  return `sweep of ${summary.protocolId} by ${summary.tool}: ${summary.gridPoints} grid points, ${summary.rows} rows`;
}

/** The terminal lines: a count, the best and worst points, and the published parameters' differences. */
function sweepLines(summary: SweepSummary): string[] {
  const { best, worst, publishedPoints } = summary;
  const publishedKey = parametersKey(summary.published);
  const out = [
    countLine(summary),
    ...pointTable(
      `best ${best.length} grid points (hybrid-v1 minus confidence, supports kept over all scenarios):`,
      best,
      publishedKey,
    ),
    ...pointTable(`worst ${worst.length} grid points:`, worst, publishedKey),
  ];
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
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256, sweepRecord } from "../../sweep/mod.ts";
 * import { sweepReport } from "./sweep.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), { contracts } = prepared;
 * const small = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
 * const result = runSweep(prepared, parseGrid(small, "grid.yaml", contracts.config)); // 231 weights × 2 reserves
 * const record = sweepRecord(result, contracts, prepared.dataset.sha256, "deermem-eval 0.1.0", await sweepJsonlSha256(result));
 * const { lines, svg } = sweepReport(record, sweepJsonl(result), "/tmp/sweep");
 * strictEqual(lines[0], "sweep of deermem-demo-synthetic-v1 by deermem-eval 0.1.0: 1386 grid points, 6930 rows");
 * strictEqual(svg.startsWith("<svg"), true);
 * ```
 */
export function sweepReport(
  recordText: string,
  rowsText: string,
  directory: string,
  top = 5,
): BuiltSweepReport {
  const recordPath = `${directory}/sweep.json`;
  const rowsPath = `${directory}/sweep.jsonl`;
  const record = parseWith(
    SweepRecordHead,
    parseJsonText(recordText, recordPath, { error: InputError }),
    recordPath,
    {
      error: InputError,
    },
  );
  const { points, rows } = gridPoints(rowsText, rowsPath);
  if (rows !== record.rows) {
    throw new InputError(`holds ${rows} rows; sweep.json says ${record.rows}`, { path: rowsPath });
  }
  return reportOf({ ...record, rows }, points, top);
}

function reportOf(
  record: SweepRecordHead & { rows: number },
  points: readonly Point[],
  top: number,
): BuiltSweepReport {
  const publishedKey = parametersKey(record.published);
  const heat = heatMapModel(points, record.published, record.grid.weights_step);
  const summary: SweepSummary = {
    protocolId: record.protocol_id,
    tool: record.tool,
    gridPoints: points.length,
    rows: record.rows,
    ...bestAndWorst(points, top),
    published: record.published,
    publishedPoints: points.filter((point) => parametersKey(point.parameters) === publishedKey),
  };
  return {
    summary,
    lines: sweepLines(summary),
    sections: sweepSections(summary),
    svg: heatMapSvg(heat),
    heat,
  };
}

/**
 * The sweep's verdict, as `sweep` prints it: where the published parameters keep at least as many supports as
 * confidence and where fewer (per capacity and scenario), and how far their neighbourhood reaches.
 */
function verdictSection(result: SweepResult, protocolCapacities: readonly number[]): Section {
  // The first line (the grid's size) is the report's own count line; the rest is the verdict.
  const lines = sweepSummaryLines(result, protocolCapacities).slice(1);
  return { id: "verdict", title: "Verdict: the published parameters on the grid", lines, tables: [] };
}

/** The grid points of a sweep rebuilt from its rows, in the rows' order (what {@linkcode gridPoints} reads). */
function pointsOf(result: SweepResult): Point[] {
  const { grid, groups } = result;
  const points: Point[] = [];
  for (let set = 0; set < result.parameterSets; set++) {
    const p = parametersAt(grid, set);
    const parameters = {
      access_half_life_days: p.accessHalfLifeDays,
      confirmation_half_life_days: p.confirmationHalfLifeDays,
      correction_reserved_fraction: p.correctionReservedFraction,
      correction_reserved_max: p.correctionReservedMax,
      weights: { access: p.accessWeight, confidence: p.confidenceWeight, confirmation: p.confirmationWeight },
    };
    grid.capacities.forEach((capacity, capacityIndex) => {
      const scenarios = groups.map((group, index) => {
        const hybrid = result.hybrid[(set * grid.capacities.length + capacityIndex) * groups.length + index];
        const confidence = result.confidence[capacityIndex * groups.length + index];
        return {
          scenario: group.scenario,
          difference: hybrid - confidence,
          hybrid,
          confidence,
          cases: group.cases,
        };
      });
      const sum = (key: "difference" | "hybrid" | "confidence" | "cases") =>
        scenarios.reduce((total, item) => total + item[key], 0);
      points.push({
        parameters,
        capacity,
        difference: sum("difference"),
        hybrid: sum("hybrid"),
        confidence: sum("confidence"),
        cases: sum("cases"),
        scenarios,
      });
    });
  }
  return points;
}

/**
 * Verifies a sweep directory as `verify` does ({@linkcode verifySweep}: the recorded SHA-256 of `sweep.jsonl`,
 * every row where the grid puts it, `sweep.json` re-derived from the rows; with `cases` every row recomputed)
 * and builds the report from the verified files, its verification first. A failed check is a
 * `NotVerifiedError` (from `base/errors.ts`) carrying the checks.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { NotVerifiedError } from "../../verify/mod.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256, sweepRecord } from "../../sweep/mod.ts";
 * import { readSweepReport } from "./sweep.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), { contracts } = prepared;
 * const result = runSweep(prepared, parseGrid("weights_step: 0.5\ncapacities: [7]\n", "grid.yaml", contracts.config));
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/sweep.jsonl`, sweepJsonl(result));
 * await Deno.writeTextFile(`${dir}/sweep.json`, sweepRecord(result, contracts, prepared.dataset.sha256, "deermem-eval 0.1.0", await sweepJsonlSha256(result)));
 * const { lines, svg } = await readSweepReport(dir, contracts); // from sweep.json and sweep.jsonl alone
 * strictEqual(lines[0], "sweep of deermem-demo-synthetic-v1 by deermem-eval 0.1.0: 108 grid points, 540 rows");
 * strictEqual(svg.includes("<script"), false);
 * await Deno.writeTextFile(`${dir}/sweep.jsonl`, sweepJsonl(result).replace('"hybrid_v1_retained": 1,', '"hybrid_v1_retained": 2,'));
 * await rejects(readSweepReport(dir, contracts), NotVerifiedError); // a row changed after sweep wrote it
 * ```
 */
export async function readSweepReport(
  directory: string,
  contracts: Contracts,
  cases?: readonly PreparedCase[],
): Promise<BuiltSweepReport> {
  const verified = await verifySweep(directory, contracts, cases);
  const verification: Verification = {
    checks: verified.checks,
    ok: verified.ok,
    proved: verified.proved,
    rederived: cases !== undefined && verified.checks.every((check) => check.verdict === "pass"),
    bound: true,
  };
  if (!verified.ok || verified.files === undefined) throw new NotVerifiedError(directory, verification);
  // Built from the sweep the checks rebuilt from the rows: the rows are parsed once.
  const recordPath = `${directory}/sweep.json`;
  const record = parseWith(
    SweepRecordHead,
    parseJsonText(verified.files.record, recordPath, { error: InputError }),
    recordPath,
    {
      error: InputError,
    },
  );
  const report = reportOf(record, pointsOf(verified.result!), 5);
  const verdict = verdictSection(verified.result!, contracts.config.pool.capacities);
  const [count, ...rest] = report.lines;
  return {
    ...report,
    ...(record.dataset === undefined ? {} : { datasetSha256: record.dataset.sha256 }),
    lines: [
      count,
      "",
      verdict.title.toUpperCase(),
      ...verdict.lines,
      "",
      ...rest,
      `verified: ${verified.proved}`,
    ],
    sections: [verdict, verificationSection(verification), ...report.sections],
    verification,
  };
}
