/**
 * Help generated from the commands' declarations: the usage line, a command's `--help`, the program's list.
 *
 * @module
 */

import { wrapLine } from "../base/mod.ts";
import type { Command } from "./_command.ts";

/**
 * Help's prose refilled to `width`: the lines of a paragraph joined and broken again; an indented line (a
 * list's item) and a line ending a paragraph with a colon keep their place. Without a width, unchanged.
 */
function refill(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  const lines: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) lines.push(...wrapLine(paragraph.join(" "), width, 0));
    paragraph = [];
  };
  for (const line of text.split("\n")) {
    if (line === "" || /^\s/.test(line)) {
      flush();
      // A list's item `  name   what it is` continues under its text.
      const item = /^\s+\S+\s{2,}/.exec(line)?.[0].length;
      lines.push(...wrapLine(line, width, item !== undefined && item < width / 2 ? item : undefined));
      continue;
    }
    paragraph.push(line);
    if (line.endsWith(":")) flush();
  }
  flush();
  return lines.join("\n");
}

/** An entry of a list (a flag, a command) fitted to `width`, continuations aligned under its text. */
function entry(line: string, textAt: number, width: number | undefined): string[] {
  return width === undefined ? [line] : wrapLine(line, width, textAt);
}

/** `deermem-eval NAME POSITIONALS FLAGS`, with optional parts in brackets. */
export function usageLine(command: Command): string {
  const words = ["deermem-eval", command.name];
  for (const positional of command.positionals ?? []) {
    const name = positional.repeats ? `${positional.name}…` : positional.name;
    words.push(positional.optional ? `[${name}]` : name);
  }
  let groupShown = false;
  for (const [name, flag] of Object.entries(command.flags)) {
    if (flag.group !== undefined) {
      if (!groupShown) words.push("[protocol flags]");
      groupShown = true;
      continue;
    }
    const spelled = flag.type !== "boolean" ? `--${name} ${flag.value ?? "VALUE"}` : `--${name}`;
    words.push(flag.required ? spelled : `[${spelled}]`);
  }
  return words.join(" ");
}

/** A command's `--help`: usage, description, then its flags grouped as declared; fitted to `width` if given. */
export function commandHelp(command: Command, columns?: number): string {
  const entries = Object.entries(command.flags).map(([name, flag]) => ({
    spelled: flag.type !== "boolean" ? `--${name} ${flag.value ?? "VALUE"}` : `--${name}`,
    flag,
  }));
  const width = Math.max(0, ...entries.map((entry) => entry.spelled.length)) + 2;
  const groups = new Map<string, string[]>();
  for (const { spelled, flag } of entries) {
    const heading = flag.group ?? "Flags";
    const [first, ...rest] = flag.help.split("\n");
    // Fitted to a width, a flag's help is one paragraph refilled; otherwise its lines as written.
    const lines = columns === undefined
      ? [`  ${spelled.padEnd(width)}${first}`, ...rest.map((line) => `  ${"".padEnd(width)}${line}`)]
      : entry(`  ${spelled.padEnd(width)}${[first, ...rest].join(" ")}`, width + 2, columns);
    groups.set(heading, [...(groups.get(heading) ?? []), ...lines]);
  }
  const sections = [...groups].map(([heading, lines]) => `${heading}:\n${lines.join("\n")}`);
  const usage = entry(`Usage: ${usageLine(command)}`, "Usage: deermem-eval ".length, columns).join("\n");
  return [usage, refill(command.description, columns), ...sections].join("\n\n");
}

/** The program's `--help`: what it is, how to call it, the command list, the exit codes. */
export function programHelp(version: string, commands: readonly Command[], columns?: number): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.flatMap((command) =>
    entry(`  ${command.name.padEnd(width)}  ${command.summary}`, width + 4, columns)
  );
  return `deermem-eval ${version} — reproduce and verify the DeerMem capacity-eviction evaluation

Usage: deermem-eval COMMAND [flags]   (deermem-eval COMMAND --help for details)

Commands:
${lines.join("\n")}

Exit codes: 0 success, 1 runtime failure, 2 bad usage or invalid input, 130 interrupted (run-qa).`;
}
