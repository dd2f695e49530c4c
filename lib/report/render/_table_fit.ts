/**
 * A terminal table fitted to a width: headers wrap first, then the widest text cells at their spaces (figures
 * never split); a table whose columns cannot all fit even so is shown as groups of columns, each led by the
 * first column so every line still names its row.
 *
 * @module
 */

import { columnsOf } from "../../base/mod.ts";
import type { Table } from "../document/model.ts";

/** The width of a table's lines: two columns of indent, two between columns. */
export function lineWidth(widths: readonly number[]): number {
  return 2 + widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1);
}

/** `table` in columns of `widths`, each cell wrapped to its column; a row's first line carries every cell. */
export function alignedLines(table: Table, widths: readonly number[]): string[] {
  const row = (cells: readonly string[]) => {
    const wrapped = cells.map((cell, column) => wrapCell(cell, widths[column]));
    const height = Math.max(1, ...wrapped.map((lines) => lines.length));
    return Array.from({ length: height }, (_, index) =>
      wrapped.map((lines, column) => {
        const text = lines[index] ?? "";
        const pad = " ".repeat(Math.max(0, widths[column] - columnsOf(text)));
        return table.numeric[column] ? pad + text : text + pad;
      }).join("  ").trimEnd());
  };
  const header = table.headers.every((cell) => cell === "") ? [] : row(table.headers);
  return [
    ...header,
    ...table.rows.flatMap((cells) => row(table.headers.map((_, column) => cells[column] ?? ""))),
  ]
    .map((text) => `  ${text}`);
}

/**
 * Fits a table wider than `width`: each column narrowed, first down to its widest cell (only its header
 * wraps), then the widest text column down to its longest word; if even that is too wide, the columns are
 * split into groups (each with the first column) shown one after the other, a blank line between.
 */
export function fitTable(table: Table, width: number): string[] {
  const columns = table.headers.map((_, column) => column);
  const groups: number[][] = [];
  for (const column of columns.slice(1)) {
    const last = groups.at(-1);
    if (last !== undefined && lineWidth([...last, column].map((index) => narrowest(table, index))) <= width) {
      last.push(column);
    } else groups.push([0, column]);
  }
  if (groups.length === 0) groups.push([0]);
  if (groups.length === 1) return alignedLines(table, narrowed(table, width));
  return groups.flatMap((group, index) => {
    const part: Table = {
      headers: group.map((column) => table.headers[column]),
      rows: table.rows.map((row) => group.map((column) => row[column] ?? "")),
      numeric: group.map((column) => table.numeric[column]),
    };
    return [...(index === 0 ? [] : [""]), ...alignedLines(part, narrowed(part, width))];
  });
}

/** The column widths of `table` narrowed until its lines fit `width` (or every column is at its narrowest). */
function narrowed(table: Table, width: number): number[] {
  const cells = (column: number) => table.rows.map((row) => columnsOf(row[column] ?? ""));
  const widths = table.headers.map((header, column) => Math.max(columnsOf(header), ...cells(column)));
  const floors = [
    table.headers.map((_, column) => Math.max(narrowest(table, column), ...cells(column))),
    table.headers.map((_, column) => narrowest(table, column)),
  ];
  for (const floor of floors) {
    while (lineWidth(widths) > width) {
      let widest = -1;
      widths.forEach((value, column) => {
        if (value > floor[column] && (widest < 0 || value > widths[widest])) widest = column;
      });
      if (widest < 0) break;
      widths[widest]--;
    }
  }
  return widths;
}

/** A cell this short is never broken: `yes / yes` reads as one value. */
const SHORT_CELL = 12;

/** A column's narrowest width: its longest word or short cell (a number column's cell is one word). */
function narrowest(table: Table, column: number): number {
  const words = (text: string) =>
    columnsOf(text) <= SHORT_CELL ? [columnsOf(text)] : text.split(" ").map(columnsOf);
  const cells = table.rows.map((row) => row[column] ?? "");
  return Math.max(
    1,
    ...words(table.headers[column]),
    ...cells.flatMap((cell) => table.numeric[column] ? [columnsOf(cell)] : words(cell)),
  );
}

/** A cell's lines within `width` columns, broken at spaces (a word too long for the column is cut). */
function wrapCell(cell: string, width: number): string[] {
  if (columnsOf(cell) <= width) return [cell];
  const lines: string[] = [];
  let current = "";
  for (let word of cell.split(" ")) {
    if (current !== "" && columnsOf(current) + 1 + columnsOf(word) <= width) {
      current += ` ${word}`;
      continue;
    }
    if (current !== "") lines.push(current);
    while (columnsOf(word) > width) {
      lines.push([...word].slice(0, width).join(""));
      word = [...word].slice(width).join("");
    }
    current = word;
  }
  lines.push(current);
  return lines;
}
