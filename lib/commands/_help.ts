/**
 * Help generated from the commands' declarations: the usage line, a command's `--help`, the program's list.
 *
 * @module
 */

import type { Command } from "./_command.ts";

/** `deermem-eval NAME POSITIONALS FLAGS`, with optional parts in brackets. */
export function usageLine(command: Command): string {
  const words = ["deermem-eval", command.name];
  for (const positional of command.positionals ?? []) {
    words.push(positional.optional ? `[${positional.name}]` : positional.name);
  }
  let groupShown = false;
  for (const [name, flag] of Object.entries(command.flags)) {
    if (flag.group !== undefined) {
      if (!groupShown) words.push("[protocol flags]");
      groupShown = true;
      continue;
    }
    const spelled = flag.type === "string" ? `--${name} ${flag.value ?? "VALUE"}` : `--${name}`;
    words.push(flag.required ? spelled : `[${spelled}]`);
  }
  return words.join(" ");
}

/** A command's `--help`: usage, description, then its flags grouped as declared. */
export function commandHelp(command: Command): string {
  const entries = Object.entries(command.flags).map(([name, flag]) => ({
    spelled: flag.type === "string" ? `--${name} ${flag.value ?? "VALUE"}` : `--${name}`,
    flag,
  }));
  const width = Math.max(0, ...entries.map((entry) => entry.spelled.length)) + 2;
  const groups = new Map<string, string[]>();
  for (const { spelled, flag } of entries) {
    const heading = flag.group ?? "Flags";
    const [first, ...rest] = flag.help.split("\n");
    const lines = [
      `  ${spelled.padEnd(width)}${first}`,
      ...rest.map((line) => `  ${"".padEnd(width)}${line}`),
    ];
    groups.set(heading, [...(groups.get(heading) ?? []), ...lines]);
  }
  const sections = [...groups].map(([heading, lines]) => `${heading}:\n${lines.join("\n")}`);
  return [`Usage: ${usageLine(command)}`, command.description, ...sections].join("\n\n");
}

/** The program's `--help`: what it is, how to call it, the command list, the exit codes. */
export function programHelp(version: string, commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `deermem-eval ${version} — reproduce and verify the DeerMem capacity-eviction evaluation

Usage: deermem-eval COMMAND [flags]   (deermem-eval COMMAND --help for details)

Commands:
${lines.join("\n")}

Exit codes: 0 success, 1 runtime failure, 2 bad usage or invalid input, 130 interrupted (run-qa).`;
}
