/**
 * Terminal conventions, end to end: colour only on a terminal and never with NO_COLOR, every line within the
 * terminal's width (100 columns when piped), progress only on a terminal, `--show-text` only to one.
 */

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, REFERENCE_QA } from "../../helpers/fixture.ts";
import { runInTerminal } from "../../helpers/terminal.ts";

const CLI = { flags: taskFlags("cli") };
const ESCAPE = "\x1b[";

/** The lines of `text` wider than `width` columns (escape sequences take none), with their widths. */
function overWidth(text: string, width: number): string[] {
  // deno-lint-ignore no-control-regex -- escape sequences take no columns on a terminal
  const columns = (line: string) => [...line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "")].length;
  return text.split("\n").filter((line) => columns(line) > width).map((line) => `${columns(line)}: ${line}`);
}

Deno.test("on a terminal ✓ and ✗ are coloured; NO_COLOR=1 there, and any pipe, print no escape byte", async () => {
  const terminal = await runInTerminal(["verify"], { env: { NO_COLOR: "" } });
  assertEquals(terminal.code, 0, terminal.stderr);
  assertStringIncludes(terminal.screen, "\x1b[32m✓\x1b[39m qa.rows.jsonl: valid UTF-8");
  const noColor = await runInTerminal(["verify"], { env: { NO_COLOR: "1" } });
  assertEquals(noColor.code, 0, noColor.stderr);
  assertStringIncludes(noColor.screen, "✓ qa.rows.jsonl: valid UTF-8");
  assert(!noColor.screen.includes(ESCAPE), JSON.stringify(noColor.screen.slice(0, 200)));
  const piped = await runCli(["verify"], { ...CLI, env: { NO_COLOR: "" } });
  assertEquals(piped.code, 0, piped.stderr);
  assertStringIncludes(piped.stdout, "✓ qa.rows.jsonl: valid UTF-8");
  assert(!piped.stdout.includes(ESCAPE) && !piped.stderr.includes(ESCAPE));
});

Deno.test("a JSON document and a Markdown report on a terminal are written as they are: no colour, no wrap", async () => {
  const json = await runInTerminal(["verify", "--json"], { columns: 60, env: { NO_COLOR: "" } });
  assertEquals(json.code, 0, json.stderr);
  assert(!json.screen.includes(ESCAPE));
  assertEquals(JSON.parse(json.screen).ok, true);
  const markdown = await runInTerminal(["report", "--markdown", "-"], { columns: 60, env: { NO_COLOR: "" } });
  assertEquals(markdown.code, 0, markdown.stderr);
  const piped = await runCli(["report", "--markdown", "-"], CLI);
  assertEquals(markdown.screen, piped.stdout);
});

Deno.test("every line each command prints is at most 100 columns when piped", async () => {
  await withTempDir(async (directory) => {
    const demo = await runCli(["demo", "--output-dir", `${directory}/demo`], { flags: taskFlags("demo") });
    assertEquals(demo.code, 0, demo.stderr);
    const demoFlags = ["--protocol", `${directory}/demo/protocol`];
    const caseId = /deno task cli explain (\S+)/.exec(demo.stdout)![1];
    const runs: [string, string][] = [["demo", demo.stdout]];
    const commands = [
      ["verify"],
      ["report"],
      ["report", REFERENCE_QA, ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET],
      ["verify", REFERENCE_QA, ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET],
      ["verify", `${directory}/demo`, ...demoFlags],
      ["report", `${directory}/demo`, ...demoFlags],
      ["report", `${directory}/demo/policy`, ...demoFlags],
      ["explain", caseId, ...demoFlags],
      ["sweep", ...demoFlags, "--output-dir", `${directory}/sweep`],
      ["report", `${directory}/sweep`],
      ["validate", ...demoFlags],
      ["--help"],
      ...["verify", "report", "explain", "sweep", "run-qa", "grade-qa", "run-policy", "conformance"].map(
        (name) => [name, "--help"],
      ),
    ];
    for (const args of commands) {
      const result = await runCli(args, CLI);
      assertEquals(result.code, 0, `${args.join(" ")}\n${result.stderr}`);
      runs.push([args.slice(0, 2).join(" "), result.stdout]);
    }
    const dryRun = await runCli(["run-qa", "--dry-run", ...demoFlags], { flags: taskFlags("run-qa") });
    assertEquals(dryRun.code, 0, dryRun.stderr);
    // Its listing, one task a line with its 64-digit fingerprint, is data (never wrapped); its closing line is text.
    assertMatch(dryRun.stdout, /^correction_review_resolution__confidence {2}[0-9a-f]{64} {2}\d+ chars$/m);
    runs.push(["run-qa --dry-run", dryRun.stdout.trimEnd().split("\n").at(-1)!]);
    const over = runs.flatMap(([name, stdout]) => overWidth(stdout, 100).map((line) => `${name}: ${line}`));
    assertEquals(over, []);
  });
});

