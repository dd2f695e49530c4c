/** Helpers shared by the end-to-end tests: run the CLI as a subprocess with the tasks' permission flags. */

import denoConfig from "../../deno.json" with { type: "json" };

export { GOLDEN, PINS, ROOT } from "./paths.ts";
import { GOLDEN, ROOT } from "./paths.ts";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Offline commands run exactly as the `cli` task runs them: no net, no env. */
export const OFFLINE_FLAGS = ["--no-prompt", "--allow-read", "--allow-write", "--ignore-env"];

/** The permission flags a `deno.json` task gives `cli.ts`, so tests run the CLI exactly as the task does. */
export function taskFlags(task: string): string[] {
  const command: string = denoConfig.tasks[task as keyof typeof denoConfig.tasks];
  const words = command.split(/\s+/);
  return words.slice(words.indexOf("run") + 1, words.indexOf("cli.ts")).filter((word) =>
    word.startsWith("--")
  );
}

export async function runCli(
  args: string[],
  options: { flags?: string[]; env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(options.flags ?? OFFLINE_FLAGS), `${ROOT}cli.ts`, ...args],
    cwd: options.cwd ?? ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdout: "piped",
    stderr: "piped",
  });
  const output = await command.output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/**
 * `defaults` (flag and value pairs) without those `extra` gives again, then `extra`: a flag is given once, and
 * a test's own value stands in for the default.
 */
export function withFlags(defaults: readonly string[], extra: readonly string[]): string[] {
  const kept = defaults.flatMap((word, index) =>
    index % 2 === 0 && !extra.includes(word) ? [word, defaults[index + 1]] : []
  );
  return [...kept, ...extra];
}

export function fixtureProtocolFlags(): string[] {
  const protocol = `${GOLDEN}/fixture/protocol`;
  return [
    "--config",
    `${protocol}/config.yaml`,
    "--official-manifest",
    `${protocol}/official.json`,
    "--synthetic-manifest",
    `${protocol}/synthetic.json`,
  ];
}

/** Runs `body` with a fresh temporary directory, removed afterwards whatever happens. */
export async function withTempDir<T>(body: (directory: string) => Promise<T>): Promise<T> {
  const directory = await Deno.makeTempDir({ prefix: "deermem-eval-test-" });
  try {
    return await body(directory);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
}

/**
 * Text the CLI fitted to `width` columns, one line per line it printed again: a line is a continuation when it
 * is indented deeper than the printed line it continues and its first word would not have fitted on the line
 * before (how the edge breaks lines).
 */
export function unwrap(text: string, width = 100): string {
  const lines: string[] = [];
  let last = "";
  let baseIndent = 0; // the indent of the printed line being continued
  for (const line of text.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const word = line.trimStart().split(" ")[0];
    const continues = lines.length > 0 && indent > baseIndent && line.trim() !== "" &&
      [...last].length + 1 + [...word].length > width;
    if (continues) lines.push(`${lines.pop()!.replace(/ \\$/, "")} ${line.trimStart()}`);
    else {
      lines.push(line);
      baseIndent = indent;
    }
    last = line;
  }
  return lines.join("\n");
}
