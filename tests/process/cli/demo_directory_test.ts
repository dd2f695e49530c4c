/** The demo's directory is one a user can keep working with: its protocol and dataset are kept in it. */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { runCli, withTempDir } from "../../helpers/cli.ts";

const DEMO_FLAGS = ["--no-prompt", "--allow-read", "--allow-write", "--allow-net=127.0.0.1", "--ignore-env"];

Deno.test("demo --output-dir keeps its protocol as a protocol directory, its dataset, a policy run and a QA run", async () => {
  await withTempDir(async (directory) => {
    const demo = await runCli(["demo", "--output-dir", `${directory}/demo`], { flags: DEMO_FLAGS });
    assertEquals(demo.code, 0, demo.stderr);
    for (
      const name of [
        "protocol/configs/demo-synthetic-v1.yaml",
        "protocol/manifests/demo-official-v1.json",
        "protocol/manifests/synthetic-corrections-demo-v1.json",
        "protocol/prompts/answer-v1.txt",
        "protocol/dataset/demo-longmemeval-shaped.json",
        "policy/run.json",
        "qa_run.json",
        "qa.rows.jsonl",
      ]
    ) {
      assert((await Deno.stat(`${directory}/demo/${name}`)).isFile, name);
    }
    const sweep = await runCli([
      "sweep",
      "--protocol",
      `${directory}/demo/protocol`,
      "--output-dir",
      `${directory}/demo/sweep`,
    ]);
    assertEquals(sweep.code, 0, sweep.stderr);
    const report = await runCli([
      "report",
      `${directory}/demo/sweep`,
      "--protocol",
      `${directory}/demo/protocol`,
    ]);
    assertEquals(report.code, 0, report.stderr);
    const verified = await runCli([
      "verify",
      `${directory}/demo/policy`,
      "--protocol",
      `${directory}/demo/protocol`,
    ]);
    assertMatch(verified.stdout, /^every row recomputed from the pinned dataset byte for byte/m);
  });
});
