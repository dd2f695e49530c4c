/**
 * The single-file build: `deno bundle` of the CLI's entry point runs with nothing beside it — no node_modules, no
 * protocol files — which is what `deno compile` embeds (its `denort` base cannot be downloaded here).
 */

import denoConfig from "../deno.json" with { type: "json" };
import { assertEquals, assertMatch } from "./helpers/assert.ts";
import { fixtureProtocolFlags, ROOT, taskFlags, withTempDir } from "./helpers/cli.ts";
import { FIXTURE_DATASET } from "./helpers/fixture.ts";

async function run(args: string[], cwd: string) {
  const output = await new Deno.Command(Deno.execPath(), { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

Deno.test("the bundled CLI runs alone in an empty directory with the tasks' permissions", async () => {
  await withTempDir(async (directory) => {
    const task = denoConfig.tasks.bundle.split(/\s+/);
    const bundle = `${directory}/deermem-eval.js`;
    const args = task.slice(1).map((word) => word === "dist/deermem-eval.js" ? bundle : word);
    const built = await run(args, ROOT);
    assertEquals(built.code, 0, built.stderr);

    const contracts = await run(["run", ...taskFlags("cli"), bundle, "validate-contracts"], directory);
    assertEquals(contracts.code, 0, contracts.stderr);
    assertEquals(contracts.stdout, "validated 40 official and 5 synthetic cases\n");

    const dryRun = await run(
      [
        "run",
        ...taskFlags("run-qa"),
        bundle,
        "run-qa",
        "--dry-run",
        "--dataset",
        FIXTURE_DATASET,
        ...fixtureProtocolFlags(),
      ],
      directory,
    );
    assertEquals(dryRun.code, 0, dryRun.stderr);
    assertMatch(
      dryRun.stdout,
      /^dry run: 90 tasks, \d+ characters of messages, 90 call\(s\) needed; nothing called$/m,
    );
  });
});
