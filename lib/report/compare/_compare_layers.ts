/**
 * The three layers of a comparison, each on its own: the aggregate numbers of both runs, their rows paired by
 * id field by field, and their output files byte by byte.
 *
 * @module
 */

import { runPolicies } from "../run/groups.ts";
import { compareCodePoints, GRADED_ROWS_CAP, INPUT_CAP } from "../../base/mod.ts";
import { GRADED_ROWS_FILE } from "../../qa/mod.ts";
import { formatP, formatSigned, shorten } from "../document/format.ts";
import {
  type PerModel,
  perModel,
  type PolicyReport,
  type QaReport,
  type RunReport,
} from "../run/run_report.ts";
import { RUN_FILES } from "../run/run_kind.ts";
import { capacitiesOf, supportKept } from "../run/groups.ts";
import { suiteName } from "../run/names.ts";

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

/** The aggregate layer: one row per measure (this run, the other, their difference), and whether all agree. */
export interface AggregateLayer {
  rows: string[][];
  identical: boolean;
}

/** A row as compared: its id, the fields compared exactly, and a short description of each. */
export interface KeyedRow {
  id: string;
  fields: Record<string, string>;
  describe: Record<string, string>;
}

/** The row layer: how many paired rows agree in each field, and every row that differs or is unpaired. */
export interface RowLayer {
  fieldAgreement: { field: string; agree: number; differ: number }[];
  rowDifferences: RowDifference[];
}

/** Per suite: each policy's correct answers, the McNemar p, the difference and its interval, in both runs. */
export function qaAggregate(mine: QaReport, theirs: QaReport): AggregateLayer {
  const rows: string[][] = [];
  let identical = true;
  for (const suite of mine.suites) {
    const other = theirs.suites.find((item) => item.name === suite.name)!;
    const metric = (name: string, a: number, b: number, format: (value: number) => string, delta: string) => {
      if (a !== b) identical = false;
      rows.push([suiteName(suite.name), name, format(a), format(b), a === b ? "same" : delta]);
    };
    // Each run's own pair: a policy only one run answered is shown beside a dash, never as a number.
    for (const policy of new Set([...mine.policies, ...theirs.policies])) {
      const a = suite.correct[policy];
      const b = other.correct[policy];
      if (a === undefined || b === undefined) {
        identical = false;
        rows.push([
          suiteName(suite.name),
          `${policy} correct`,
          String(a ?? "–"),
          String(b ?? "–"),
          "one run only",
        ]);
        continue;
      }
      metric(`${policy} correct`, a, b, String, `${b - a > 0 ? "+" : ""}${b - a}`);
    }
    const pa = suite.stats.mcnemar.p_value;
    const pb = other.stats.mcnemar.p_value;
    metric("exact McNemar p", pa, pb, formatP, `${formatSigned(pb - pa)}`);
    const ba = suite.stats.bootstrap;
    const bb = other.stats.bootstrap;
    const delta = formatSigned(bb.mean_difference - ba.mean_difference);
    metric("difference", ba.mean_difference, bb.mean_difference, formatSigned, delta);
    const interval = (value: typeof ba) => `[${formatSigned(value.lower)}, ${formatSigned(value.upper)}]`;
    const same = ba.lower === bb.lower && ba.upper === bb.upper;
    if (!same) identical = false;
    rows.push([suiteName(suite.name), "interval", interval(ba), interval(bb), same ? "same" : "differs"]);
  }
  return { rows, identical };
}

/** Per capacity and policy: the cases that kept the support, in both runs. */
export function policyAggregate(mine: PolicyReport, theirs: PolicyReport): AggregateLayer {
  const rows: string[][] = [];
  let identical = true;
  const policies = new Set([...runPolicies(mine.entries), ...runPolicies(theirs.entries)]);
  for (const capacity of capacitiesOf([...mine.entries, ...theirs.entries])) {
    for (const policy of policies) {
      const a = supportKept(mine.entries, capacity, policy);
      const b = supportKept(theirs.entries, capacity, policy);
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

/** A run's rows as compared (the verified ones): QA rows by row id, policy rows by case, capacity and policy. */
export function keyedRows(report: RunReport): KeyedRow[] {
  return perModel(KEYED_ROWS, report);
}

/** How each report model's rows are keyed and compared. */
const KEYED_ROWS: PerModel<[], KeyedRow[]> = {
  qa: (report) =>
    report.rows.map((row) => ({
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
    })),
  policy: (report) =>
    report.rows.map((row) => ({
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
    })),
};

/** Pairs `a`'s rows with `b`'s by id: per field how many agree, and each row that differs, by row id. */
export function compareRows(a: readonly KeyedRow[], b: readonly KeyedRow[]): RowLayer {
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
      const [field] = differing;
      rowDifferences.push({
        rowId: row.id,
        fields: differing,
        mine: row.describe[field],
        theirs: other.describe[field],
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
  return { fieldAgreement: fieldNames.map((field) => ({ field, ...agreement.get(field)! })), rowDifferences };
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return length;
}

/**
 * Each output file of the kind, byte for byte as the checks read it (held, never read again): identical, where
 * it first differs, or which side lacks it.
 */
export async function compareFiles(mine: RunReport, theirs: RunReport): Promise<FileComparison[]> {
  const files: FileComparison[] = [];
  for (const file of RUN_FILES[mine.kind]) {
    // Through the cap and the name the checks read the file with: the bytes they held.
    const [what, cap] = file === GRADED_ROWS_FILE ? ["graded rows", GRADED_ROWS_CAP] : [file, INPUT_CAP];
    const a = await mine.files.bytes(file, what, cap);
    const b = await theirs.files.bytes(file, what, cap);
    if (a === undefined || b === undefined) {
      const status = a === undefined && b === undefined
        ? "missing in both"
        : a === undefined
        ? "missing here"
        : "missing there";
      files.push({ file, status });
    } else if (a.length === b.length && firstDifference(a, b) === a.length) {
      files.push({ file, status: "identical" });
    } else {
      files.push({ file, status: "differs", firstDifference: firstDifference(a, b) });
    }
  }
  return files;
}
