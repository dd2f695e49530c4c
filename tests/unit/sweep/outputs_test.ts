import { assertEquals } from "../../helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { dumps, PyFloat } from "../../../lib/py/json.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { parseGrid, runSweep, sweepJsonl } from "../../../lib/sweep/mod.ts";
import { PUBLISHED_ONLY } from "../../helpers/grids.ts";

const contracts = await fixtureContracts();
const { config } = contracts;
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);

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
