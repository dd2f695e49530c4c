// Messages a person can act on: one line saying what is wrong and what to pass.

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { GOLDEN, runCli, withTempDir } from "../../helpers/cli.ts";

/** Refused in one line on standard error, nothing on standard output, exit 2. */
function oneLine(result: { code: number; stdout: string; stderr: string }): string {
  assertEquals([result.code, result.stdout], [2, ""], result.stdout + result.stderr);
  const lines = result.stderr.trimEnd().split("\n");
  assertEquals(lines.length, 1, result.stderr);
  return lines[0];
}

// The fixture's runs were made under the fixture protocol; read here under the embedded one.
for (
  const [command, directory, file] of [
    ["verify", "qa", "qa_run.json"],
    ["report", "qa", "qa_run.json"],
    ["verify", "policy", "run.json"],
    ["report", "policy", "run.json"],
  ] as const
) {
  Deno.test(`${command} of a ${directory} run made under another protocol names the artifact and the flags`, async () => {
    const line = oneLine(await runCli([command, `${GOLDEN}/fixture-run/${directory}`]));
    assert(line.includes(`${directory}/${file}`), line);
    assertMatch(line, /made under another protocol: protocol_id/);
    assertMatch(
      line,
      /pass the protocol files it was made with \(--config\/--official-manifest\/--synthetic-manifest\)$/,
    );
    assert(!line.includes("fresh output directory"), line);
  });
}

Deno.test("verify of a directory that is no run says so in one line, naming what it looked for", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/notes.txt`, "not a run\n");
    const line = oneLine(await runCli(["verify", directory]));
    assertMatch(
      line,
      /is no run directory: it holds none of qa\.rows\.jsonl, qa_run\.json, policy\.raw\.jsonl, sweep\.jsonl$/,
    );
  });
});

Deno.test("explain --output-dir of a policy run says in one line that it reads a QA run's answers", async () => {
  const line = oneLine(await runCli(["explain", "any_case", "--output-dir", `${GOLDEN}/fixture-run/policy`]));
  assertMatch(
    line,
    /policy: is a policy run \(policy\.raw\.jsonl\), and --output-dir reads a QA run's answers: leave it out/,
  );
});
