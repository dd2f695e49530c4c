/**
 * The deermem-eval command line: finds the command, parses its own flags, revokes the network unless the
 * command is `run-qa` (and starting processes unless a policy module is given), runs it, and hands any failure
 * to the one error mapper.
 *
 * @module
 */

import { InputError } from "./lib/base/errors.ts";
import { DEBUG_ENV, describeFailure } from "./lib/base/failure.ts";
import { describeStream, printable, truncateColumns } from "./lib/base/terminal.ts";
import { visible } from "./lib/base/visible.ts";
import {
  COMMAND_NAMES,
  commandHelp,
  type Io,
  loadAllCommands,
  loadCommand,
  parseCommandArguments,
  programHelp,
  suggestion,
  VERSION,
} from "./lib/commands/mod.ts";

export type { Io };
export type { FileOperation, FileOperationHook } from "./lib/base/fs.ts";
export { SOURCE_STATE, VERSION } from "./lib/commands/mod.ts";

/**
 * Runs the command line; returns the exit code. Never throws: every failure is mapped to a code and one line.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { main } from "./cli.ts";
 * const lines: string[] = [];
 * const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line), env: () => undefined };
 * strictEqual(await main(["validate-contracts", "--dry-run"], io), 2); // a flag it does not take
 * strictEqual(lines[0].startsWith("deermem-eval validate-contracts: unknown flag --dry-run"), true);
 * ```
 */
export async function main(args: readonly string[], io: Io = defaultIo()): Promise<number> {
  const [name, ...rest] = args;
  try {
    return await dispatch(name, rest, io);
  } catch (error) {
    const known = name !== undefined && COMMAND_NAMES.includes(name);
    const { code, lines } = describeFailure(known ? name : "", error, isDebug(io));
    for (const line of lines) io.err(line);
    return code;
  }
}

async function dispatch(name: string | undefined, rest: readonly string[], io: Io): Promise<number> {
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
  await command.run({ flags, positionals, io });
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

function terminalStatusLine(columns: number): NonNullable<Io["live"]> {
  const encoder = new TextEncoder();
  return {
    // Cut to the width: a status line that wraps could not be rewritten in place.
    update: (text) =>
      Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${truncateColumns(visible(text), columns - 1)}`)),
    done: () => Deno.stderr.writeSync(encoder.encode("\n")),
  };
}

/**
 * The printing edge: text fitted to the stream's width and styled only for a terminal without NO_COLOR. Every
 * control character in what is printed is made visible first (outside text is escaped where it is used too),
 * so the only escape bytes written are the edge's own styling on a terminal.
 */
function defaultIo(): Io {
  const lines = (text: string) => visible(text, { keepLines: true });
  // Deno reads NO_COLOR itself (present and non-empty), with no env permission: --ignore-env cannot hide it.
  const stdout = describeStream(Deno.stdout.isTerminal(), Deno.noColor, Deno.consoleSize);
  const stderr = describeStream(Deno.stderr.isTerminal(), Deno.noColor, Deno.consoleSize);
  return {
    out: (text) => console.log(printable(lines(text), stdout, true)),
    // An error stays one line where it is logged; on a terminal it is fitted like the rest.
    err: (text) => console.error(printable(lines(text), stderr, stderr.isTerminal)),
    document: (text) => console.log(lines(text)),
    env: (name) => Deno.env.get(name),
    columns: stdout.columns,
    terminal: stdout.isTerminal,
    live: stderr.isTerminal ? terminalStatusLine(stderr.columns) : undefined,
  };
}

if (import.meta.main) {
  // Not Deno.exit(): a normal exit lets Deno write the code cache that makes the next start fast.
  Deno.exitCode = await main(Deno.args);
}
