// Every output is checked before anything is read, computed or printed: an existing file refuses the command
// at once, in one line, with nothing on standard output.

import { assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, runCli, withTempDir } from "../../helpers/cli.ts";

/** One line on standard error naming the existing file, nothing on standard output, exit 2. */
function assertRefusedOver(result: { code: number; stdout: string; stderr: string }, path: string): void {
  assertEquals([result.code, result.stdout], [2, ""], result.stderr);
  assertEquals(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
  assertMatch(result.stderr, new RegExp(`${path.replaceAll(".", "\\.")}: refusing to overwrite`));
}

for (const flags of [["--html"], ["--markdown"], ["--json", "--html"], ["--json", "--markdown"]]) {
  Deno.test(`report ${flags.join(" ")} over an existing file prints nothing and refuses`, async () => {
    await withTempDir(async (directory) => {
      const path = `${directory}/r.out`;
      await Deno.writeTextFile(path, "mine\n");
      const result = await runCli(["report", ...flags, path]);
      assertRefusedOver(result, path);
      assertEquals(await Deno.readTextFile(path), "mine\n");
    });
  });
}

// The dataset named does not exist: a command that read it before checking its outputs would say so instead.
const ABSENT_DATASET = "/nonexistent/longmemeval.json";

for (
  const [command, existing] of [["run-policy", "summary.json"], ["sweep", "sweep.json"], [
    "grade-qa",
    "qa.stats.json",
  ]]
) {
  Deno.test(`${command} with an existing ${existing} refuses before reading or computing anything`, async () => {
    await withTempDir(async (directory) => {
      await Deno.writeTextFile(`${directory}/${existing}`, "{}\n");
      const result = await runCli([
        command,
        "--dataset",
        ABSENT_DATASET,
        "--output-dir",
        directory,
        ...fixtureProtocolFlags(),
      ]);
      assertRefusedOver(result, `${directory}/${existing}`);
    });
  });
}
