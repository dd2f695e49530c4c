/**
 * `report DIR --against OTHER`: two verified runs of the same kind side by side in the three layers that define
 * reproduction — aggregate (the per-suite or per-capacity numbers of both and their difference), row (the rows
 * paired by id: how many agree in each field, and which differ) and byte (which output files are identical).
 *
 * @module
 */

import { InputError } from "../../base/mod.ts";
import { shorten } from "../document/format.ts";
import type { Section, Table } from "../document/model.ts";
import type { PolicyReport, QaReport, RunReport } from "../run/run_report.ts";
import {
  type AggregateLayer,
  compareFiles,
  compareRows,
  type FileComparison,
  keyedRows,
  policyAggregate,
  qaAggregate,
  type RowDifference,
  type RowLayer,
} from "./_compare_layers.ts";

export type { FileComparison, RowDifference };

/** One layer's verdict. */
export interface LayerVerdict {
  layer: "aggregate" | "row" | "byte";
  identical: boolean;
  summary: string;
}

/** The whole comparison. */
export interface Comparison {
  directory: string;
  other: string;
  verdicts: LayerVerdict[];
  aggregate: { rows: string[][] };
  fieldAgreement: { field: string; agree: number; differ: number }[];
  rowDifferences: RowDifference[];
  files: FileComparison[];
}

function layerVerdicts(
  aggregate: AggregateLayer,
  rows: RowLayer & { here: number; there: number },
  files: readonly FileComparison[],
): LayerVerdict[] {
  const { rowDifferences } = rows;
  const agreeing = rows.here -
    rowDifferences.filter((item) => !item.fields[0].startsWith("(only in the other")).length;
  const filesIdentical = files.every((file) => file.status === "identical");
  return [
    {
      layer: "aggregate",
      identical: aggregate.identical,
      summary: aggregate.identical ? "identical" : "differ",
    },
    {
      layer: "row",
      identical: rowDifferences.length === 0,
      summary: rowDifferences.length === 0
        ? `identical: all ${rows.here} rows agree in every compared field`
        : `${agreeing} of ${Math.max(rows.here, rows.there)} rows agree; ${rowDifferences.length} differ`,
    },
    {
      layer: "byte",
      identical: filesIdentical,
      summary: filesIdentical
        ? `identical: ${files.map((file) => file.file).join(", ")}`
        : `${files.filter((file) => file.status === "identical").length} of ${files.length} files identical`,
    },
  ];
}

/**
 * Compares two verified reports of the same kind in the aggregate, row and byte layers.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { runPolicy } from "../../commands/run_policy.ts";
 * import { buildReport, compareRuns } from "../mod.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), source = { dirty: null, head: null };
 * const [dir, again] = [await Deno.makeTempDir(), await Deno.makeTempDir()]; // the same run twice
 * for (const into of [dir, again]) await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, into, new Date(0), source);
 * const [mine, theirs] = [await buildReport(dir, prepared.contracts), await buildReport(again, prepared.contracts)];
 * const comparison = await compareRuns(mine, theirs);
 * deepStrictEqual(comparison.verdicts.map((verdict) => verdict.identical), [true, true, true]); // in every layer
 * ```
 */
export async function compareRuns(
  mine: RunReport,
  theirs: RunReport,
): Promise<Comparison> {
  if (mine.kind !== theirs.kind) {
    throw new InputError(`cannot compare a ${mine.kind} run with a ${theirs.kind} run`, {
      path: theirs.directory,
    });
  }
  const aggregate = mine.kind === "qa"
    ? qaAggregate(mine, theirs as QaReport)
    : policyAggregate(mine, theirs as PolicyReport);
  const a = keyedRows(mine);
  const b = keyedRows(theirs);
  const rows = compareRows(a, b);
  const files = await compareFiles(mine, theirs);
  return {
    directory: mine.directory,
    other: theirs.directory,
    verdicts: layerVerdicts(aggregate, { ...rows, here: a.length, there: b.length }, files),
    aggregate: { rows: aggregate.rows },
    fieldAgreement: rows.fieldAgreement,
    rowDifferences: rows.rowDifferences,
    files,
  };
}

/** The row layer's tables: agreement per field, then (when any) the rows that differ. */
function rowTables(comparison: Comparison): Table[] {
  const agreement: Table = {
    headers: ["field", "rows agreeing", "rows differing"],
    rows: comparison.fieldAgreement.map((item) => [item.field, String(item.agree), String(item.differ)]),
    numeric: [false, true, true],
  };
  if (comparison.rowDifferences.length === 0) return [agreement];
  return [agreement, {
    headers: ["row", "differing fields", "this run", "other run"],
    rows: comparison.rowDifferences.map((item) => [
      item.rowId,
      item.fields.join(", "),
      shorten(item.mine, 60),
      shorten(item.theirs, 60),
    ]),
    numeric: [false, false, false, false],
  }];
}

/**
 * The comparison as titled sections (for the terminal, Markdown and HTML renderers).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { type Comparison, comparisonSections } from "./compare.ts";
 * const comparison: Comparison = {
 *   directory: "a", other: "b", aggregate: { rows: [] }, fieldAgreement: [], rowDifferences: [], files: [],
 *   verdicts: (["aggregate", "row", "byte"] as const).map((layer) => ({ layer, identical: true, summary: "identical" })),
 * };
 * const sections = comparisonSections(comparison);
 * deepStrictEqual(sections.map((section) => section.id), ["layers", "aggregate", "rows", "bytes"]);
 * deepStrictEqual(sections[0].lines, ["= aggregate: identical", "= row: identical", "= byte: identical"]);
 * ```
 */
export function comparisonSections(comparison: Comparison): Section[] {
  const verdict = (layer: LayerVerdict["layer"]) => {
    const item = comparison.verdicts.find((entry) => entry.layer === layer)!;
    return `${layer}: ${item.summary}`;
  };
  const files = comparison.files.map((file) => [
    file.file,
    file.firstDifference === undefined
      ? file.status
      : `${file.status} (first at byte ${file.firstDifference})`,
  ]);
  return [
    {
      id: "layers",
      title: "Layers",
      lines: comparison.verdicts.map((item) =>
        `${item.identical ? "=" : "≠"} ${item.layer}: ${item.summary}`
      ),
      tables: [],
    },
    {
      id: "aggregate",
      title: "Aggregate",
      lines: [verdict("aggregate")],
      tables: [{
        headers: ["", "measure", "this run", "other run", "other − this"],
        rows: comparison.aggregate.rows,
        numeric: [false, false, true, true, true],
      }],
    },
    { id: "rows", title: "Rows", lines: [verdict("row")], tables: rowTables(comparison) },
    {
      id: "bytes",
      title: "Bytes",
      lines: [verdict("byte")],
      tables: [{ headers: ["file", "status"], rows: files, numeric: [false, false] }],
    },
  ];
}

/** The comparison's heading line. */
export function comparisonHeading(comparison: Comparison): string {
  return `deermem-eval report: ${comparison.directory} against ${comparison.other}`;
}
