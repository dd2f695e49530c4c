/**
 * `report --json` and `verify --json` of every kind of run validate against the shipped JSON Schemas
 * (schemas/report.schema.json, schemas/verify.schema.json), by an independent JSON Schema check and by zod's own
 * parse of the program's schemas: the demo's QA run and its policy run, a sweep, the published run, a partial
 * run and a module policy run.
 */

import { assertEquals } from "../../helpers/assert.ts";
import {
  type CliResult,
  fixtureProtocolFlags,
  ROOT,
  runCli,
  taskFlags,
  withTempDir,
} from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";
import { documentProblems } from "../../helpers/json_schema.ts";

const CLI = { flags: taskFlags("cli") };
const RECENCY = `${ROOT}tests/fixtures/policies/recency.ts`;

async function made(result: Promise<CliResult>): Promise<void> {
  const ran = await result;
  assertEquals(ran.code, 0, ran.stderr);
}

Deno.test("report --json and verify --json of each run kind validate against the shipped schemas", async () => {
  await withTempDir(async (directory) => {
    const demo = `${directory}/demo`;
    await made(runCli(["demo", "--output-dir", demo], { flags: taskFlags("demo") }));
    const demoProtocol = ["--protocol", `${demo}/protocol`];
    const partial = `${directory}/partial`;
    await made(runCli(["run-qa", "--stand-in", ...demoProtocol, "--output-dir", partial, "--limit", "10"], {
      flags: taskFlags("run-qa"),
    }));
    await made(runCli(["grade-qa", ...demoProtocol, "--output-dir", partial], CLI));
    const onFixture = ["--dataset", FIXTURE_DATASET, ...fixtureProtocolFlags()];
    const module = ["--policy-module", RECENCY];
    await made(
      runCli(["run-policy", ...onFixture, "--output-dir", `${directory}/module-policy`, ...module], CLI),
    );
    const grid = `${directory}/grid.yaml`;
    await Deno.writeTextFile(
      grid,
      "weights_step: 0.5\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\n" +
        "correction_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7]\n",
    );
    await made(runCli(["sweep", ...onFixture, "--output-dir", `${directory}/sweep`, "--grid", grid], CLI));

    const runs: [string, string[]][] = [
      ["demo QA run", [demo]],
      ["demo policy run", [`${demo}/policy`, ...demoProtocol]],
      ["sweep", [`${directory}/sweep`, ...fixtureProtocolFlags()]],
      ["sweep with the dataset", [`${directory}/sweep`, ...onFixture]],
      ["published run", []],
      ["partial run", [partial, ...demoProtocol]],
      ["module policy run", [`${directory}/module-policy`, ...onFixture, ...module]],
    ];
    const problems: string[] = [];
    for (const [name, args] of runs) {
      for (const which of ["report", "verify"] as const) {
        const result = await runCli([which, ...args, "--json"], CLI);
        if (result.code !== 0) {
          problems.push(`${name} × ${which} --json: exit ${result.code}: ${result.stderr}`);
          continue;
        }
        const found = documentProblems(which, JSON.parse(result.stdout));
        problems.push(...found.map((problem) => `${name} × ${which} --json: ${problem}`));
      }
    }
    assertEquals(problems, []);
  });
});
