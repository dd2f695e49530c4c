/**
 * The program behind `cli.ts`'s `main`: the commands, each loaded only when it runs (so a start evaluates just
 * that command's modules); the dispatcher finds the command, parses its own flags, revokes the network unless
 * the command keeps it (and starting processes unless a policy module is given), runs it, and hands any failure
 * to the one error mapper. A test runs it with {@linkcode TestSeams}, which `main` never takes.
 *
 * @module
 */

import { DEBUG_ENV, describeFailure, InputError } from "../base/mod.ts";
import type { Command, Io, TestSeams } from "./_command.ts";
import { commandHelp, programHelp } from "./_help.ts";
import { parseCommandArguments, suggestion } from "./_parse.ts";
import { VERSION } from "./_version.ts";

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
  plan: async () => (await import("./plan.ts")).command,
  "author-protocol": async () => (await import("./author_protocol.ts")).command,
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

/** Runs the command line `args`; returns the exit code. Never throws: every failure is a code and its lines. */
export async function runProgram(args: readonly string[], io: Io, seams: TestSeams = {}): Promise<number> {
  const [name, ...rest] = args;
  try {
    return await dispatch(name, rest, io, seams);
  } catch (error) {
    const known = name !== undefined && COMMAND_NAMES.includes(name);
    const { code, lines } = describeFailure(known ? name : "", error, isDebug(io));
    for (const line of lines) io.err(line);
    return code;
  }
}

async function dispatch(
  name: string | undefined,
  rest: readonly string[],
  io: Io,
  seams: TestSeams,
): Promise<number> {
  if (name === "--version") {
    io.out(`deermem-eval ${VERSION}`);
    return 0;
  }
  if (name === "--help" || name === "-h") {
    io.out(programHelp(VERSION, await loadAllCommands(), io.columns));
    return 0;
  }
  if (name === undefined) {
    throw new InputError(`no command given; one of ${COMMAND_NAMES.join(", ")} (see deermem-eval --help)`);
  }
  const command = await loadCommand(name);
  if (command === undefined) {
    const hint = suggestion(name, COMMAND_NAMES);
    throw new InputError(`unknown command ${JSON.stringify(name)}${hint} (see deermem-eval --help)`);
  }
  const { flags, positionals, help } = parseCommandArguments(command, rest);
  if (help) {
    io.out(commandHelp(command, io.columns));
    return 0;
  }
  // Offline commands give up the network before any work, so not even a bug can reach it.
  if (!command.network) await Deno.permissions.revoke({ name: "net" });
  // Only a policy module's sandbox starts a process: without a module, no command keeps that power.
  if ((flags as Record<string, unknown>)["policy-module"] === undefined) {
    await Deno.permissions.revoke({ name: "run" });
  }
  await command.run({ flags, positionals, io, seams });
  return 0;
}

function isDebug(io: Io): boolean {
  try {
    const value = io.env(DEBUG_ENV);
    return value !== undefined && value !== "" && value !== "0";
  } catch {
    // Without env permission for it, the variable reads as unset.
    return false;
  }
}
