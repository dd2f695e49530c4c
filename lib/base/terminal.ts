/**
 * Where text is printed, and how a line is fitted and styled for it: a terminal gets its own width and, unless
 * `NO_COLOR` is set, coloured ✓/✗; a file or a pipe gets 100 columns and plain bytes.
 *
 * @module
 */

import styles from "ansi-styles";

/** The width text is fitted to when it does not go to a terminal (a file, a pipe, a CI log). */
export const PIPE_COLUMNS = 100;

/** The narrowest width lines are fitted to, however narrow the terminal says it is. */
const MIN_COLUMNS = 40;

/** What the printing edge knows of one output stream. */
export interface TextStream {
  /** Whether a person reads it as it comes (a terminal). */
  readonly isTerminal: boolean;
  /** The width its lines are fitted to: the terminal's columns, else {@linkcode PIPE_COLUMNS}. */
  readonly columns: number;
  /** Whether ANSI styling may be written: a terminal, and `NO_COLOR` unset or empty. */
  readonly colour: boolean;
}

/**
 * Describes a stream from what the runtime says of it; a terminal's size is asked only when it is one.
 *
 * @param isTerminal Whether the stream is a terminal.
 * @param noColor Whether `NO_COLOR` is present and not empty (https://no-color.org).
 * @param size The terminal's size (`Deno.consoleSize`); a failure counts as no size.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { describeStream } from "./terminal.ts";
 * const size = () => ({ columns: 80, rows: 24 });
 * deepStrictEqual(describeStream(true, false, size), { isTerminal: true, columns: 80, colour: true });
 * deepStrictEqual(describeStream(true, true, size), { isTerminal: true, columns: 80, colour: false });
 * deepStrictEqual(describeStream(false, false, size), { isTerminal: false, columns: 100, colour: false });
 * ```
 */
export function describeStream(
  isTerminal: boolean,
  noColor: boolean,
  size: () => { columns: number },
): TextStream {
  if (!isTerminal) return { isTerminal, columns: PIPE_COLUMNS, colour: false };
  let columns = PIPE_COLUMNS;
  try {
    const reported = size().columns;
    // A pseudo-terminal without a size reports 0.
    if (reported > 0) columns = Math.max(MIN_COLUMNS, reported);
  } catch {
    // No size to ask (the stream closed meanwhile): keep the pipe width.
  }
  return { isTerminal, columns, colour: !noColor };
}

/** How many columns a line takes: one per code point (the program's own text has no wide characters). */
export function columnsOf(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The first `columns` columns of `text`, with `…` in the last when it had to be cut. */
export function truncateColumns(text: string, columns: number): string {
  const chars = [...text];
  return chars.length <= columns ? text : `${chars.slice(0, Math.max(0, columns - 1)).join("")}…`;
}

/**
 * A command to copy (`deermem-eval …`, `deno task …`, `./deermem-eval.js …`): wrapped as the shell reads it, with
 * `\` continuations.
 */
const COMMAND_LINE = /^(\s*)(?:deermem-eval|deno task|\S*\/\S+) [a-z][a-z-]* .*--/;
/** A check's or a list's marker: the continuation is aligned under the text after it. */
const MARKER = /^(\s*)(?:[✓✗–·•*-]|\[[^\]]*\]) /;

/**
 * One line fitted to `width` columns: broken at spaces, each continuation indented under the text (after a
 * ✓/✗/– marker, else two columns in); a command to copy gets shell `\` continuations instead. A word longer
 * than a whole line is cut where it must be. `hangAt` sets the continuations' indent instead (0 for prose).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { wrapLine } from "./terminal.ts";
 * deepStrictEqual(wrapLine("  ✓ rows: one per case and policy", 20), ["  ✓ rows: one per", "    case and policy"]);
 * deepStrictEqual(wrapLine("  deermem-eval verify DIR --dataset PATH", 30), [
 *   "  deermem-eval verify DIR \\",
 *   "      --dataset PATH",
 * ]);
 * ```
 */
