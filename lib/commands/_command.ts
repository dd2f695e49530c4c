/**
 * What a command is: its name, what it says about itself, the flags it takes and the function that runs it.
 * The command line parses exactly these flags for it and generates its help from this declaration.
 *
 * @module
 */

import type { FileOperationHook, PublishOptions } from "../base/mod.ts";

/** Where a command writes its lines and reads its environment; tests capture them. */
export interface Io {
  /** A line for standard output. */
  out: (line: string) => void;
  /** A line for standard error. */
  err: (line: string) => void;
  /** An environment variable, `undefined` when unset or not granted. */
  env: (name: string) => string | undefined;
  /** A document for programs (JSON, Markdown, HTML) on standard output: never fitted or styled. */
  document?: (text: string) => void;
  /** The width standard output's text is fitted to (a terminal's, else 100); absent: not fitted. */
  columns?: number;
  /** Whether standard output is a terminal (absent: it is not). */
  terminal?: boolean;
  /** A status line rewritten in place (terminals only; absent otherwise). */
  live?: { update: (text: string) => void; done: () => void };
  /**
   * How the user runs this program (`./deermem-eval.js`), for the commands it suggests next; absent, the
   * checkout's tasks (`deno task cli COMMAND`, `deno task run-qa`).
   */
  invocation?: string;
}

/**
 * What only a test passes in, beside the {@linkcode Io}: `cli.ts`'s `main` never takes it and no exported module
 * re-exports it, so no user of the published package can reach it.
 */
export interface TestSeams {
  /** Sees each file operation a publish makes before it runs (a fault test fails one, a signal test holds one). */
  readonly beforeFileOperation?: FileOperationHook;
}

/** Writes a document to standard output as it is (through `io.document` where the edge has one). */
export function writeDocument(io: Io, text: string): void {
  (io.document ?? io.out)(text);
}

/** How the command's files are published: warnings on `io`, each said once; through the test's hook, if any. */
export function publishOptions(io: Io, seams: TestSeams): PublishOptions {
  const said = new Set<string>();
  const warn = (line: string) => {
    if (!said.has(line)) io.err(`warning: ${line}`);
    said.add(line);
  };
  return { beforeOperation: seams.beforeFileOperation, warn };
}

/** What every flag declares: its help, and where and how it is listed. */
interface FlagBase {
  /** One line (or a few) of help. */
  readonly help: string;
  /** Shown without brackets in the usage line. */
  readonly required?: boolean;
  /** The heading of the group it is listed under in help (default: none, listed first). */
  readonly group?: string;
}

/** A flag given with a value. */
interface ValueFlagBase extends FlagBase {
  /** The value's name in help and usage, e.g. `PATH`. */
  readonly value?: string;
}

/**
 * A number flag's value: `integer` a whole number, `number` a decimal one; both in `min` (above it, with
 * `minExclusive`) to `max`. `of` names what it counts, for the refusal: `expected a whole number of OF …`.
 */
export interface NumberFlagDeclaration extends ValueFlagBase {
  readonly type: "integer" | "number";
  /** What the number counts (`tasks`, `USD`), or "" for a number that counts nothing (a seed). */
  readonly of: string;
  readonly min: number;
  readonly minExclusive?: boolean;
  readonly max?: number;
  /** A word taken in place of a number (`all`): the value is then that word. */
  readonly or?: string;
}

/** A comma-separated list, every item non-empty; `of` names the items: `expected OF separated by commas`. */
export interface ListFlagDeclaration extends ValueFlagBase {
  readonly type: "list";
  readonly of: string;
}

/** One of a fixed set of words, `choices`: `expected one of A, B, got …` otherwise. */
export interface ChoiceFlagDeclaration extends ValueFlagBase {
  readonly type: "choice";
  readonly choices: readonly string[];
}

/**
 * One flag a command takes: a boolean, a string, a number (`integer`, `number`), a list or a choice. The parser turns
 * the text into the declared kind (refusing a bad value naming the flag), so a command reads typed values.
 */
export type FlagDeclaration =
  | (FlagBase & { readonly type: "boolean" })
  | (ValueFlagBase & { readonly type: "string" })
  | NumberFlagDeclaration
  | ListFlagDeclaration
  | ChoiceFlagDeclaration;

/** A command's flags by name (without the leading `--`). */
export type FlagTable = Readonly<Record<string, FlagDeclaration>>;

/** The value a flag of this kind is parsed into (a choice's: one of its words). */
export type FlagValue<Kind extends FlagDeclaration["type"]> = [Kind] extends ["boolean"] ? boolean
  : [Kind] extends ["string" | "choice"] ? string
  : [Kind] extends ["integer" | "number"] ? number
  : [Kind] extends ["list"] ? string[]
  : boolean | string | number | string[];

/** The parsed values of a flag table: each flag absent, or its value of the declared kind. */
export type FlagValues<Flags extends FlagTable> = {
  -readonly [Name in keyof Flags]?: Flags[Name] extends { readonly choices: readonly (infer Word)[] } ? Word
    : Flags[Name] extends { readonly or: string } ? number | string
    : FlagValue<Flags[Name]["type"]>;
};

/** A positional argument a command takes. */
export interface PositionalDeclaration {
  /** Its name in usage, e.g. `RESULTS_DIR`. */
  readonly name: string;
  /** Whether it may be left out. */
  readonly optional?: boolean;
  /** Whether it may be given more than once (the last positional only). */
  readonly repeats?: boolean;
}

/** What a command's `run` receives. */
export interface CommandInput<Flags extends FlagTable> {
  /** The flags given, parsed against the command's own table. */
  flags: FlagValues<Flags>;
  /** The positional arguments, at most as many as declared. */
  positionals: string[];
  /** Where to print. */
  io: Io;
  /** A test's hooks (none when the program runs). */
  seams: TestSeams;
}

/** A command: declared once, parsed, helped and dispatched from this declaration. */
export interface Command<Flags extends FlagTable = FlagTable> {
  /** The word that selects it, e.g. `grade-qa`. */
  readonly name: string;
  /** One line for the program's command list. */
  readonly summary: string;
  /** What it reads, checks and writes: the body of its `--help`. */
  readonly description: string;
  /** The positional arguments it takes, in order. */
  readonly positionals?: readonly PositionalDeclaration[];
  /** Every flag it takes; any other flag is refused. */
  readonly flags: Flags;
  /** Whether it keeps network permission (only `run-qa`). */
  readonly network?: boolean;
  /**
   * Does the work. Success returns; every failure is a thrown typed error, turned into an exit code by the one
   * mapper in `lib/base/failure.ts`.
   */
  run(input: CommandInput<Flags>): Promise<void>;
}

/**
 * Declares a command, checking its flags against its `run` at compile time.
 *
 * @param command The declaration.
 * @returns The same declaration.
 */
export function defineCommand<Flags extends FlagTable>(command: Command<Flags>): Command<Flags> {
  return command;
}
