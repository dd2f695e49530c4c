/** Odd files are refused, never waited on: a FIFO where a results file should be ends verify with one line. */

import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { ROOT, runCli, withTempDir } from "../helpers/cli.ts";

Deno.test("a FIFO in a results directory ends verify at once with one line naming it, exit 2", async () => {
  await withTempDir(async (directory) => {
    for (const name of ["qa.rows.jsonl", "qa.stats.json", "qa_run.json"]) {
      await Deno.copyFile(`${ROOT}results/pr4789-reproduction-v1/${name}`, `${directory}/${name}`);
    }
    assert((await new Deno.Command("mkfifo", { args: [`${directory}/qa.summary.json`] }).output()).success);
    const result = await runCli(["verify", directory]);
    assertEquals(result.code, 2, result.stdout + result.stderr);
    assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
    assertMatch(
      result.stderr,
      /qa\.summary\.json: qa\.summary\.json is a FIFO or socket, not a regular file\n$/,
    );
  });
});
