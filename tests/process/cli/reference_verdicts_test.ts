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

Deno.test("validate refuses a dataset that begins with a UTF-8 BOM, in Python's words, naming the file", async () => {
  await withTempDir(async (directory) => {
    const bytes = await Deno.readFile(FIXTURE_DATASET);
    const dataset = `${directory}/longmemeval-fixture.json`;
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    await Deno.writeFile(dataset, withBom);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", withBom));
    const sha256 = [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    const text = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
    const config = `${directory}/config.yaml`;
    const changed = text.replace(/sha256: cd5c2b2[0-9a-f]+/, `sha256: ${sha256}`);
    assert(changed !== text);
    await Deno.writeTextFile(config, changed);
    const result = await runCli(["validate", "--dataset", dataset, ...protocolFlags({ config })]);
    assertOneLineRefusal(
      result,
      /longmemeval-fixture\.json: .*Unexpected UTF-8 BOM \(decode using utf-8-sig\)$/,
    );
  });
});

for (
  const [where, from, to] of [
    ["statistics.bootstrap_seed", "bootstrap_seed: 4789", "bootstrap_seed: 1"],
    ["pool.size", "size: 10", "size: 1"],
  ] as const
) {
  Deno.test(`validate-contracts refuses an integer of over 4,300 digits in ${where} as Python's int() does, naming the file and field`, async () => {
    await withTempDir(async (directory) => {
      const text = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
      const config = `${directory}/config.yaml`;
      for (const [digits, underscores] of [[4301, false], [4301, true]] as const) {
        const value = `${to}${"0".repeat(digits - 1)}`;
        const spelt = underscores ? value.replace(/(\d)(\d)/, "$1_$2") : value;
        const changed = text.replace(from, spelt);
        assert(changed !== text);
        await Deno.writeTextFile(config, changed);
        const result = await runCli(["validate-contracts", ...protocolFlags({ config })]);
        assertOneLineRefusal(
          result,
          new RegExp(
            `config\\.yaml: ${
              where.replace(".", "\\.")
            }: .*Exceeds the limit \\(4300 digits\\) for integer string conversion`,
          ),
        );
      }
    });
  });
}

Deno.test("validate-contracts takes a bootstrap_seed of exactly 4,300 digits, as Python's int() does", async () => {
  await withTempDir(async (directory) => {
    const text = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
    const config = `${directory}/config.yaml`;
    await Deno.writeTextFile(
      config,
      text.replace("bootstrap_seed: 4789", `bootstrap_seed: 1${"0".repeat(4299)}`),
    );
    const result = await runCli(["validate-contracts", ...protocolFlags({ config })]);
    assertEquals(result.stderr.includes("Exceeds the limit"), false, result.stderr);
  });
});
