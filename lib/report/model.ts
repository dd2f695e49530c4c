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
  return { headers, rows, numeric };
}