export function wrapLine(line: string, width: number, hangAt?: number): string[] {
  if (columnsOf(line) <= width) return [line];
  if (hangAt !== undefined) return fill(line, width, " ".repeat(hangAt));
  const command = COMMAND_LINE.exec(line);
  if (command !== null) return wrapCommand(line, command[1].length, width);
  const marker = MARKER.exec(line);
  const indent = /^\s*/.exec(line)![0].length;
  const hang = " ".repeat(Math.min(marker === null ? indent + 2 : columnsOf(marker[0]), width >> 1));
  return fill(line, width, hang);
}

function wrapCommand(line: string, indent: number, width: number): string[] {
  // Break before a flag where one fits, so each continuation starts with one.
  const words = line.trim().split(/\s+/);
  const parts: string[] = [];
  for (const word of words) {
    if (word.startsWith("--") || parts.length === 0) parts.push(word);
    else parts[parts.length - 1] += ` ${word}`;
  }
  const hang = " ".repeat(indent + 4);
  const lines: string[] = [];
  let current = `${" ".repeat(indent)}${parts[0]}`;
  for (const part of parts.slice(1)) {
    if (columnsOf(`${current} ${part} \\`) <= width) current += ` ${part}`;
    else {
      lines.push(`${current} \\`);
      current = `${hang}${part}`;
    }
  }
  lines.push(current);
  // A flag and its value longer than a line are left whole: a broken path cannot be copied.
  return lines;
}

/** Greedy filling at spaces; `hang` starts every continuation. */
function fill(line: string, width: number, hang: string): string[] {
  const indent = /^\s*/.exec(line)![0];
  const words = line.slice(indent.length).split(" ");
  const lines: string[] = [];
  let current = indent;
  let fresh = true;
  for (let word of words) {
    const room = width - columnsOf(current) - (fresh ? 0 : 1);
    if (columnsOf(word) <= room) {
      current += fresh ? word : ` ${word}`;
      fresh = false;
      continue;
    }
    if (!fresh) {
      lines.push(current);
      current = hang;
    }
    // A word wider than a whole continuation is cut where it must be.
    while (columnsOf(word) > width - columnsOf(current)) {
      const take = width - columnsOf(current);
      const chars = [...word];
      lines.push(current + chars.slice(0, take).join(""));
      word = chars.slice(take).join("");
      current = hang;
    }
    current += word;
    fresh = false;
  }
  lines.push(current);
  return lines;
}

/** A section title as the report prints it: capitals (and spaces, digits, signs) alone on a line. */
const HEADING = /^[A-Z][A-Z0-9 ,/&()'+−-]*$/;

/**
 * A line with ANSI styling for a terminal: ✓ green, ✗ red, a refusal red, a section title bold. Only the
 * escape codes are added: with them removed the line is unchanged.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { styleLine } from "./terminal.ts";
 * strictEqual(styleLine("  ✓ ok"), "  \u001b[32m✓\u001b[39m ok");
 * strictEqual(styleLine("plain"), "plain");
 * ```
 */
export function styleLine(line: string): string {
  const { green, red, bold } = styles;
  if (HEADING.test(line) && /[A-Z]{2}/.test(line)) return `${bold.open}${line}${bold.close}`;
  if (/^\s*NOT verified\b/.test(line)) {
    const start = line.length - line.trimStart().length;
    return `${line.slice(0, start)}${red.open}${line.slice(start)}${red.close}`;
  }
  return line.replace(/^(\s*)([✓✗]) /, (_, indent: string, mark: string) => {
    const colour = mark === "✓" ? green : red;
    return `${indent}${colour.open}${mark}${colour.close} `;
  });
}

/**
 * Text as the edge prints it to `stream`: each line fitted to its width (when `wrap`), then styled (when the
 * stream takes colour). A JSON document is data: written as is, whichever way it is printed.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { printable } from "./terminal.ts";
 * const pipe = { isTerminal: false, columns: 12, colour: false };
 * strictEqual(printable("✓ one two three", pipe, true), "✓ one two\n  three");
 * strictEqual(printable('{"a": "one two three"}', pipe, true), '{"a": "one two three"}');
 * ```
 */
export function printable(text: string, stream: TextStream, wrap: boolean): string {
  if (isJsonDocument(text)) return text;
  const lines = text.split("\n").flatMap((line) => wrap ? wrapLine(line, stream.columns) : [line]);
  return (stream.colour ? lines.map(styleLine) : lines).join("\n");
}

function isJsonDocument(text: string): boolean {
  if (!/^\s*[{[]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
