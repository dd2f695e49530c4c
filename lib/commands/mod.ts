/**
 * The commands, each one module that declares its name, help, flags and `run`. Each is loaded only when it
 * runs, so a start evaluates just that command's modules.
 *
 * @module
 */

import type { Command } from "./_command.ts";

export type { Command, CommandInput, FlagDeclaration, FlagTable, FlagValues, Io } from "./_command.ts";
export { commandHelp, programHelp, usageLine } from "./_help.ts";
export { parseCommandArguments, type ParsedArguments, suggestion } from "./_parse.ts";
export { SOURCE_STATE, VERSION } from "./_version.ts";

const LOADERS: Readonly<Record<string, () => Promise<Command>>> = {
  "validate-contracts": async () => (await import("./validate_contracts.ts")).command,
  validate: async () => (await import("./validate.ts")).command,
  "run-policy": async () => (await import("./run_policy.ts")).command,
  sweep: async () => (await import("./sweep.ts")).command,
  "run-qa": async () => (await import("./run_qa.ts")).command,
  "grade-qa": async () => (await import("./grade_qa.ts")).command,
  verify: async () => (await import("./verify.ts")).command,
  demo: async () => (await import("./demo.ts")).command,
  report: async () => (await import("./report.ts")).command,
  explain: async () => (await import("./explain.ts")).command,
  conformance: async () => (await import("./conformance.ts")).command,
};

/** Every command's name, in the order help lists them. */
export const COMMAND_NAMES: readonly string[] = Object.freeze(Object.keys(LOADERS));

/** The command named `name`, loaded; `undefined` when there is none. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  return Object.hasOwn(LOADERS, name) ? await LOADERS[name]() : undefined;
}

/** Every command, loaded, in the order help lists them. */
export async function loadAllCommands(): Promise<Command[]> {
  return await Promise.all(COMMAND_NAMES.map((name) => LOADERS[name]()));
}
