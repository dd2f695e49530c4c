/**
 * The test tiers: every test file sits in one tier folder, and the unit tier starts no process (its task runs it
 * without --allow-run, and this check names the file that would, before anyone runs it).
 */

import { assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";

const TIERS = ["unit", "process", "browser"];
const SUPPORT = ["helpers", "fixtures", "golden", "pins"];

/** Every file below `directory`, relative to it. */
async function filesBelow(directory: string, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(directory)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) files.push(...await filesBelow(`${directory}/${entry.name}`, `${path}/`));
    else files.push(path);
  }
  return files.sort();
}

/**
 * What in a unit test's text starts a process (the CLI helpers, a command, a spawn or a browser) or signals its
 * own: the unit tier runs its files side by side in one process, so one file's signal reaches the others'.
 */
const STARTS_A_PROCESS = [
  /\bnew Deno\.Command\b/,
  /\.spawn\(/,
  /\brunCli\(/,
  /\brunQa\(/,
  /\brunInTerminal\(/,
  /\bscreenshot\(|\bopenBrowser\(/,
  /\bDeno\.kill\(\s*Deno\.pid\b/,
] as const;

/** The unit-tier files whose code starts a process, each with the pattern that shows it. */
export function processStarters(files: readonly { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) =>
    STARTS_A_PROCESS.filter((pattern) => pattern.test(text)).map((pattern) => `${path}: ${pattern.source}`)
  );
}

Deno.test("every test file sits in a tier folder: tests/unit, tests/process or tests/browser", async () => {
  const misplaced = (await filesBelow(`${ROOT}tests`)).filter((path) =>
    path.endsWith("_test.ts") && !TIERS.includes(path.split("/")[0])
  ).filter((path) => !SUPPORT.includes(path.split("/")[0]));
  assertEquals(misplaced, []);
});

Deno.test("no unit test starts a process or signals its own", async () => {
  const files = [];
  for (const path of await filesBelow(`${ROOT}tests/unit`)) {
    // This file holds the patterns' samples as text; it starts nothing.
    if (path.endsWith(".ts") && path !== "tiers_test.ts") {
      files.push({ path, text: await Deno.readTextFile(`${ROOT}tests/unit/${path}`) });
    }
  }
  assertEquals(processStarters(files), []);
});

Deno.test("the process-start check names each form", () => {
  const samples = [
    'new Deno.Command("cp", { args: [] })',
    "command.spawn()",
    'await runCli(["verify"])',
    'runQa(directory, url, ["--stand-in"])',
    "await runInTerminal(args)",
    "await screenshot(chromium, page, png)",
    'Deno.kill(Deno.pid, "SIGTERM")',
  ];
  assertEquals(
    processStarters(samples.map((text, index) => ({ path: `sample${index}.ts`, text }))).length,
    samples.length,
  );
});