Deno.test("on a terminal of 80 columns every line is at most 80 columns", async () => {
  for (const args of [["verify"], ["report"], ["--help"], ["report", "--help"]]) {
    const result = await runInTerminal(args, { columns: 80 });
    assertEquals(result.code, 0, `${args.join(" ")}\n${result.stderr}`);
    assertEquals(overWidth(result.screen, 80), [], args.join(" "));
  }
});

Deno.test("a report's table too wide for the terminal keeps its columns aligned, wrapping cells", async () => {
  const result = await runInTerminal(["report"], { columns: 80, env: { NO_COLOR: "1" } });
  assertEquals(result.code, 0, result.stderr);
  // The suites: every figure still on the row of its suite.
  assertMatch(result.screen, /\n {2}longmemeval +40 +23\/40 +35\/40 +14 +1 +13/);
  assertMatch(result.screen, /\n {2}longmemeval +0\.0018 +\+0\.300 +\[\+0\.150, \+0\.450\]/);
});

Deno.test("explain --show-text refuses when standard output is not a terminal, and shows the text on one", async () => {
  const args = [
    "explain",
    "05fdf179",
    ...fixtureProtocolFlags(),
    "--dataset",
    FIXTURE_DATASET,
    "--show-text",
  ];
  const piped = await runCli(args, CLI);
  assertEquals(piped.code, 2);
  assertEquals(piped.stdout, "");
  assertEquals(piped.stderr.trim().split("\n").length, 1, piped.stderr);
  assertStringIncludes(piped.stderr, "--show-text prints the dataset's text to a terminal only");
  const shown = await runInTerminal(args, { env: { NO_COLOR: "1" } });
  assertEquals(shown.code, 0, shown.stderr);
  assertMatch(shown.screen, /\n {2}question: \S/);
  assertMatch(shown.screen, /\n {2}gold_05fdf179: \S/);
});

Deno.test("sweep, report of a sweep and verify --dataset show progress with elapsed time and rate on a terminal, none when piped", async () => {
  await withTempDir(async (directory) => {
    const fixture = [...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET];
    const sweep = await runInTerminal(["sweep", ...fixture, "--output-dir", `${directory}/a`], {
      env: { NO_COLOR: "1" },
      stderrToTerminal: true,
    });
    assertEquals(sweep.code, 0, sweep.screen);
    // deno-lint-ignore no-control-regex -- the live line is rewritten by a carriage return and an erase
    assertMatch(sweep.screen, /\r\x1b\[2Ksweep: 45\/45 cases · \d+\.\d s · [\d.,]+ cases\/s/);
    assertMatch(sweep.screen, /sweep: 45 cases in \d+\.\d s \([\d.,]+ cases\/s\)\n/);
    const piped = await runCli(["sweep", ...fixture, "--output-dir", `${directory}/b`], CLI);
    assertEquals(piped.code, 0, piped.stderr);
    assertEquals(piped.stderr, "");
    // report of the sweep: the reading and verifying shown live, then its time, on the terminal only.
    const report = await runInTerminal(["report", `${directory}/a`, ...fixtureProtocolFlags()], {
      env: { NO_COLOR: "1" },
      stderrToTerminal: true,
    });
    assertEquals(report.code, 0, report.screen);
    assertMatch(report.screen, /report: reading and verifying the sweep · \d+\.\d s/);
    assertMatch(
      report.screen,
      /report: sweep verified, \d+ grid points in \d+\.\d s \([\d.,]+ grid points\/s\)\n/,
    );
    const reportPiped = await runCli(["report", `${directory}/a`, ...fixtureProtocolFlags()], CLI);
    assertEquals(reportPiped.code, 0, reportPiped.stderr);
    assertEquals(reportPiped.stderr, "");
    const verify = await runInTerminal(["verify", REFERENCE_QA, ...fixture], {
      env: { NO_COLOR: "1" },
      stderrToTerminal: true,
    });
    assertEquals(verify.code, 0, verify.screen);
    assertMatch(verify.screen, /verify: dataset prepared, 45 cases in \d+\.\d s \([\d.,]+ cases\/s\)\n/);
    const verifyPiped = await runCli(["verify", REFERENCE_QA, ...fixture], CLI);
    assertEquals(verifyPiped.code, 0, verifyPiped.stderr);
    assertEquals(verifyPiped.stderr, "");
  });
});
