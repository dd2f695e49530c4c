import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { verifyPolicyRun } from "../../../lib/verify/policy_run.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { GOLDEN, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";

const FIXTURE_POLICY = `${GOLDEN}/fixture-run/policy`;

async function copyDirectory(from: string, to: string, files: readonly string[]): Promise<void> {
  for (const name of files) await Deno.copyFile(`${from}/${name}`, `${to}/${name}`);
}

const POLICY_FILES = ["policy.raw.jsonl", "summary.json", "run.json"];

Deno.test("verifyPolicyRun names what differs: summary.json, run.json hashes, inconsistent rows", async () => {
  const fixture = await fixtureContracts();
  await withTempDir(async (directory) => {
    await copyDirectory(FIXTURE_POLICY, directory, POLICY_FILES);
    const clean = await verifyPolicyRun(directory, fixture);
    assertEquals(clean.checks.map((check) => check.verdict === "pass"), [true, true, true]);
    assertMatch(clean.proved, /need --dataset/);
    const run = JSON.parse(await Deno.readTextFile(`${directory}/run.json`));
    run.artifacts.config_sha256 = "0".repeat(64);
    await Deno.writeTextFile(`${directory}/run.json`, JSON.stringify(run));
    const raw = await Deno.readTextFile(`${directory}/policy.raw.jsonl`);
    await Deno.writeTextFile(
      `${directory}/policy.raw.jsonl`,
      raw.replace('"support_all_retained": false', '"support_all_retained": true'),
    );
    const tampered = await verifyPolicyRun(directory, fixture);
    const failed = tampered.checks.filter((check) => check.verdict === "fail");
    assertEquals(failed.length, 3);
    assertMatch(failed[0].detail!, /support_all_retained disagrees with kept_fact_ids/);
    // The figures summary.json holds and the rows now give (the file says 0.0, which JSON reads as 0).
    assertEquals(
      failed[1].detail,
      "groups[longmemeval/confirmation_help/confidence/5].support_all_retained: file 0, rows 1; " +
        "groups[longmemeval/confirmation_help/confidence/5].support_all_retained_rate: file 0, rows 0.1",
    );
    assertEquals(failed[2].detail, "differ: artifacts.config_sha256");
  });
});

Deno.test("verifyPolicyRun with the dataset catches a changed score the rows alone cannot", async () => {
  const fixture = await fixtureContracts();
  const prepared = await prepareProtocol(fixture, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  await withTempDir(async (directory) => {
    await copyDirectory(FIXTURE_POLICY, directory, POLICY_FILES);
    const raw = await Deno.readTextFile(`${directory}/policy.raw.jsonl`);
    await Deno.writeTextFile(
      `${directory}/policy.raw.jsonl`,
      raw.replace('"value": 0.94}', '"value": 0.95}'),
    );
    const offline = await verifyPolicyRun(directory, fixture);
    assert(offline.checks.every((check) => check.verdict === "pass"));
    const full = await verifyPolicyRun(directory, fixture, prepared.cases);
    assertEquals(full.checks.map((check) => check.verdict === "pass"), [true, true, true, false]);
  });
});

Deno.test("verifyPolicyRun compares bytes: a BOM before summary.json or policy.raw.jsonl fails its check", async () => {
  const fixture = await fixtureContracts();
  const prepared = await prepareProtocol(fixture, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  for (const file of ["summary.json", "policy.raw.jsonl"]) {
    await withTempDir(async (directory) => {
      await copyDirectory(FIXTURE_POLICY, directory, POLICY_FILES);
      const bytes = await Deno.readFile(`${directory}/${file}`);
      await Deno.writeFile(`${directory}/${file}`, new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]));
      const { checks } = await verifyPolicyRun(directory, fixture, prepared.cases);
      const failed = checks.filter((check) => check.verdict === "fail").map((check) => check.name);
      assert(failed.some((name) => name.startsWith(file)), `${file}: ${failed.join("; ")}`);
      if (file === "summary.json") {
        assertEquals(
          checks.find((check) => check.name.startsWith("summary.json"))?.detail,
          "first difference at byte 0",
        );
      }
    });
  }
});

Deno.test("verifyPolicyRun: support_recall -0.0 (never what run-policy writes) disagrees with the kept facts", async () => {
  const fixture = await fixtureContracts();
  await withTempDir(async (directory) => {
    await copyDirectory(FIXTURE_POLICY, directory, POLICY_FILES);
    const raw = await Deno.readTextFile(`${directory}/policy.raw.jsonl`);
    await Deno.writeTextFile(
      `${directory}/policy.raw.jsonl`,
      raw.replace('"support_recall": 0.0', '"support_recall": -0.0'),
    );
    const { checks } = await verifyPolicyRun(directory, fixture);
    assertMatch(checks[0].detail ?? "", /support_recall disagrees with kept_fact_ids/);
  });
});
