/** `plan` on the published run as a user types it: the figures, its refusals and a run that does not verify. */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { copyDirectory, PUBLISHED, QA_FILES } from "../../helpers/published.ts";
import { exactPower } from "../../../lib/qa/grade/power.ts";
import { EPOCHS_FILE, epochsRecordJson } from "../../../lib/qa/run/epochs.ts";
import { prepareDataset, readContracts, readProtocolDirectory } from "../../../lib/protocol/mod.ts";

const CLI = taskFlags("cli");

Deno.test("plan RUN --effect 0.10 --json: 40 cases, discordance 0.35, 289 needed, power as enumerated", async () => {
  const { code, stdout, stderr } = await runCli(["plan", PUBLISHED, "--effect", "0.10", "--json"], {
    flags: CLI,
  });
  assertEquals([code, stderr], [0, ""]);
  const plan = JSON.parse(stdout);
  assertEquals(Object.keys(plan), [
    "cases",
    "discordance",
    "power_at_cases",
    "cases_needed",
    "mde",
    "eligible_upper_bound",
  ]);
  // The pinned dataset's public counts: 72 knowledge-update + 127 temporal-reasoning non-abstention questions.
  assertEquals([plan.cases, plan.discordance, plan.cases_needed, plan.eligible_upper_bound], [
    40,
    0.35,
    289,
    199,
  ]);
  assert(Math.abs(plan.power_at_cases - exactPower(40, 0.1, { discordance: 0.35, alpha: 0.05 })) < 0.005);
});

Deno.test("plan's text at +0.10 and +0.30, and the cost with prices and epochs", async () => {
  const small = await runCli(["plan", PUBLISHED, "--effect", "0.10"], { flags: CLI });
  assertEquals(small.code, 0, small.stderr);
  assertEquals(small.stdout.split("\n").slice(0, 4), [
    "longmemeval: 40 cases, 14 discordant (discordance 0.350)",
    "exact McNemar power at 40 cases for +0.100 (alpha 0.05): 0.123",
    "cases needed for 80% power at +0.100: 289",
    "minimum detectable effect at 40 cases (80% power): +0.263",
  ]);
  assert(
    small.stdout.replace(/\s+/g, " ").includes(
      "289 cases exceed what the pinned dataset can give: at most 199 official cases are eligible",
    ) && small.stdout.replace(/\s+/g, " ").includes("--dataset PATH gives the exact count"),
    small.stdout,
  );
  const large = await runCli(["plan", PUBLISHED, "--effect", "0.30"], { flags: CLI });
  assert(
    large.stdout.includes("exact McNemar power at 40 cases for +0.300 (alpha 0.05): 0.929"),
    large.stdout,
  );
  const priced = await runCli(
    [
      "plan",
      PUBLISHED,
      "--effect",
      "0.3",
      "--price-input",
      "1",
      "--price-output",
      "2",
      "--epochs",
      "2",
      "--json",
    ],
    { flags: CLI },
  );
  const { cost_usd } = JSON.parse(priced.stdout);
  // The run's recorded prompt tokens, read here apart from the command: the mean over the official rows.
  const rows = (await Deno.readTextFile(`${PUBLISHED}/qa.rows.jsonl`)).trim().split("\n").map((line) =>
    JSON.parse(line)
  ).filter((row) => row.source === "longmemeval");
  const prompt = rows.reduce((sum, row) => sum + row.usage.prompt_tokens, 0) / rows.length;
  const expected = 30 * 2 * 2 * (prompt * 1 + 2048 * 2) / 1e6;
  assert(Math.abs(cost_usd - expected) < 1e-9, `${cost_usd} vs ${expected}`);
});

Deno.test("plan refuses an effect above the discordance in one line, exit 2, and a run that does not verify, exit 1", async () => {
  const above = await runCli(["plan", PUBLISHED, "--effect", "0.5"], { flags: CLI });
  assertEquals([above.code, above.stdout], [2, ""]);
  assertEquals(above.stderr.trim().split("\n").length, 1);
  assert(above.stderr.includes("--effect: expected at most the run's discordance 0.350"), above.stderr);
  const missing = await runCli(["plan", PUBLISHED], { flags: CLI });
  assertEquals(missing.code, 2, missing.stderr);
  await withTempDir(async (directory) => {
    await copyDirectory(PUBLISHED, directory, QA_FILES);
    const stats = `${directory}/qa.stats.json`;
    await Deno.writeTextFile(stats, (await Deno.readTextFile(stats)).replace('"cases": 40', '"cases": 41'));
    const changed = await runCli(["plan", directory, "--effect", "0.1"], { flags: CLI });
    assertEquals([changed.code, changed.stdout], [1, ""]);
    assert(changed.stderr.includes("does not verify"), changed.stderr);
  });
});

Deno.test("plan on the demo's run counts the eligible cases of the demo's own dataset and says 289 exceed them", async () => {
  await withTempDir(async (directory) => {
    const demo = await runCli(["demo", "--output-dir", `${directory}/demo`], { flags: taskFlags("demo") });
    assertEquals(demo.code, 0, demo.stderr);
    const protocol = `${directory}/demo/protocol`;
    const { contracts, dataset } = await readProtocolDirectory(protocol);
    const prepared = await prepareDataset(await readContracts(contracts), dataset);
    assert(prepared.eligible.total >= 150, `${prepared.eligible.total}`);
    const small = await runCli(["plan", `${directory}/demo`, "--effect", "0.1"], { flags: CLI });
    assertEquals(small.code, 0, small.stderr);
    assert(
      small.stdout.includes(
        `289 cases exceed the ${prepared.eligible.total} official cases the selection rule finds eligible`,
      ),
      small.stdout,
    );
    const json = await runCli(["plan", `${directory}/demo`, "--effect", "0.1", "--json"], { flags: CLI });
    const document = JSON.parse(json.stdout);
    assertEquals([document.eligible, document.eligible_upper_bound], [prepared.eligible.total, undefined]);
  });
});

Deno.test("plan on a K-run directory says its discordance is run 1's, in the text and the JSON", async () => {
  await withTempDir(async (directory) => {
    const run = `${directory}/k2`;
    await Deno.mkdir(`${run}/epoch-2`, { recursive: true });
    await copyDirectory(PUBLISHED, run, QA_FILES);
    await copyDirectory(PUBLISHED, `${run}/epoch-2`, QA_FILES);
    await Deno.writeTextFile(`${run}/${EPOCHS_FILE}`, epochsRecordJson(2));
    const text = await runCli(["plan", run, "--effect", "0.10"], { flags: CLI });
    assertEquals(text.code, 0, text.stderr);
    const lines = text.stdout.split("\n");
    assertEquals(
      lines[0],
      "longmemeval: 40 cases, 14 discordant (discordance 0.350) in run 1 of the directory's 2 runs",
    );
    const json = await runCli(["plan", run, "--effect", "0.10", "--json"], { flags: CLI });
    assertEquals(json.code, 0, json.stderr);
    assertEquals(JSON.parse(json.stdout).discordance_of_run, { run: 1, of: 2 });
    const one = await runCli(["plan", PUBLISHED, "--effect", "0.10", "--json"], { flags: CLI });
    assertEquals(JSON.parse(one.stdout).discordance_of_run, undefined);
  });
});
