/**
 * Run directories know their protocol: the demo keeps its protocol (and dataset) in DIR/protocol, where report,
 * verify and explain find it; elsewhere `--protocol DIR` names a protocol directory instead of three files. A
 * protocol found is held to the hashes the run recorded.
 */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { ROOT, runCli, withTempDir } from "../../helpers/cli.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";
import { loadAllCommands } from "../../../lib/commands/mod.ts";
import { copyTree, sharedFixture } from "../../helpers/shared.ts";
import { writeSmallGrid } from "../../helpers/grids.ts";

const STAND_IN_FLAGS = [
  "--no-prompt",
  "--allow-read",
  "--allow-write",
  "--allow-net=127.0.0.1",
  "--ignore-env",
];

function assertOneLine(result: { code: number; stderr: string }, pattern: RegExp): void {
  assertEquals(result.code, 2, result.stderr);
  assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
  assertMatch(result.stderr, pattern);
}

async function demoDirectory(directory: string): Promise<{ dir: string; stdout: string }> {
  const dir = `${directory}/demo`;
  const demo = await runCli(["demo", "--output-dir", dir], { flags: STAND_IN_FLAGS });
  assertEquals(demo.code, 0, demo.stderr);
  return { dir, stdout: demo.stdout };
}

/** One demo this file's tests share: each test takes its own copy (the demo keeps no path of its own). */
const sharedDemo = sharedFixture(demoDirectory);

/** A copy of the shared demo at `directory`/demo. */
async function demoCopy(directory: string): Promise<string> {
  await copyTree((await sharedDemo()).dir, `${directory}/demo`);
  return `${directory}/demo`;
}

Deno.test("report DEMO_DIR, verify DEMO_DIR and explain CASE --output-dir DEMO_DIR need no other flag", async () => {
  await withTempDir(async (directory) => {
    const dir = await demoCopy(directory);
    const report = await runCli(["report", dir]);
    assertEquals(report.code, 0, report.stderr);
    const verify = await runCli(["verify", dir]);
    assertEquals(verify.code, 0, verify.stderr);
    // The kept dataset is found too: every row is re-derived, not only the structure.
    assertMatch(verify.stdout, /re-derived|recomputed/);
    const row = (await Deno.readTextFile(`${dir}/qa.rows.jsonl`)).split("\n")[0];
    const caseId = JSON.parse(row).case_id;
    const explain = await runCli(["explain", caseId, "--output-dir", dir]);
    assertEquals(explain.code, 0, explain.stderr);
    assertMatch(explain.stdout, new RegExp(caseId));
  });
});

Deno.test("a tampered kept config is refused in one line naming it, by report, verify and explain", async () => {
  await withTempDir(async (directory) => {
    const dir = await demoCopy(directory);
    const config = `${dir}/protocol/configs/demo-synthetic-v1.yaml`;
    await Deno.writeTextFile(config, "# edited\n", { append: true }); // still valid YAML, another SHA-256
    for (const args of [["report", dir], ["verify", dir], ["explain", "x", "--output-dir", dir]]) {
      const result = await runCli(args);
      assertOneLine(
        result,
        new RegExp(
          `^deermem-eval ${
            args[0]
          }: ${config}: SHA-256 [0-9a-f]{64} differs from .*qa_run\\.json artifacts\\.config_sha256`,
        ),
      );
      assertEquals(result.stdout, "");
    }
  });
});

/** One invocation per command that takes protocol flags, each on `--protocol P` alone (T: a scratch folder). */
const ON_PROTOCOL: Record<string, (p: string, t: string) => string[]> = {
  "validate-contracts": (p) => ["validate-contracts", "--protocol", p],
  validate: (p) => ["validate", "--protocol", p],
  "run-policy": (p, t) => ["run-policy", "--protocol", p, "--output-dir", `${t}/policy`],
  sweep: (p, t) => ["sweep", "--protocol", p, "--output-dir", `${t}/sweep`, "--grid", `${t}/grid.yaml`],
  "run-qa": (p, t) => ["run-qa", "--stand-in", "--protocol", p, "--output-dir", `${t}/qa`],
  "grade-qa": (p, t) => ["grade-qa", "--protocol", p, "--output-dir", `${t}/qa`],
  verify: (p, t) => ["verify", `${t}/qa`, "--protocol", p],
  plan: (p, t) => ["plan", `${t}/qa`, "--protocol", p, "--effect", "0.01"],
  report: (p, t) => ["report", `${t}/policy`, "--protocol", p],
  explain: (p, t) => ["explain", "08d12dfd", "--protocol", p, "--output-dir", `${t}/qa`],
};

