/**
 * `report DIR --against OTHER`: two verified runs of the same kind side by side in the three layers that define
 * reproduction — aggregate (the per-suite or per-capacity numbers of both and their difference), row (the rows
 * paired by id: how many agree in each field, and which differ) and byte (which output files are identical).
 *
 * @module
 */

import type { Contracts } from "../protocol/contracts.ts";
import { InputError } from "../base/errors.ts";
import { readTextIfExists } from "../base/fs.ts";
import { POLICIES } from "../policy/mod.ts";
import { parsePolicyRawRows } from "../policy/outputs.ts";
import { compareCodePoints } from "../py/json.ts";
import { parseGradedRows } from "../qa/mod.ts";
import {
  formatP,
  formatSigned,
  type PolicyReport,
  type QaReport,
  RUN_FILES,
  type RunReport,
  type Section,
  shorten,
} from "./report.ts";

/** One layer's verdict. */
export interface LayerVerdict {
  layer: "aggregate" | "row" | "byte";
  identical: boolean;
  summary: string;
}

/** A row that differs between the two runs (or exists in one only). */
export interface RowDifference {
  rowId: string;
  fields: string[];
  /** Short descriptions of this run's and the other run's values of the first differing field. */
  mine: string;
  theirs: string;
}

/** A file's byte-level comparison. */
export interface FileComparison {
  file: string;
  status: "identical" | "differs" | "missing here" | "missing there" | "missing in both";
  /** The first differing byte, when both exist and differ. */
  firstDifference?: number;
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

type Keyed = { id: string; fields: Record<string, string>; describe: Record<string, string> };

async function readRequired(path: string): Promise<string> {
  const text = await readTextIfExists(path);
  if (text === undefined) throw new InputError("missing", { path });
  return text;
}

async function keyedRows(report: RunReport, contracts: Contracts): Promise<Keyed[]> {
  if (report.kind === "qa") {
    const path = `${report.directory}/qa.rows.jsonl`;
    return parseGradedRows(await readRequired(path), path, contracts.config).map((row) => ({
      id: row.row_id,
      fields: {
        kept_fact_ids: JSON.stringify(row.kept_fact_ids),
        request_fingerprint: row.request_fingerprint,
        prediction: row.prediction,
        grade: `${row.grade_correct} ${row.grade_rule}`,
      },
      describe: {
        kept_fact_ids: row.kept_fact_ids.join(" "),
        request_fingerprint: row.request_fingerprint.slice(0, 12),
        prediction: JSON.stringify(shorten(row.prediction)),
        grade: `${row.grade_correct ? "correct" : "wrong"} (${row.grade_rule})`,
      },
    }));
  }
  const path = `${report.directory}/policy.raw.jsonl`;
  return parsePolicyRawRows(await readRequired(path), path).map((row) => ({
    id: `${row.case_id}@${row.capacity}__${row.policy}`,
    fields: {
      kept_fact_ids: JSON.stringify(row.kept_fact_ids),
      scores: JSON.stringify(row.scores),
      evicted: JSON.stringify(row.evicted),
      support_all_retained: String(row.support_all_retained),
    },
    describe: {
      kept_fact_ids: row.kept_fact_ids.join(" "),
      scores: `${Object.keys(row.scores).length} scores`,
      evicted: row.evicted.map((fact) => fact.fact_id).join(" "),
      support_all_retained: String(row.support_all_retained),
    },
  }));
}

function qaAggregate(mine: QaReport, theirs: QaReport): { rows: string[][]; identical: boolean } {
  const [first, second] = POLICIES;
  const rows: string[][] = [];
  let identical = true;
  for (const suite of mine.suites) {
    const other = theirs.suites.find((item) => item.name === suite.name)!;
    const metric = (name: string, a: number, b: number, format: (value: number) => string, delta: string) => {
      if (a !== b) identical = false;
      rows.push([suite.name, name, format(a), format(b), a === b ? "same" : delta]);
    };
    const count = (value: number) => String(value);
    for (const policy of [first, second]) {
      const a = suite.correct[policy];
      const b = other.correct[policy];
      metric(`${policy} correct`, a, b, count, `${b - a > 0 ? "+" : ""}${b - a}`);
    }
    const pa = suite.stats.mcnemar.p_value;
    const pb = other.stats.mcnemar.p_value;
    metric("exact McNemar p", pa, pb, formatP, `${formatSigned(pb - pa)}`);
    const ba = suite.stats.bootstrap;
    const bb = other.stats.bootstrap;
    metric(
      "difference",
      ba.mean_difference,
      bb.mean_difference,
      formatSigned,
      formatSigned(bb.mean_difference - ba.mean_difference),
    );
    const interval = (value: typeof ba) => `[${formatSigned(value.lower)}, ${formatSigned(value.upper)}]`;
    const same = ba.lower === bb.lower && ba.upper === bb.upper;
    if (!same) identical = false;
    rows.push([suite.name, "interval", interval(ba), interval(bb), same ? "same" : "differs"]);
  }
  return { rows, identical };
}

function policyAggregate(mine: PolicyReport, theirs: PolicyReport): { rows: string[][]; identical: boolean } {
  const rows: string[][] = [];
  let identical = true;
  const capacities = [...new Set([...mine.entries, ...theirs.entries].map((entry) => entry.capacity))]
    .sort((a, b) => a - b);
  const kept = (report: PolicyReport, capacity: number, policy: string) => {
    const members = report.entries.filter((entry) => entry.capacity === capacity && entry.policy === policy);
    return { kept: members.filter((entry) => entry.supportAllRetained).length, cases: members.length };
  };
  for (const capacity of capacities) {
    for (const policy of POLICIES) {
      const a = kept(mine, capacity, policy);
      const b = kept(theirs, capacity, policy);
      const same = a.kept === b.kept && a.cases === b.cases;
      if (!same) identical = false;
      rows.push([
        `capacity ${capacity}`,
        `${policy} support retained`,
        `${a.kept}/${a.cases}`,
        `${b.kept}/${b.cases}`,
        same ? "same" : `${b.kept - a.kept > 0 ? "+" : ""}${b.kept - a.kept}`,
      ]);
    }
  }
  return { rows, identical };
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return length;
}

async function readIfExists(path: string): Promise<Uint8Array | undefined> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

async function compareFiles(
  kind: RunReport["kind"],
  mine: string,
  theirs: string,
): Promise<FileComparison[]> {
  const files: FileComparison[] = [];
  for (const file of RUN_FILES[kind]) {
    const a = await readIfExists(`${mine}/${file}`);
    const b = await readIfExists(`${theirs}/${file}`);
    if (a === undefined || b === undefined) {
      files.push({
        file,
        status: a === undefined && b === undefined
          ? "missing in both"
          : a === undefined
          ? "missing here"
          : "missing there",
      });
    } else if (a.length === b.length && firstDifference(a, b) === a.length) {
      files.push({ file, status: "identical" });
    } else {
      files.push({ file, status: "differs", firstDifference: firstDifference(a, b) });
    }
  }
  return files;
}

/**
 * Compares two verified reports of the same kind in the aggregate, row and byte layers.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { compareRuns } from "./compare.ts";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { buildReport } from "./report.ts";
 * import { runPolicy } from "../commands/run_policy.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const dir = await Deno.makeTempDir(); // a policy run of two cases
 * await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, dir, new Date(0), { dirty: null, head: null });
 * const again = await Deno.makeTempDir(); // the same run once more: identical in every layer
 * await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, again, new Date(0), { dirty: null, head: null });
 * const comparison = await compareRuns(await buildReport(dir, contracts), await buildReport(again, contracts), contracts);
 * deepStrictEqual(comparison.verdicts.map((verdict) => verdict.identical), [true, true, true]);
 * ```
 */
export async function compareRuns(
  mine: RunReport,
  theirs: RunReport,
  contracts: Contracts,
): Promise<Comparison> {
  if (mine.kind !== theirs.kind) {
    throw new InputError(`cannot compare a ${mine.kind} run with a ${theirs.kind} run`, {
      path: theirs.directory,
    });
  }
  const aggregate = mine.kind === "qa"
    ? qaAggregate(mine, theirs as QaReport)
    : policyAggregate(mine, theirs as PolicyReport);
  const a = await keyedRows(mine, contracts);
  const b = await keyedRows(theirs, contracts);
  const byId = new Map(b.map((row) => [row.id, row]));
  const fieldNames = Object.keys(a[0]?.fields ?? b[0]?.fields ?? {});
  const agreement = new Map(fieldNames.map((field) => [field, { agree: 0, differ: 0 }]));
  const rowDifferences: RowDifference[] = [];
  for (const row of a) {
    const other = byId.get(row.id);
    if (other === undefined) {
      rowDifferences.push({
        rowId: row.id,
        fields: ["(only in this run)"],
        mine: "present",
        theirs: "absent",
      });
      continue;
    }
    const differing = fieldNames.filter((field) => row.fields[field] !== other.fields[field]);
    for (const field of fieldNames) agreement.get(field)![differing.includes(field) ? "differ" : "agree"]++;
    if (differing.length > 0) {
      rowDifferences.push({
        rowId: row.id,
        fields: differing,
        mine: row.describe[differing[0]],
        theirs: other.describe[differing[0]],
      });
    }
  }
  const mineIds = new Set(a.map((row) => row.id));
  for (const row of b) {
    if (!mineIds.has(row.id)) {
      rowDifferences.push({
        rowId: row.id,
        fields: ["(only in the other run)"],
        mine: "absent",
        theirs: "present",
      });
    }
  }
  rowDifferences.sort((x, y) => compareCodePoints(x.rowId, y.rowId));
  const files = await compareFiles(mine.kind, mine.directory, theirs.directory);
  const agreeing = a.length -
    rowDifferences.filter((item) => !item.fields[0].startsWith("(only in the other")).length;
  const verdicts: LayerVerdict[] = [
    {
      layer: "aggregate",
      identical: aggregate.identical,
      summary: aggregate.identical ? "identical" : "differ",
    },
    {
      layer: "row",
      identical: rowDifferences.length === 0,
      summary: rowDifferences.length === 0
        ? `identical: all ${a.length} rows agree in every compared field`
        : `${agreeing} of ${Math.max(a.length, b.length)} rows agree; ${rowDifferences.length} differ`,
    },
    {
      layer: "byte",
      identical: files.every((file) => file.status === "identical"),
      summary: files.every((file) => file.status === "identical")
        ? `identical: ${files.map((file) => file.file).join(", ")}`
        : `${files.filter((file) => file.status === "identical").length} of ${files.length} files identical`,
    },
  ];
  return {
    directory: mine.directory,
    other: theirs.directory,
    verdicts,
    aggregate: { rows: aggregate.rows },
    fieldAgreement: fieldNames.map((field) => ({ field, ...agreement.get(field)! })),
    rowDifferences,
    files,
  };
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
    {
      id: "rows",
      title: "Rows",
      lines: [verdict("row")],
      tables: [
        {
          headers: ["field", "rows agreeing", "rows differing"],
          rows: comparison.fieldAgreement.map((
            item,
          ) => [item.field, String(item.agree), String(item.differ)]),
          numeric: [false, true, true],
        },
        ...(comparison.rowDifferences.length === 0 ? [] : [{
          headers: ["row", "differing fields", "this run", "other run"],
          rows: comparison.rowDifferences.map((item) => [
            item.rowId,
            item.fields.join(", "),
            shorten(item.mine, 60),
            shorten(item.theirs, 60),
          ]),
          numeric: [false, false, false, false],
        }]),
      ],
    },
    {
      id: "bytes",
      title: "Bytes",
      lines: [verdict("byte")],
      tables: [{
        headers: ["file", "status"],
        rows: comparison.files.map((file) => [
          file.file,
          file.firstDifference === undefined
            ? file.status
            : `${file.status} (first at byte ${file.firstDifference})`,
        ]),
        numeric: [false, false],
      }],
    },
  ];
}

/** The comparison's heading line. */
export function comparisonHeading(comparison: Comparison): string {
  return `deermem-eval report: ${comparison.directory} against ${comparison.other}`;
}
