/** The demo's directory is one a user can keep working with: every offline command it suggests runs on it. */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { runCli, withTempDir } from "../helpers/cli.ts";

Deno.test("demo --output-dir keeps its protocol and dataset, and every next command it prints succeeds", async () => {
  await withTempDir(async (directory) => {
    const demo = await runCli(["demo", "--output-dir", `${directory}/demo`]);
    assertEquals(demo.code, 0, demo.stderr);
    // A command wider than the output is wrapped as the shell reads it: `\` ends each continued line.
    const next = demo.stdout.replace(/ \\\n +/g, " ").split("\n").filter((line) =>
      line.startsWith("  deermem-eval ")
    );
    assertEquals(next.map((line) => line.split(" ")[3]), ["report", "verify", "explain", "sweep", "run-qa"]);
    for (const line of next) {
      const result = await runCli(line.trim().split(" ").slice(1));
      assertEquals(result.code, 0, `${line}\n${result.stderr}`);
    }
    const sweep = await runCli(["report", `${directory}/demo/sweep`]);
    assertEquals(sweep.code, 0, sweep.stderr);
    const verified = await runCli(next[1].trim().split(" ").slice(1));
    assertMatch(verified.stdout, /^every row recomputed from the pinned dataset byte for byte/m);
    for (const name of ["config.yaml", "official.json", "synthetic.json", "dataset.json"]) {
      assert((await Deno.stat(`${directory}/demo/protocol/${name}`)).isFile, name);
    }
  });
});
