/**
 * Each command takes exactly its own flags: one it does not take is refused (exit 2, one line naming the command
 * and the flag, nothing written), `$LONGMEMEVAL_ORACLE_PATH` stands in for every `--dataset`, and `-` sends a
 * report document to standard output.
 */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, runCli, taskFlags, unwrap, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, REFERENCE_QA, runOnFixture } from "../../helpers/fixture.ts";

async function entries(directory: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

async function copyDirectory(from: string, to: string): Promise<void> {
  const command = new Deno.Command("cp", { args: ["-r", from, to] });
  assert((await command.output()).success);
}

function assertRefused(result: { code: number; stderr: string }, pattern: RegExp): void {
  assertEquals(result.code, 2, result.stderr);
  assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
  assertMatch(result.stderr, pattern);
}

Deno.test("grade-qa --dry-run is refused and writes none of its three files", async () => {
  await withTempDir(async (directory) => {
    const run = `${directory}/qa`;
    await copyDirectory(REFERENCE_QA, run);
    for (const name of ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"]) {
      await Deno.remove(`${run}/${name}`);
    }
    const before = await entries(run);
    const result = await runOnFixture("grade-qa", run, ["--dry-run"]);
    assertRefused(
      result,
      /^deermem-eval grade-qa: unknown flag --dry-run \(grade-qa takes --dataset, --output-dir,/,
    );
    assertEquals(await entries(run), before);
  });
});

Deno.test("a flag given twice is refused before any work, naming it; nothing is written", async () => {
  await withTempDir(async (directory) => {
    const limit = await runOnFixture("run-qa", `${directory}/qa`, [
      "--dry-run",
      "--limit",
      "5",
      "--limit",
      "2",
    ]);
    assertRefused(limit, /^deermem-eval run-qa: flag --limit given twice \(give it once\)$/m);
    const output = await runOnFixture("sweep", `${directory}/a`, [
      "--output-dir",
      `${directory}/a`,
      "--output-dir",
      `${directory}/b`,
    ]);
    assertRefused(output, /^deermem-eval sweep: flag --output-dir given twice \(give it once\)$/m);
    assertEquals(await entries(directory), []);
  });
});

Deno.test("sweep --dry-run is refused before any work and writes nothing", async () => {
  await withTempDir(async (directory) => {
    const result = await runOnFixture("sweep", `${directory}/sweep`, ["--dry-run"]);
    assertRefused(result, /^deermem-eval sweep: unknown flag --dry-run/);
    assertEquals(await entries(directory), []);
  });
});

Deno.test("verify --json prints one JSON document; --html, which it does not take, is refused; nothing is written", async () => {
  await withTempDir(async (directory) => {
    const json = await runCli(["verify", REFERENCE_QA, "--json", ...fixtureProtocolFlags()], {
      cwd: directory,
    });
    assertEquals(json.code, 0, json.stderr);
    const document = JSON.parse(json.stdout);
    assertEquals([document.kind, document.ok, document.scope], ["qa", true, "structure-and-statistics"]);
    const html = await runCli(["verify", REFERENCE_QA, "--html", "x.html", ...fixtureProtocolFlags()], {
      cwd: directory,
    });
    assertRefused(html, /^deermem-eval verify: unknown flag --html/);
    assertEquals(await entries(directory), []);
  });
});

Deno.test("validate-contracts refuses flags of other commands instead of ignoring them", async () => {
  for (
    const flags of [["--html", "x"], ["--grid", "nope.yaml"], ["--tolerate-ulps", "abc"], ["--dataset", "d"]]
  ) {
    const result = await runCli(["validate-contracts", ...flags]);
    assertRefused(result, new RegExp(`^deermem-eval validate-contracts: unknown flag ${flags[0]} `));
  }
});

Deno.test("a misspelt flag or command says what was meant", async () => {
  const flag = await runCli(["run-policy", "--ouput-dir", "x"]);
  assertRefused(flag, /^deermem-eval run-policy: unknown flag --ouput-dir \(did you mean --output-dir\?\)$/m);
  const command = await runCli(["reprot", "results/pr4789-reproduction-v1"]);
  assertRefused(command, /^deermem-eval: unknown command "reprot" \(did you mean report\?\)/);
  const value = await runCli(["verify", "--dataset"]);
  assertRefused(value, /^deermem-eval verify: flag --dataset needs a value$/m);
  const extra = await runCli(["verify", "a", "b"]);
  assertRefused(extra, /^deermem-eval verify: unexpected argument\(s\) "b"/);
});

Deno.test("$LONGMEMEVAL_ORACLE_PATH is the dataset of verify and report too", async () => {
  const env = { LONGMEMEVAL_ORACLE_PATH: FIXTURE_DATASET };
  const flags = taskFlags("cli");
  const verify = await runCli(["verify", REFERENCE_QA, ...fixtureProtocolFlags()], { env, flags });
  assertEquals(verify.code, 0, verify.stderr);
  assertMatch(verify.stdout, /^verified: every derivable field re-derived from the dataset/m);
  const report = await runCli(["report", REFERENCE_QA, ...fixtureProtocolFlags()], { env, flags });
  assertEquals(report.code, 0, report.stderr);
  assertMatch(report.stdout, /grade_correct and grade_rule re-derived/);
  const without = await runCli(["verify", REFERENCE_QA, ...fixtureProtocolFlags()], { flags });
  assertMatch(without.stdout, /predictions and grades need --dataset/);
});

Deno.test("report --markdown - writes the Markdown to standard output and no file named -", async () => {
  await withTempDir(async (directory) => {
    const args = ["report", `${GOLDEN}/fixture-run/policy`, "--markdown", "-", ...fixtureProtocolFlags()];
    const result = await runCli(args, { cwd: directory });
    assertEquals(result.code, 0, result.stderr);
    assertMatch(result.stdout, /^# /);
    assertMatch(result.stdout, /\n\| /); // a Markdown table, not the terminal's text
    assertEquals(await entries(directory), []);
    const both = await runCli([...args, "--html", "-"], { cwd: directory });
    assertRefused(both, /only one of --markdown and --html can be -/);
  });
});

Deno.test("every command's help lists exactly the flags it takes", async () => {
  const help = await runCli(["grade-qa", "--help"]);
  assertEquals(help.code, 0, help.stderr);
  const flags = [...help.stdout.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]);
  assertEquals(flags, [
    "--dataset",
    "--output-dir",
    "--policy-module",
    "--policy-time-limit",
    "--protocol",
    "--config",
    "--official-manifest",
    "--synthetic-manifest",
  ]);
  assertMatch(
    unwrap(help.stdout),
    /^Usage: deermem-eval grade-qa \[--dataset PATH\] --output-dir DIR \[--policy-module FILE\.ts\] \[--policy-time-limit SECONDS\] \[protocol flags\]$/m,
  );
});

Deno.test("verify recognises a policy run and verifies it as one, every row recomputed with the dataset", async () => {
  const policy = `${GOLDEN}/fixture-run/policy`;
  const structure = await runCli(["verify", policy, ...fixtureProtocolFlags()]);
  assertEquals(structure.code, 0, structure.stderr);
  assertMatch(structure.stdout, /^✓ summary\.json re-derived byte for byte from the rows$/m);
  assertMatch(structure.stdout, /need --dataset to be recomputed$/m);
  const full = await runCli(["verify", policy, "--dataset", FIXTURE_DATASET, ...fixtureProtocolFlags()]);
  assertEquals(full.code, 0, full.stderr);
  assertMatch(full.stdout, /^✓ policy\.raw\.jsonl recomputed from the dataset byte for byte/m);
});

Deno.test("--policy-time-limit without --policy-module is refused by every command that takes it", async () => {
  for (
    const args of [
      ["verify", `${GOLDEN}/fixture-run/qa`],
      ["report", `${GOLDEN}/fixture-run/qa`],
      ["report"],
      ["explain", "05fdf179", "--dataset", `${GOLDEN}/fixture/longmemeval-fixture.json`],
      ["grade-qa", "--output-dir", "/nonexistent/run"],
    ]
  ) {
    const result = await runCli([...args, "--policy-time-limit", "3", ...fixtureProtocolFlags()]);
    assertRefused(result, /--policy-time-limit is for --policy-module/);
  }
});