Deno.test("--protocol DIR works for every command that takes protocol flags", async () => {
  const commands = await loadAllCommands();
  const withFiles = commands.filter((command) => "config" in command.flags).map((command) => command.name);
  const withDir = commands.filter((command) => "protocol" in command.flags).map((command) => command.name);
  assertEquals(withDir, withFiles);
  assertEquals(Object.keys(ON_PROTOCOL).sort(), [...withDir].sort());
  await withTempDir(async (directory) => {
    const protocol = `${directory}/protocol`;
    await writeDemoProtocol(protocol, await buildDemoProtocol());
    await writeSmallGrid(`${directory}/grid.yaml`); // the flag under test is --protocol, not the grid
    for (const name of Object.keys(ON_PROTOCOL)) {
      const args = ON_PROTOCOL[name](protocol, directory);
      const result = await runCli(args, { flags: name === "run-qa" ? STAND_IN_FLAGS : undefined });
      assertEquals(result.code, 0, `${args.join(" ")}\n${result.stderr}`);
    }
    const verify = await runCli(["verify", `${directory}/policy`, "--protocol", protocol]);
    assertMatch(verify.stdout, /^every row recomputed from the pinned dataset byte for byte/m);
  });
});

Deno.test("--protocol with a file flag, or a directory that is not laid out as one, is refused in one line", async () => {
  await withTempDir(async (directory) => {
    const both = await runCli([
      "validate-contracts",
      "--protocol",
      ROOT,
      "--config",
      `${ROOT}configs/x.yaml`,
    ]);
    assertOneLine(both, /--protocol DIR names the config and both manifests; give it or --config/);
    const empty = await runCli(["validate-contracts", "--protocol", directory]);
    assertOneLine(empty, new RegExp(`${directory}: a protocol directory needs configs/`));
    // This repository is a protocol directory: its own files, as embedded.
    const repo = await runCli(["validate-contracts", "--protocol", ROOT]);
    assertEquals(repo.code, 0, repo.stderr);
    assertEquals(repo.stdout, "validated 40 official and 5 synthetic cases\n");
  });
});

Deno.test("the demo's printed next commands run as printed in the checkout and exit 0", async () => {
  await withTempDir(async (directory) => {
    const { stdout } = await demoDirectory(directory);
    const next = stdout.replace(/ \\\n +/g, " ").split("\n").filter((line) => line.startsWith("  deno task "))
      .map((line) => line.trim());
    assert(next.length >= 5, stdout);
    assert(!/^ {2}deermem-eval /m.test(stdout), "no command names a program that is not on PATH");
    for (const line of next) {
      const words = line.split(" ");
      const result = await new Deno.Command(words[0], {
        args: words.slice(1),
        cwd: ROOT,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(result.code, 0, `${line}\n${new TextDecoder().decode(result.stderr)}`);
    }
  });
});

Deno.test("every report of demo data says SYNTHETIC in its first lines: text, Markdown, HTML, JSON, policy run, sweep", async () => {
  await withTempDir(async (directory) => {
    const dir = await demoCopy(directory);
    const protocol = ["--protocol", `${dir}/protocol`];
    const grid = await writeSmallGrid(`${directory}/grid.yaml`); // any sweep of demo data says it
    const sweep = await runCli(["sweep", ...protocol, "--output-dir", `${dir}/sweep`, "--grid", grid]);
    assertEquals(sweep.code, 0, sweep.stderr);
    const reports: [string, string[]][] = [
      ["text", ["report", dir]],
      ["markdown", ["report", dir, "--markdown", "-"]],
      ["html", ["report", dir, "--html", "-"]],
      ["json", ["report", dir, "--json"]],
      ["policy", ["report", `${dir}/policy`, ...protocol]],
      ["sweep", ["report", `${dir}/sweep`, ...protocol]],
    ];
    for (const [name, args] of reports) {
      const result = await runCli(args);
      assertEquals(result.code, 0, `${name}: ${result.stderr}`);
      const opening = result.stdout.split("\n").slice(0, name === "html" ? 40 : 3).join("\n");
      assertMatch(opening, /SYNTHETIC/, `${name}: ${opening}`);
    }
    // The embedded published run is not demo data, and says nothing of the kind.
    const published = await runCli(["report"]);
    assert(!published.stdout.includes("SYNTHETIC"));
  });
});
