/**
 * `verify` reads a complete run's `responses/`: each graded row's answer must be the one recorded there, so an
 * answer edited after grading fails verify (one line naming the response file and field), in a one-run directory
 * in run r of a K-run directory, and in a partial grading (`DIR/partial/`).
 */

import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { answerServer, runQa } from "../../helpers/qa_runs.ts";
import { fixtureProtocolFlags, runCli, taskFlags, unwrap, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";

const CLI = taskFlags("cli");
const offline = (args: string[]) =>
  runCli([...args, "--dataset", FIXTURE_DATASET, ...fixtureProtocolFlags()], { flags: CLI });

/** Edits one byte of the first response's prediction; returns its path. */
async function forgeOneAnswer(directory: string): Promise<string> {
  const [name] = [...Deno.readDirSync(`${directory}/responses`)].map((entry) => entry.name)
    .filter((name) => name.endsWith(".json")).sort();
  const path = `${directory}/responses/${name}`;
  const text = await Deno.readTextFile(path);
  const forged = text.replace(
    /"prediction": "(.)/,
    (_, first) => `"prediction": "${first === "X" ? "Y" : "X"}`,
  );
  assert(forged !== text && forged.length === text.length);
  await Deno.writeTextFile(path, forged);
  return path;
}

function assertCaught(result: { code: number; stdout: string }, path: string): void {
  assertEquals(result.code, 1, result.stdout);
  const failed = unwrap(result.stdout).split("\n").filter((line) => line.startsWith("✗"));
  assertEquals(failed.length, 1, result.stdout);
  assertStringIncludes(failed[0], path);
  assertStringIncludes(failed[0], "prediction");
  assertStringIncludes(result.stdout, "NOT verified");
}

Deno.test("verify: an answer edited in responses/ after grading fails, naming the response file and field", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const run = `${directory}/g`;
      assertEquals((await runQa(run, server.url, [])).code, 0);
      assertEquals((await offline(["grade-qa", "--output-dir", run])).code, 0);
      const before = await offline(["verify", run]);
      assertEquals(before.code, 0, before.stdout + before.stderr);
      assertStringIncludes(
        unwrap(before.stdout),
        "✓ responses/: every graded row's answer is the one recorded",
      );
      const path = await forgeOneAnswer(run);
      assertCaught(await offline(["verify", run]), path);
      const json = await offline(["verify", run, "--json"]);
      assertEquals(json.code, 1, json.stdout);
      assertEquals(JSON.parse(json.stdout).ok, false);
    });
  } finally {
    await server.close();
  }
});

Deno.test("verify: an answer edited in run 2's responses/ of a K-run directory fails, naming the file and field", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const run = `${directory}/k`;
      assertEquals((await runQa(run, server.url, ["--epochs", "2"])).code, 0);
      assertEquals((await offline(["grade-qa", "--output-dir", run])).code, 0);
      assertEquals((await offline(["verify", run])).code, 0);
      const path = await forgeOneAnswer(`${run}/epoch-2`);
      assertCaught(await offline(["verify", run]), path);
    });
  } finally {
    await server.close();
  }
});

Deno.test("verify: a partial grading's row whose answer differs from its responses/ file fails, naming the file and field", async () => {
  await withTempDir(async (directory) => {
    const protocol = ["--protocol", `${directory}/protocol`];
    await writeDemoProtocol(`${directory}/protocol`, await buildDemoProtocol());
    const run = `${directory}/run`;
    const limited = await runCli(["run-qa", "--stand-in", ...protocol, "--output-dir", run, "--limit", "4"], {
      flags: taskFlags("run-qa"),
    });
    assertEquals(limited.code, 0, limited.stderr);
    assertEquals((await runCli(["grade-qa", ...protocol, "--output-dir", run], { flags: CLI })).code, 0);
    const before = await runCli(["verify", run, ...protocol], { flags: CLI });
    assertEquals(before.code, 0, before.stdout + before.stderr);
    assertStringIncludes(
      unwrap(before.stdout),
      "✓ responses/: every graded row's answer is the one recorded",
    );
    // The graded row's answer edited, its grade unchanged: the response files keep their recorded SHA-256.
    const rowsPath = `${run}/partial/qa.rows.jsonl`;
    const [first, ...rest] = (await Deno.readTextFile(rowsPath)).split("\n");
    const forged = first.replace(/"prediction": "(.)/, (_, c) => `"prediction": "${c === "X" ? "Y" : "X"}`);
    assert(forged !== first);
    await Deno.writeTextFile(rowsPath, [forged, ...rest].join("\n"));
    const rowId = JSON.parse(first).row_id;
    assertCaught(await runCli(["verify", run, ...protocol], { flags: CLI }), `responses/${rowId}.json`);
  });
});
