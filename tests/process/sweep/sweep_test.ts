import { assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { runCli, unwrap, withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts, runOnFixture } from "../../helpers/fixture.ts";
import { writeSweepFiles } from "../../../lib/sweep/mod.ts";
import { PUBLISHED_ONLY } from "../../helpers/grids.ts";

const contracts = await fixtureContracts();

Deno.test("sweep CLI: writes sweep.jsonl and sweep.json, prints the placement, refuses to overwrite", async () => {
  await withTempDir(async (directory) => {
    const gridPath = `${directory}/grid.yaml`;
    await Deno.writeTextFile(gridPath, `${PUBLISHED_ONLY}\nweights_step: 0.05\n`);
    const out = `${directory}/out`;
    const result = await runOnFixture("sweep", out, ["--grid", gridPath]);
    assertEquals(result.code, 0, result.stderr);
    assertMatch(result.stdout, /^sweep: 231 parameter sets × 10 capacities \(1–10\)/);
    assertMatch(
      result.stdout,
      /published hybrid-v1: weights 0\.65\/0\.25\/0\.1, half-lives 90\/30 d, reserve 0\.1 up to 10/,
    );
    assertMatch(unwrap(result.stdout), /at the protocol's capacities 5, 7, 9/);
    const rows = (await Deno.readTextFile(`${out}/sweep.jsonl`)).trimEnd().split("\n");
    assertEquals(rows.length, 231 * 10 * 5);
    const record = JSON.parse(await Deno.readTextFile(`${out}/sweep.json`));
    assertEquals(record.rows, rows.length);
    assertEquals(record.artifacts.config_sha256, contracts.hashes.config);
    assertEquals(record.dataset.sha256, "cd5c2b20057269a69a3308014dc9eb02b94231ff5aa0ca476e10e55483c938d9");
    assertMatch(record.tool, /^deermem-eval \d+\.\d+\.\d+$/);
    assertEquals(record.grid.confirmation_half_life_days, [90]);
    const before = await Deno.readTextFile(`${out}/sweep.json`);
    const again = await runOnFixture("sweep", out, ["--grid", gridPath]);
    assertEquals(again.code, 2);
    assertMatch(again.stderr, /sweep\.jsonl: refusing to overwrite an existing file/);
    assertEquals(await Deno.readTextFile(`${out}/sweep.json`), before);
  });
});

Deno.test("sweep CLI: a bad grid is one line naming the file and field, exit 2, nothing written", async () => {
  await withTempDir(async (directory) => {
    const gridPath = `${directory}/grid.yaml`;
    await Deno.writeTextFile(gridPath, "capacities: [3, 30]\n");
    const result = await runOnFixture("sweep", `${directory}/out`, ["--grid", gridPath]);
    assertEquals(result.code, 2);
    assertEquals(
      result.stderr,
      `deermem-eval sweep: ${gridPath}: capacities.1: must be in [1, 10] (the pool size)\n`,
    );
    const names = [];
    for await (const entry of Deno.readDir(directory)) names.push(entry.name);
    assertEquals(names, ["grid.yaml"]);
  });
});

Deno.test("sweep CLI: with one output already present, nothing is written", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/sweep.json`, "mine\n");
    await Deno.writeTextFile(`${directory}/grid.yaml`, `${PUBLISHED_ONLY}\nweights_step: 0.5\n`);
    const result = await runOnFixture("sweep", directory, ["--grid", `${directory}/grid.yaml`]);
    assertEquals(result.code, 2);
    const names = [];
    for await (const entry of Deno.readDir(directory)) names.push(entry.name);
    assertEquals(names.sort(), ["grid.yaml", "sweep.json"]);
    assertEquals(await Deno.readTextFile(`${directory}/sweep.json`), "mine\n");
  });
});

Deno.test("writeSweepFiles: a failure while streaming the rows leaves no file behind", async () => {
  await withTempDir(async (directory) => {
    function* failing() {
      yield '{"capacity": 1}\n';
      throw new Error("disk gone");
    }
    await assertRejects(
      () => writeSweepFiles(directory, { "sweep.jsonl": failing(), "sweep.json": "{}\n" }),
      Error,
      "disk gone",
    );
    const names = [];
    for await (const entry of Deno.readDir(directory)) names.push(entry.name);
    assertEquals(names, []);
  });
});

Deno.test("sweep --help documents the default grid and the grid file", async () => {
  const help = await runCli(["sweep", "--help"]);
  assertEquals(help.code, 0, help.stderr);
  assertMatch(help.stdout, /^Usage: deermem-eval sweep \[--dataset PATH\] --output-dir DIR \[--grid FILE\]/);
  assertMatch(help.stdout, /weights_step: 0\.05/);
});
