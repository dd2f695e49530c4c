import { assert, assertEquals } from "../../helpers/assert.ts";
import { GOLDEN } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { evaluateTrusted, hybridPolicy } from "../../../lib/policy/mod.ts";
import { buildPool } from "../../../lib/protocol/pool.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { defaultGrid, parametersAt, parseGrid, runSweep } from "../../../lib/sweep/mod.ts";
import { PUBLISHED_ONLY } from "../../helpers/grids.ts";

const contracts = await fixtureContracts();
const { config } = contracts;
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);

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
