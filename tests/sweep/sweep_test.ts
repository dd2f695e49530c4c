import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "../helpers/assert.ts";
import { GOLDEN, runCli, withTempDir } from "../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts, runOnFixture } from "../helpers/fixture.ts";
import { embeddedArtifact } from "../../lib/protocol/contracts.ts";
import { parseConfig } from "../../lib/protocol/config.ts";
import { InputError } from "../../lib/base/errors.ts";
import { evaluateTrusted, hybridPolicy } from "../../lib/policy/mod.ts";
import { buildPool } from "../../lib/protocol/pool.ts";
import { dumps, PyFloat } from "../../lib/py/json.ts";
import { prepareProtocol } from "../../lib/protocol/prepare.ts";
import {
  defaultGrid,
  parametersAt,
  parseGrid,
  placePublished,
  runSweep,
  shortfallsAt,
  simplexWeights,
  type SweepGrid,
  sweepJsonl,
  type SweepResult,
  sweepSummaryLines,
  writeSweepFiles,
} from "../../lib/sweep/sweep.ts";

const contracts = await fixtureContracts();
const { config } = contracts;
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
const PUBLISHED_ONLY = [
  "confirmation_half_life_days: [90]",
  "access_half_life_days: [30]",
  "correction_reserved_fraction: [0.1]",
  "correction_reserved_max: [10]",
].join("\n");

Deno.test("sweep at the published parameters reproduces exactly the retention counts run-policy writes", () => {
  for (const grid of [defaultGrid(config), parseGrid(PUBLISHED_ONLY, "grid.yaml", config)]) {
    const result = runSweep(protocol, grid);
    assert(result.published >= 0, "the published parameters are on the grid");
    const summary = JSON.parse(Deno.readTextFileSync(`${GOLDEN}/fixture-run/policy/summary.json`));
    assertEquals(summary.groups.length, 5 * 3 * 2);
    for (const row of summary.groups) {
      const capacityIndex = grid.capacities.indexOf(row.capacity);
      const group = result.groups.findIndex((g) => g.scenario === row.scenario && g.source === row.source);
      const groupCount = result.groups.length;
      const ours = row.policy === "confidence"
        ? result.confidence[capacityIndex * groupCount + group]
        : result.hybrid[(result.published * grid.capacities.length + capacityIndex) * groupCount + group];
      assertEquals([row.policy, row.capacity, row.scenario, ours], [
        row.policy,
        row.capacity,
        row.scenario,
        row.support_all_retained,
      ]);
      assertEquals(result.groups[group].cases, row.cases);
    }
  }
});

Deno.test("sweep asks the selector once per distinct decision and counts what one call per point and case would", () => {
  const grid = parseGrid(
    [
      "weights_step: 0.25",
      "confirmation_half_life_days: [7, 90]",
      "access_half_life_days: [30]",
      "correction_reserved_fraction: [0, 0.5]",
      "correction_reserved_max: [1, 10]",
    ].join("\n"),
    "grid.yaml",
    config,
  );
  const result = runSweep(protocol, grid);
  assertEquals(result.parameterSets, 15 * 2 * 1 * 2 * 2);
  const groupCount = result.groups.length;
  const expected = new Uint16Array(result.hybrid.length);
  const pools = protocol.cases.map((prepared) => buildPool(prepared, config.evaluation_time));
  for (let set = 0; set < result.parameterSets; set++) {
    const policy = hybridPolicy(parametersAt(grid, set));
    grid.capacities.forEach((capacity, capacityIndex) => {
      protocol.cases.forEach((prepared, caseIndex) => {
        const group = result.groups.findIndex((g) => g.scenario === prepared.scenario);
        const retained =
          evaluateTrusted(policy, prepared, capacity, config, pools[caseIndex]).supportAllRetained;
        if (retained) expected[(set * grid.capacities.length + capacityIndex) * groupCount + group]++;
      });
    });
  }
  assertEquals([...result.hybrid], [...expected]);
  // The grid is not degenerate: the parameters change what is kept.
  assert(new Set(result.hybrid).size > 3);
});

