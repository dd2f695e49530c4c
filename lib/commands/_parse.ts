/**
 * A command's arguments parsed against its own flags (through `node:util`'s `parseArgs`, the standard parser
 * nearest to `@std/cli`), with one-line refusals that name the command and the flag, and "did you mean" when a
 * close spelling exists.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { InputError } from "../base/mod.ts";
import type { Command, FlagTable, FlagValues } from "./_command.ts";
import { usageLine } from "./_help.ts";

/** A command's parsed arguments. */
export interface ParsedArguments {
  /** The flags given. */
  flags: FlagValues<FlagTable>;
  /** The positional arguments. */
  positionals: string[];
  /** Whether `--help` or `-h` was given. */
  help: boolean;
}

/**
 * Parses `args` (the words after the command's name) for `command`: only its own flags (and `--help`), each
 * string flag with a value, no value on a boolean, at most its declared positional arguments.
 *
 * @throws {InputError} One line naming the command and what is wrong.
 */
export function parseCommandArguments(command: Command, args: readonly string[]): ParsedArguments {
  const options = Object.fromEntries(
    Object.entries(command.flags).map(([name, flag]) => [name, { type: flag.type }]),
  );
  const { values, positionals, tokens } = parseArgs({
    args: [...args],
    options: { ...options, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const refuse = (text: string) => new InputError(text);
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const flag = token.name === "help"
      ? { type: "boolean" }
      : Object.hasOwn(command.flags, token.name)
      ? command.flags[token.name]
      : undefined;
    if (flag === undefined) {
      const hint = suggestion(token.name, Object.keys(command.flags), "--");
      throw refuse(`unknown flag ${token.rawName}${hint === "" ? ` (${takes(command)})` : hint}`);
    }
    if (flag.type === "boolean" && token.value !== undefined) {
      throw refuse(`flag --${token.name} takes no value`);
    }
    if (flag.type === "string") checkValue(token.name, token.value, token.inlineValue ?? false, refuse);
  }
  const help = values.help === true;
  delete values.help;
  const allowed = command.positionals?.at(-1)?.repeats ? Infinity : command.positionals?.length ?? 0;
  if (!help && positionals.length > allowed) {
    const extra = positionals.slice(allowed).map((word) => JSON.stringify(word)).join(" ");
    throw refuse(`unexpected argument(s) ${extra} (usage: ${usageLine(command)})`);
  }
  return { flags: values as FlagValues<FlagTable>, positionals, help };
}

function checkValue(
  name: string,
  value: string | undefined,
  inline: boolean,
  refuse: (text: string) => InputError,
): void {
  if (value === undefined) throw refuse(`flag --${name} needs a value`);
  if (!inline && value.startsWith("-") && value !== "-") {
    throw refuse(
      `flag --${name} needs a value, got the flag-like ${JSON.stringify(value)} (write --${name}=${value})`,
    );
  }
}

function takes(command: Command): string {
  const names = Object.keys(command.flags);
  return names.length === 0
    ? `${command.name} takes no flags`
    : `${command.name} takes ${names.map((name) => `--${name}`).join(", ")}`;
}

/**
 * `" (did you mean PREFIXcandidate?)"` for the closest candidate within two edits (or sharing the word as a
 * prefix), else `""`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { suggestion } from "./_parse.ts";
 * strictEqual(suggestion("ouput-dir", ["output-dir", "dataset"], "--"), " (did you mean --output-dir?)");
 * strictEqual(suggestion("xyz", ["output-dir", "dataset"], "--"), "");
 * ```
 */
export function suggestion(word: string, candidates: readonly string[], prefix = ""): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = candidate.startsWith(word) && word.length >= 3 ? 1 : editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== undefined && bestDistance <= Math.min(2, Math.max(1, word.length - 2))
    ? ` (did you mean ${prefix}${best}?)`
    : "";
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}
