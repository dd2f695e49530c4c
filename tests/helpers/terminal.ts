/** Runs the CLI under a pseudo-terminal (`script` from util-linux), as a person at a terminal would. */

import { ROOT } from "./paths.ts";
import { taskFlags } from "./cli.ts";

/** What the terminal showed (standard output, `\r\n` made `\n`) and what went to standard error (a file). */
export interface TerminalResult {
  code: number;
  screen: string;
  stderr: string;
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Runs `cli.ts ARGS` with the `cli` task's flags on a terminal of `columns` columns. Standard error goes to a
 * file unless `stderrToTerminal`, then it shares the terminal (and `screen`) with standard output.
 */
export async function runInTerminal(
  args: string[],
  options: {
    columns?: number;
    env?: Record<string, string>;
    stderrToTerminal?: boolean;
    flags?: string[];
    cwd?: string;
  } = {},
): Promise<TerminalResult> {
  const errors = await Deno.makeTempFile({ prefix: "deermem-eval-tty-" });
  try {
    const command = [Deno.execPath(), "run", ...(options.flags ?? taskFlags("cli")), `${ROOT}cli.ts`, ...args]
      .map(quote).join(" ");
    const redirect = options.stderrToTerminal ? "" : ` 2>${quote(errors)}`;
    const script = `stty cols ${options.columns ?? 100} rows 40; ${command}${redirect}`;
    const output = await new Deno.Command("script", {
      args: ["-qec", script, "/dev/null"],
      cwd: options.cwd ?? ROOT,
      env: { DENO_NO_UPDATE_CHECK: "1", ...options.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const screen = new TextDecoder().decode(output.stdout).replaceAll("\r\n", "\n");
    return { code: output.code, screen, stderr: await Deno.readTextFile(errors) };
  } finally {
    await Deno.remove(errors);
  }
}