Deno.test("grid weights are multiples of the step on the simplex, each a config the protocol accepts", () => {
  const weights = simplexWeights(20);
  assertEquals(weights.length, 231);
  // 1 - 0.65 - 0.25 is 0.09999999999999998: computing the third weight by subtraction would miss the published one.
  assert(1 - 0.65 - 0.25 !== 0.1);
  assert(weights.some((w) => w.confidence === 0.65 && w.confirmation === 0.25 && w.access === 0.1));
  const yaml = embeddedArtifact("configs/pr4789-reproduction-v1.yaml");
  const text = new TextDecoder().decode(yaml.bytes);
  const block = /( {4}weights:\n {6}confidence: .*\n {6}confirmation: .*\n {6}access: .*\n)/;
  assertMatch(text, block);
  for (const w of weights) {
    const changed = text.replace(
      block,
      `    weights:\n      confidence: ${w.confidence}\n      confirmation: ${w.confirmation}\n      access: ${w.access}\n`,
    );
    const parsed = parseConfig(changed, "grid-point.yaml").policies.hybrid_v1.weights;
    assertEquals([parsed.confidence, parsed.confirmation, parsed.access], [
      w.confidence,
      w.confirmation,
      w.access,
    ]);
  }
});

Deno.test("the default grid: 231 weights, half-lives at ½×, 1×, 2×, reserve 0 and published, capacities 1…pool size", () => {
  const grid = defaultGrid(config);
  assertEquals(grid.weights.length, 231);
  assertEquals(grid.confirmationHalfLifeDays, [45, 90, 180]);
  assertEquals(grid.accessHalfLifeDays, [15, 30, 60]);
  assertEquals(grid.correctionReservedFraction, [0, 0.1]);
  assertEquals(grid.correctionReservedMax, [10]);
  assertEquals(grid.capacities, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

Deno.test("a bad grid file is one InputError naming the file and the field", () => {
  const bad = (text: string, expected: string) =>
    assertEquals(assertThrows(() => parseGrid(text, "g.yaml", config), InputError).message, expected);
  bad("weights_step: 0.3\n", "g.yaml: weights_step: must be 1/n for a whole n from 1 to 100 (e.g. 0.05)");
  bad("capacities: [5, 11]\n", "g.yaml: capacities.1: must be in [1, 10] (the pool size)");
  bad("capacities: [0]\n", "g.yaml: capacities.0: must be ≥ 1");
  bad(
    "confirmation_half_life_days: [90, 90]\n",
    "g.yaml: confirmation_half_life_days: must not repeat a value",
  );
  bad("access_half_life_days: [1.5]\n", "g.yaml: access_half_life_days.0: must be an integer");
  bad("correction_reserved_fraction: [1.5]\n", "g.yaml: correction_reserved_fraction.0: must be in [0, 1]");
  bad("correction_reserved_max: []\n", "g.yaml: correction_reserved_max: must not be empty");
  bad("half_life: 3\n", "g.yaml: (root): unknown key(s): half_life");
  assertMatch(
    assertThrows(() => parseGrid("a: [", "g.yaml", config), InputError).message,
    /^g\.yaml: not valid YAML/,
  );
  // An empty file is the default grid.
  assertEquals(parseGrid("", "g.yaml", config), defaultGrid(config));
});

Deno.test("sweep.jsonl: one Python-style row per parameter set × capacity × scenario, metadata only", () => {
  const grid = parseGrid(`${PUBLISHED_ONLY}\nweights_step: 0.5\ncapacities: [1, 7]\n`, "grid.yaml", config);
  const result = runSweep(protocol, grid);
  const lines = sweepJsonl(result).trimEnd().split("\n");
  assertEquals(lines.length, 6 * 2 * 5);
  for (const line of lines) {
    const row = JSON.parse(line);
    assertEquals(Object.keys(row), [
      "capacity",
      "cases",
      "confidence_retained",
      "difference",
      "hybrid_v1_retained",
      "parameters",
      "scenario",
      "source",
    ]);
    assertEquals(row.difference, row.hybrid_v1_retained - row.confidence_retained);
    const p = row.parameters;
    assertEquals(
      line,
      dumps({
        ...row,
        parameters: {
          ...p,
          correction_reserved_fraction: new PyFloat(p.correction_reserved_fraction),
          weights: {
            access: new PyFloat(p.weights.access),
            confidence: new PyFloat(p.weights.confidence),
            confirmation: new PyFloat(p.weights.confirmation),
          },
        },
      }),
    );
  }
  const first = JSON.parse(lines[0]);
  assertEquals([first.capacity, first.scenario, first.parameters.weights], [1, "confirmation_help", {
    access: 0,
    confidence: 1,
    confirmation: 0,
  }]);
});

/** A hand-made result on weights step 0.5 (six triples), one value per other axis, one capacity, one group. */
function handMade(hybridByWeights: number[], confidence: number): SweepResult {
  const weights = simplexWeights(2);
  const grid: SweepGrid = {
    weightStep: 0.5,
    divisions: 2,
    weights,
    confirmationHalfLifeDays: [90],
    accessHalfLifeDays: [30],
    correctionReservedFraction: [0.1],
    correctionReservedMax: [10],
    capacities: [7],
  };
  const published = weights.findIndex((w) => w.confidence === 0.5 && w.confirmation === 0.5);
  return {
    grid,
    groups: [{ source: "longmemeval", scenario: "s", cases: 10 }],
    parameterSets: weights.length,
    hybrid: Uint16Array.from(hybridByWeights),
    confidence: Uint16Array.from([confidence]),
    published,
    publishedParams: parametersAt(grid, published),
  };
}

Deno.test("placement: the neighbourhood is the holding region connected to the published point, one step at a time", () => {
  // Weights in order: (1,0,0) (.5,.5,0) (.5,0,.5) (0,1,0) (0,.5,.5) (0,0,1); published (.5,.5,0).
  const result = handMade([5, 6, 9, 4, 7, 9], 5);
  const placement = placePublished(result, [7]);
  assertEquals(placement.published, [1]);
  // A step moves 0.5 of weight between two weights: (1,0,0), (.5,0,.5) and (0,.5,.5) touch the published point
  // and hold; (0,0,1) holds, touching (.5,0,.5). (0,1,0) keeps fewer.
  assertEquals(placement.neighbourhood, [0, 1, 2, 4, 5]);
  assertEquals(placement.shortfalls, [{ point: 3, steps: 1 }]);
  assertEquals(shortfallsAt(result, 3), [{ group: result.groups[0], hybrid: 4, confidence: 5 }]);
  // Cut off by a failing ring, a holding point is outside the neighbourhood.
  const island = placePublished(handMade([4, 6, 4, 4, 4, 9], 5), [7]);
  assertEquals(island.neighbourhood, [1]);
  assertEquals(island.shortfalls.map((s) => [s.point, s.steps]), [[0, 1], [2, 1], [3, 1], [4, 1]]);
  // When the published point itself keeps fewer, there is no neighbourhood.
  assertEquals(placePublished(handMade([9, 4, 9, 9, 9, 9], 5), [7]).neighbourhood, []);
});

Deno.test("the summary names the published parameters, their neighbourhood and the nearest shortfalls", () => {
  const lines = sweepSummaryLines(handMade([5, 6, 9, 4, 7, 9], 5), [7]);
  assertEquals(
    lines[0],
    "sweep: 6 parameter sets × 1 capacities (7) = 6 grid points, × 1 scenarios on 10 cases",
  );
  assertEquals(lines[1], "published hybrid-v1: weights 0.5/0.5/0, half-lives 90/30 d, reserve 0.1 up to 10");
  assertEquals(
    lines[2],
    "  keeps at least as many supports as confidence in every scenario at the protocol's capacities 7",
  );
  assertMatch(
    lines[4],
    /^ {2}capacity 7: 5 of 6 parameter sets; weights confidence 0–1, confirmation 0–0\.5,/,
  );
  assertEquals(
    lines.at(-1),
    "  capacity 7, weights 0/1/0, half-lives 90/30 d, reserve 0.1 up to 10 (1 step away): s 4 vs 5",
  );
});

Deno.test("the summary says so when the published parameters are not on the grid", () => {
  const grid = parseGrid(`${PUBLISHED_ONLY}\nweights_step: 0.5\ncapacities: [7]\n`, "grid.yaml", config);
  const result = runSweep(protocol, grid);
  assertEquals(result.published, -1);
  const lines = sweepSummaryLines(result, config.pool.capacities);
  assertEquals(lines[2], "  not on this grid: no neighbourhood to report");
  assert(!lines.some((line) => line.startsWith("neighbourhood")));
});

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
    assertMatch(result.stdout, /at the protocol's capacities 5, 7, 9/);
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
  assertMatch(help.stdout, /^deermem-eval sweep --dataset PATH --output-dir DIR \[--grid FILE\]/);
  assertMatch(help.stdout, /weights_step: 0\.05/);
});
