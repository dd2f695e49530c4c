/**
 * The layout every renderer (terminal, Markdown, HTML) shares: titled sections of tables of formatted strings.
 *
 * @module
 */

/** A table of already-formatted cells; `numeric` marks right-aligned columns. */
export interface Table {
  headers: string[];
  rows: string[][];
  numeric: boolean[];
}

/** A check the report shows: what it proves when it holds, and whether it held or needs the dataset to run. */
export interface ShownCheck {
  proves: string;
  status: "pass" | "needs-dataset";
}

/** The checks a verification section lists, and the one sentence of what they proved together. */
export interface SectionChecks {
  items: ShownCheck[];
  proved: string;
}

/** A titled part of the report: its lines, its tables, and (the verification) its checks. */
export interface Section {
  id: string;
  title: string;
  lines: string[];
  tables: Table[];
  checks?: SectionChecks;
}

/**
 * A shown check as one line, the same in the terminal and in Markdown.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkText } from "./model.ts";
 * deepStrictEqual([checkText({ proves: "rows", status: "pass" }), checkText({ proves: "grades", status: "needs-dataset" })],
 *   ["✓ rows", "– grades — needs --dataset"]);
 * ```
 */
export function checkText(check: ShownCheck): string {
  return check.status === "pass" ? `✓ ${check.proves}` : `– ${check.proves} — needs --dataset`;
}

/** A verification section's lines: each check, then what they proved. */
export function checksText(checks: SectionChecks): string[] {
  return [...checks.items.map(checkText), `proved: ${checks.proved}`];
}

/**
 * A table from its headers, rows and which columns are numeric.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { table } from "./model.ts";
 * deepStrictEqual(table(["a", "n"], [["x", "1"]], [false, true]), { headers: ["a", "n"], rows: [["x", "1"]], numeric: [false, true] });
 * ```
 */
export function table(headers: string[], rows: string[][], numeric: boolean[]): Table {
  // Every renderer reads one alignment per column: a different count is a bug in the builder.
  if (numeric.length !== headers.length) {
    throw new RangeError(`${headers.length} headers but ${numeric.length} alignments`);
  }
  return { headers, rows, numeric };
}
