/** A sweep rebuilt from its two files: each row where the grid puts it, or refused naming its line. */
import { InputError } from "../../../lib/base/errors.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import {
  parseGrid,
  recordedGrid,
  runSweep,
  sweepJsonl,
  sweepRecord,
  SweepRecordFields,
  sweepResultOf,
} from "../../../lib/sweep/mod.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
const grid = parseGrid(
  "weights_step: 0.5\nconfirmation_half_life_days: [45, 90]\ncapacities: [5, 7]\n",
  "grid.yaml",
  contracts.config,
);
const result = runSweep(prepared, grid);
const rows = sweepJsonl(result);
const record = SweepRecordFields.parse(JSON.parse(sweepRecord(result, contracts, "d", "t", "h")));

Deno.test("sweepResultOf: the rows give back the sweep's grid, counts and published set", () => {
  const back = sweepResultOf(record, rows, "s/sweep.jsonl");
  assertEquals(back.grid, grid);
  assertEquals([back.hybrid, back.confidence], [result.hybrid, result.confidence]);
  assertEquals([back.parameterSets, back.published, back.publishedParams], [
    result.parameterSets,
    result.published,
    result.publishedParams,
  ]);
});

Deno.test("sweepResultOf: a row out of place, a count beyond its cases, a missing row — each named", () => {
  const lines = rows.split("\n");
  const swap = [lines[1], lines[0], ...lines.slice(2)].join("\n");
  assertThrows(() => sweepResultOf(record, swap, "s/sweep.jsonl"), InputError, "s/sweep.jsonl: line 1: is ");
  const other = rows.replace('"confirmation_half_life_days": 45', '"confirmation_half_life_days": 46');
  assertThrows(
    () => sweepResultOf(record, other, "s/sweep.jsonl"),
    InputError,
    "line 1: parameters are not the grid's parameter set here (confirmationHalfLifeDays differ)",
  );
  const first = JSON.parse(lines[0]);
  const beyond = lines[0]
    .replace(/"difference": -?\d+/, `"difference": ${first.cases + 1 - first.confidence_retained}`)
    .replace(/"hybrid_v1_retained": \d+/, `"hybrid_v1_retained": ${first.cases + 1}`);
  assertThrows(
    () => sweepResultOf(record, [beyond, ...lines.slice(1)].join("\n"), "s/sweep.jsonl"),
    InputError,
    `line 1: keeps more supports than its ${first.cases} cases`,
  );
  assertThrows(
    () => sweepResultOf(record, lines.slice(1).join("\n"), "s/sweep.jsonl"),
    InputError,
    `holds ${lines.length - 2} rows; the grid and groups of sweep.json make ${lines.length - 1}`,
  );
});

Deno.test("recordedGrid: a weights step that is not 1/n for a whole n ≤ 100 is refused, naming the field", () => {
  for (const step of [0.3, 0.001]) {
    const bad = { ...record, grid: { ...record.grid, weights_step: step } };
    assertThrows(
      () => recordedGrid(bad, "s/sweep.json"),
      InputError,
      "s/sweep.json: grid.weights_step: must be 1/n",
    );
  }
});
