/**
 * The deermem-eval command line: {@linkcode main} runs one command (finding it, parsing its own flags, revoking
 * the network unless the command is `run-qa` and starting processes unless a policy module is given, and handing
 * any failure to the one error mapper) and returns its exit code; run as a program, it prints to the terminal.
 *
 * @module
 */

import { describeStream, printable, truncateColumns } from "./lib/base/terminal.ts";
import { visible } from "./lib/base/visible.ts";
import { type Io, runProgram } from "./lib/commands/mod.ts";

export type { Io };
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
  return await runProgram(args, io);
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
    invocation: invocation(),
  };
}

/**
 * How the user runs this program, when it is not `cli.ts` in the checkout: the bundle's file or the compiled
 * binary, as `./NAME` when it is in the working directory, else by its absolute path.
 */
function invocation(): string | undefined {
  const path = Deno.build.standalone ? Deno.execPath() : new URL(Deno.mainModule).pathname;
  if (!Deno.build.standalone && (!Deno.mainModule.startsWith("file:") || path.endsWith("/cli.ts"))) {
    return undefined;
  }
  const file = decodeURIComponent(path);
  const slash = file.lastIndexOf("/");
  try {
    if (file.slice(0, slash) === Deno.cwd()) return `./${file.slice(slash + 1)}`;
  } catch {
    // The working directory is gone or not readable: the absolute path still runs.
  }
  return file;
}

if (import.meta.main) {
  // Not Deno.exit(): a normal exit lets Deno write the code cache that makes the next start fast.
  Deno.exitCode = await main(Deno.args);
}
