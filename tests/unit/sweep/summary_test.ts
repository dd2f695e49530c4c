import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { parseGrid, runSweep, sweepSummaryLines } from "../../../lib/sweep/mod.ts";
import { handMade, PUBLISHED_ONLY } from "../../helpers/grids.ts";

const contracts = await fixtureContracts();
const { config } = contracts;
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);

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
