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

/** A titled part of the report. */
export interface Section {
  id: string;
  title: string;
  lines: string[];
  tables: Table[];
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
