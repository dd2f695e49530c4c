// Issue 22, item 7: where the reference's verdict differed from ours. The reference (deer-flow's
// deermem_eviction) compares answer rows with Python's == and writes the task's capacity and schema version 1;
// it refuses a take that is not scenarios × cases per type and a scenario's IDs out of order; PyYAML reads an
// escaped surrogate pair as two lone surrogates, which it then cannot write (we refuse at once, one line).

import { QA_OUTPUTS } from "../../../lib/commands/grade_qa.ts";
import type { OfficialManifest } from "../../../lib/protocol/manifest.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, runCli, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, FIXTURE_PROTOCOL, REFERENCE_QA } from "../../helpers/fixture.ts";

const protocolFlags = (replace: { config?: string; official?: string } = {}) => [
  "--config",
  replace.config ?? `${FIXTURE_PROTOCOL}/config.yaml`,
  "--official-manifest",
  replace.official ?? `${FIXTURE_PROTOCOL}/official.json`,
  "--synthetic-manifest",
  `${FIXTURE_PROTOCOL}/synthetic.json`,
];

function assertOneLineRefusal(
  result: { code: number; stdout: string; stderr: string },
  message: RegExp,
): void {
  assertEquals(result.code, 2, result.stdout + result.stderr);
  const lines = result.stderr.split("\n").filter((line) => line !== "");
  assertEquals(lines.length, 1, result.stderr);
  assertMatch(lines[0], message);
  assert(!/PyFloat|TypeError|bigint/.test(result.stderr), result.stderr);
}

Deno.test("grade-qa grades rows with capacity 7.0 and schema_version 1.0 and writes the reference's bytes", async () => {
  await withTempDir(async (directory) => {
    await copyReferenceRun(directory);
    for await (const entry of Deno.readDir(`${directory}/responses`)) {
      const path = `${directory}/responses/${entry.name}`;
      const text = await Deno.readTextFile(path);
      const changed = text.replace('"capacity": 7,', '"capacity": 7.0,').replace(
        '"schema_version": 1,',
        '"schema_version": 1.0,',
      );
      assert(changed !== text, path);
      await Deno.writeTextFile(path, changed);
    }
    const result = await runCli([
      "grade-qa",
      "--dataset",
      FIXTURE_DATASET,
      "--output-dir",
      directory,
      ...fixtureProtocolFlags(),
    ]);
    assertEquals(result.code, 0, result.stderr);
    for (const name of QA_OUTPUTS) {
      assertEquals(
        await Deno.readFile(`${directory}/${name}`),
        await Deno.readFile(`${REFERENCE_QA}/${name}`),
        name,
      );
    }
  });
});

Deno.test("grade-qa refuses a row with attempts 1.0 in one line that names no internal type", async () => {
  await withTempDir(async (directory) => {
    await copyReferenceRun(directory);
    const path = `${directory}/responses/05fdf179__confidence.json`;
    await Deno.writeTextFile(
      path,
      (await Deno.readTextFile(path)).replace('"attempts": 1,', '"attempts": 1.0,'),
    );
    const result = await runCli([
      "grade-qa",
      "--dataset",
      FIXTURE_DATASET,
      "--output-dir",
      directory,
      ...fixtureProtocolFlags(),
    ]);
    assertOneLineRefusal(
      result,
      /05fdf179__confidence\.json: attempts: must be an integer, got the float 1\.0$/,
    );
  });
});

async function editedOfficial(
  directory: string,
  change: (manifest: OfficialManifest) => void,
): Promise<string> {
  const manifest = JSON.parse(await Deno.readTextFile(`${FIXTURE_PROTOCOL}/official.json`));
  change(manifest);
  const path = `${directory}/official.json`;
  await Deno.writeTextFile(path, JSON.stringify(manifest, null, 2) + "\n");
  return path;
}

Deno.test("validate refuses an official manifest whose take is not scenarios × cases per type (21 with 4 × 5)", async () => {
  await withTempDir(async (directory) => {
    const official = await editedOfficial(directory, (m) => (m.selection.take_per_question_type = 21));
    const result = await runCli(["validate", "--dataset", FIXTURE_DATASET, ...protocolFlags({ official })]);
    assertOneLineRefusal(
      result,
      /official\.json: selection\.take_per_question_type: take_per_question_type is 21, but the 4 scenarios × 5 cases per type need 20$/,
    );
  });
});

Deno.test("validate refuses an official manifest with one scenario's IDs permuted", async () => {
  await withTempDir(async (directory) => {
    const official = await editedOfficial(directory, (m) => m.scenarios.access_help.reverse());
    const result = await runCli(["validate", "--dataset", FIXTURE_DATASET, ...protocolFlags({ official })]);
    assertOneLineRefusal(
      result,
      /official\.json: scenarios\.access_help: pinned IDs do not match the declared selection rule: expected /,
    );
  });
});

Deno.test("validate-contracts refuses qa.model spelt as an escaped surrogate pair, naming the file and the field", async () => {
  await withTempDir(async (directory) => {
    const text = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
    const config = `${directory}/config.yaml`;
    const changed = text.replace("model: deepseek-v4-flash", 'model: "\\ud83d\\ude00"');
    assert(changed !== text);
    await Deno.writeTextFile(config, changed);
    const result = await runCli(["validate-contracts", ...protocolFlags({ config })]);
    assertOneLineRefusal(
      result,
      /config\.yaml: qa\.model: an escaped surrogate \(\\ud83d\) is a lone surrogate to PyYAML/,
    );
  });
});
