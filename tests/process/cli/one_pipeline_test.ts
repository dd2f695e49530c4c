/**
 * One pipeline: what run-qa and grade-qa write, verify and report read — the caps derived together
 * (lib/base/read.ts) — and inputs within their caps that once exhausted memory end in one line, fast.
 */

import { GRADED_ROWS_CAP, MIB } from "../../../lib/base/read.ts";
import { QA_OUTPUTS } from "../../../lib/commands/grade_qa.ts";
import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { type CliResult, fixtureProtocolFlags, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET } from "../../helpers/fixture.ts";

const OFFLINE = taskFlags("cli");
const ROW = "responses/05fdf179__confidence.json";

function cli(args: string[]): Promise<CliResult> {
  return runCli(args, { flags: ["--no-prompt", ...OFFLINE.filter((flag) => flag !== "--no-prompt")] });
}

const grade = (d: string) =>
  cli(["grade-qa", "--dataset", FIXTURE_DATASET, "--output-dir", d, ...fixtureProtocolFlags()]);

/** A copy of the reference run with every prediction `bytes` long (valid rows, as run-qa would write them). */
async function runWithAnswers(directory: string, bytes: number): Promise<void> {
  await copyReferenceRun(directory);
  const prediction = "word ".repeat(Math.ceil(bytes / 5)).slice(0, bytes);
  for await (const entry of Deno.readDir(`${directory}/responses`)) {
    const path = `${directory}/responses/${entry.name}`;
    const text = await Deno.readTextFile(path);
    const changed = text.replace(/"prediction": "(?:[^"\\]|\\.)*"/, `"prediction": "${prediction}"`);
    assert(changed !== text);
    await Deno.writeTextFile(path, changed);
  }
}

function oneLine(result: CliResult, fragment: string): void {
  const lines = result.stderr.split("\n").filter((line) => line !== "");
  assertEquals(lines.length, 1, result.stderr);
  assert(!result.stderr.includes("unexpected error"), result.stderr);
  assertStringIncludes(lines[0], fragment);
}

Deno.test("90 answers of 200 kB: grade-qa writes an 18 MB qa.rows.jsonl that verify and report read", async () => {
  await withTempDir(async (directory) => {
    await runWithAnswers(directory, 200_000);
    const graded = await grade(directory);
    assertEquals(graded.code, 0, graded.stderr);
    const size = (await Deno.stat(`${directory}/qa.rows.jsonl`)).size;
    assert(size > 18_000_000 && size <= GRADED_ROWS_CAP, `${size}`);
    const verified = await cli([
      "verify",
      directory,
      "--dataset",
      FIXTURE_DATASET,
      ...fixtureProtocolFlags(),
    ]);
    assertEquals(verified.code, 0, verified.stdout + verified.stderr);
    const report = await cli(["report", directory, ...fixtureProtocolFlags()]);
    assertEquals(report.code, 0, report.stderr);
  });
});

Deno.test("answer rows past the graded rows' total are refused by grade-qa in one line, nothing written", async () => {
  await withTempDir(async (directory) => {
    // 90 rows of 1.5 MB: each within the row cap, together past the 96 MiB qa.rows.jsonl may hold.
    await runWithAnswers(directory, Math.ceil(GRADED_ROWS_CAP / 90) + 16 * 1024);
    const graded = await grade(directory);
    assertEquals(graded.code, 2, graded.stderr);
    oneLine(
      graded,
      `: the run's answer rows total more than ${GRADED_ROWS_CAP / MIB} MiB, the cap of qa.rows.jsonl`,
    );
    for (const name of QA_OUTPUTS) {
      assertEquals(await Deno.stat(`${directory}/${name}`).then(() => true, () => false), false, name);
    }
  });
});

Deno.test("a 16 MiB answer row of [{},{},…] is refused at the value limit, before it is parsed", async () => {
  await withTempDir(async (directory) => {
    await copyReferenceRun(directory);
    await Deno.writeTextFile(`${directory}/${ROW}`, `[${Array(5_592_000).fill("{}").join(",")}]`);
    const started = performance.now();
    const graded = await grade(directory);
    assertEquals(graded.code, 2, graded.stderr);
    oneLine(graded, `${ROW}: not valid JSON: more than 1048576 values, the limit of one document`);
    assert(performance.now() - started < 30_000, "refused before parsing: fast");
  });
});

Deno.test("a --grid of step 0.01 and 200 × 200 half-lives is refused naming its product and the bound", async () => {
  await withTempDir(async (directory) => {
    const days = `[${Array.from({ length: 200 }, (_, index) => index + 1).join(", ")}]`;
    await Deno.writeTextFile(
      `${directory}/grid.yaml`,
      `weights_step: 0.01\nconfirmation_half_life_days: ${days}\naccess_half_life_days: ${days}\n`,
    );
    const args = ["sweep", "--dataset", FIXTURE_DATASET, "--output-dir", `${directory}/out`];
    const swept = await cli([...args, "--grid", `${directory}/grid.yaml`, ...fixtureProtocolFlags()]);
    assertEquals(swept.code, 2, swept.stderr);
    oneLine(
      swept,
      "grid.yaml: the grid has 5151 weight points × 200 × 200 half-lives × 2 × 1 reserve values × 10 capacities = " +
        "4,120,800,000 grid points, more than the 84,000 one sweep evaluates",
    );
  });
});
