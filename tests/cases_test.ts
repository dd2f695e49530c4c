import { prepareCases } from "../lib/cases.ts";
import { loadDataset } from "../lib/dataset.ts";
import { ContractError } from "../lib/errors.ts";
import { assertEquals, assertThrows } from "./helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "./helpers/fixture.ts";

const contracts = await fixtureContracts();
const dataset = await loadDataset(
  await Deno.readFile(FIXTURE_DATASET),
  FIXTURE_DATASET,
  contracts.config.dataset.sha256,
);

Deno.test("the fixture prepares 45 cases with nine distinct distractors each", () => {
  const cases = prepareCases(dataset, contracts);
  assertEquals(cases.length, 45);
  for (const prepared of cases) {
    assertEquals(
      new Set(prepared.distractors.map((row) => row.questionId)).size,
      contracts.config.pool.distractors,
    );
  }
});

Deno.test("a distractor bank smaller than the draws is refused, naming both numbers", () => {
  const pool = { ...contracts.config.pool, distractor_bank_size: 5 };
  const small = { ...contracts, config: { ...contracts.config, pool } };
  const error = assertThrows(() => prepareCases(dataset, small), ContractError);
  assertEquals(
    error.message,
    "pool.distractor_bank_size: the distractor bank of 5 rows is smaller than the 9 distractors each case draws",
  );
});
