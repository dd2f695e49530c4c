/**
 * The command line's flag parser: `--name value`, `--name=value`, boolean `--name`, one-letter short forms and
 * `--` ending the flags, strict about anything else. It accepts exactly what `node:util`'s `parseArgs` accepts
 * with `strict: true, allowPositionals: true` (and gives the same values and positionals), so the CLI loads no
 * Node-compatibility module; its errors are one line each.
 *
 * @module
 */

import { InputError } from "./errors.ts";

/** One flag: a string that takes a value, or a boolean that takes none; `short` is its one-letter alias. */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
}

/** The values a table of {@linkcode FlagSpec}s parses to: each flag absent, or its string or `true`. */
export type FlagValues<Options extends Record<string, FlagSpec>> = {
  -readonly [Name in keyof Options]?: Options[Name]["type"] extends "string" ? string : boolean;
};

/** Parsed flags and the positional arguments in their order. */
export interface ParsedFlags<Options extends Record<string, FlagSpec>> {
  values: FlagValues<Options>;
  positionals: string[];
}

/**
 * Parses `args` against the table `options`. An unknown flag, a string flag without a value (or whose next
 * word is itself a flag: use `--name=-value`), and a value given to a boolean flag are each an
 * {@linkcode InputError} with one line naming the flag. A repeated flag keeps its last value.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parseFlags } from "./flags.ts";
 * const options = { dataset: { type: "string" }, json: { type: "boolean" } } as const;
 * const { values, positionals } = parseFlags(["verify", "results", "--dataset", "d.json"], options);
 * deepStrictEqual([values.dataset, positionals], ["d.json", ["verify", "results"]]);
 * ```
 */
export function parseFlags<Options extends Record<string, FlagSpec>>(
  args: readonly string[],
  options: Options,
): ParsedFlags<Options> {
  const values: Record<string, string | boolean> = Object.create(null);
  const positionals: string[] = [];
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(options)) if (spec.short) byShort.set(spec.short, name);
  const spelling = (name: string) => {
    const short = options[name].short;
    return short === undefined ? `--${name}` : `-${short}, --${name}`;
  };
  const unknown = (word: string) =>
    new InputError(`unknown flag ${word} (a positional argument starting with "-" goes after "--")`);
  for (let index = 0; index < args.length; index++) {
    const word = args[index];
    if (word === "--") {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word);
      continue;
    }
    if (!word.startsWith("--")) {
      // A group of short flags (`-h`, `-hh`): only booleans can be grouped; a string one takes the next word.
      for (let at = 1; at < word.length; at++) {
        const name = byShort.get(word[at]);
        if (name === undefined) throw unknown(`-${word[at]}`);
        if (options[name].type === "boolean") {
          values[name] = true;
          continue;
        }
        const inline = word.slice(at + 1);
        if (inline !== "") {
          values[name] = inline;
        } else {
          values[name] = takeValue(args, index, spelling(name), `-${word[at]}`);
          index++;
        }
        break;
      }
      continue;
    }
    const equals = word.indexOf("=");
    const name = equals < 0 ? word.slice(2) : word.slice(2, equals);
    if (!Object.hasOwn(options, name)) throw unknown(word);
    if (options[name].type === "boolean") {
      if (equals >= 0) throw new InputError(`flag ${spelling(name)} takes no value`);
      values[name] = true;
    } else if (equals >= 0) {
      values[name] = word.slice(equals + 1);
    } else {
      values[name] = takeValue(args, index, spelling(name), `--${name}`);
      index++;
    }
  }
  return { values: values as FlagValues<Options>, positionals };
}

function takeValue(args: readonly string[], index: number, spelling: string, written: string): string {
  const value = args[index + 1];
  if (value === undefined) throw new InputError(`flag ${spelling} needs a value`);
  if (value.startsWith("-") && value !== "-") {
    throw new InputError(
      `flag ${spelling} needs a value, got the flag-like ${
        JSON.stringify(value)
      } (write ${written}=${value})`,
    );
  }
  return value;
}
