/**
 * A command's arguments parsed against its own flags (through `node:util`'s `parseArgs`, the standard parser
 * nearest to `@std/cli`), each value turned into its declared kind (a number, a list) here and nowhere else,
 * with one-line refusals that name the command and the flag, and "did you mean" when a close spelling exists.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { InputError } from "../base/mod.ts";
import type {
  Command,
  FlagDeclaration,
  FlagTable,
  FlagValue,
  FlagValues,
  NumberFlagDeclaration,
} from "./_command.ts";
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
 * value-taking flag with a value of its declared kind, no value on a boolean, no flag twice (a list's items go
 * in its one value, separated by commas), at most its declared positional arguments. With `--help` the values are left as given: help is shown whatever they are.
 *
 * @throws {InputError} One line naming the command and what is wrong.
 */
export function parseCommandArguments(command: Command, args: readonly string[]): ParsedArguments {
  const options = Object.fromEntries(
    Object.entries(command.flags).map(([name, flag]) => [
      name,
      { type: flag.type === "boolean" ? "boolean" as const : "string" as const },
    ]),
  );
  const { values, positionals, tokens } = parseArgs({
    args: [...args],
    options: { ...options, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const refuse = (text: string) => new InputError(text);
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const flag = token.name === "help"
      ? { type: "boolean" as const }
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
    if (flag.type !== "boolean") checkValue(token.name, token.value, token.inlineValue ?? false, refuse);
    if (seen.has(token.name) && token.name !== "help") throw refuse(givenTwice(token.name, flag));
    seen.add(token.name);
  }
  const help = values.help === true;
  delete values.help;
  const allowed = command.positionals?.at(-1)?.repeats ? Infinity : command.positionals?.length ?? 0;
  if (!help && positionals.length > allowed) {
    const extra = positionals.slice(allowed).map((word) => JSON.stringify(word)).join(" ");
    throw refuse(`unexpected argument(s) ${extra} (usage: ${usageLine(command)})`);
  }
  const flags: FlagValues<FlagTable> = {};
  for (const [name, given] of Object.entries(values)) {
    flags[name] = help || typeof given !== "string" ? given : flagValue(name, command.flags[name], given);
  }
  return { flags, positionals, help };
}

/**
 * A flag's text as its declared kind: a string as given; an `integer` (digits) or a `number` (digits, a
 * decimal fraction) within its bounds; a `list` split at commas, no item empty; a `choice` one of its words.
 *
 * @throws {InputError} `--NAME: expected WHAT, got "TEXT"`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
 * import { flagValue } from "./_parse.ts";
 * strictEqual(flagValue("limit", { type: "integer", of: "tasks", min: 1, help: "" }, "12"), 12);
 * strictEqual(flagValue("cases", { type: "integer", of: "cases", min: 1, or: "all", help: "" }, "all"), "all");
 * deepStrictEqual(flagValue("reuse", { type: "list", of: "directories", help: "" }, "a,b"), ["a", "b"]);
 * strictEqual(flagValue("baseline", { type: "choice", choices: ["confidence", "hybrid-v1"], help: "" }, "hybrid-v1"), "hybrid-v1");
 * throws(() => flagValue("max-cost", { type: "number", of: "USD", min: 0, help: "" }, "1e3"), {
 *   message: '--max-cost: expected a non-negative number of USD, got "1e3"',
 * });
 * ```
 */
export function flagValue(
  name: string,
  flag: FlagDeclaration,
  text: string,
): FlagValue<FlagDeclaration["type"]> {
  const refuse = (expected: string) =>
    new InputError(`expected ${expected}, got ${JSON.stringify(text)}`, { field: `--${name}` });
  switch (flag.type) {
    case "boolean":
    case "string":
      return text;
    case "choice":
      if (!flag.choices.includes(text)) throw refuse(`one of ${flag.choices.join(", ")}`);
      return text;
    case "list": {
      const items = text.split(",");
      if (items.includes("")) throw refuse(`${flag.of} separated by commas`);
      return items;
    }
    default: {
      if (flag.or !== undefined && text === flag.or) return text;
      const grammar = flag.type === "integer" ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
      const value = grammar.test(text) ? Number(text) + 0 : NaN; // + 0: a "-0" is 0
      const exact = flag.type === "integer" ? Number.isSafeInteger(value) : Number.isFinite(value);
      if (!exact || !withinBounds(flag, value)) {
        throw refuse(flag.or === undefined ? expectedNumber(flag) : `${expectedNumber(flag)} or ${flag.or}`);
      }
      return value;
    }
  }
}

function withinBounds(flag: NumberFlagDeclaration, value: number): boolean {
  const aboveMin = flag.minExclusive ? value > flag.min : value >= flag.min;
  return aboveMin && (flag.max === undefined || value <= flag.max);
}

/** `a whole number of tasks in [1, 999999]`, `a number of seconds in (0, 3600]`, `a non-negative number of USD`. */
function expectedNumber(flag: NumberFlagDeclaration): string {
  const noun = (flag.type === "integer" ? "whole number" : "number") +
    (flag.of === "" ? "" : ` of ${flag.of}`);
  if (flag.max !== undefined) {
    return `a ${noun} in ${flag.minExclusive ? "(" : "["}${flag.min}, ${flag.max}]`;
  }
  if (flag.min === 0 && !flag.minExclusive) return `a non-negative ${noun}`;
  return `a ${noun} ${flag.minExclusive ? "above" : "from"} ${flag.min}`;
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

/** `flag --NAME given twice (give it once)`; a list flag's items go in its one value. */
function givenTwice(name: string, flag: FlagDeclaration | { type: "boolean" }): string {
  const items = flag.type === "list" ? `, its ${flag.of} separated by commas` : "";
  return `flag --${name} given twice (give it once${items})`;
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
