import { distractorOffset, prepareCases, recomputeSelection } from "../../../lib/protocol/cases.ts";
import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { loadDataset, parseRows } from "../../../lib/protocol/dataset.ts";
import { generateDemoDataset } from "../../../lib/protocol/demo.ts";
import { ContractError } from "../../../lib/base/errors.ts";
import { DatasetIntegrityError } from "../../../lib/protocol/mod.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { type SourceRow, sourceRow } from "../../helpers/generate.ts";

const contracts = await fixtureContracts();
const dataset = await loadDataset(
  await Deno.readFile(FIXTURE_DATASET),
  FIXTURE_DATASET,
  contracts.config.dataset.sha256,
);

Deno.test("the fixture prepares 45 cases with nine distinct distractors each", async () => {
  const cases = await prepareCases(dataset, contracts);
  assertEquals(cases.length, 45);
  for (const prepared of cases) {
    assertEquals(
      new Set(prepared.distractors.map((row) => row.questionId)).size,
      contracts.config.pool.distractors,
    );
  }
});

Deno.test("a distractor bank smaller than the draws is refused, naming both numbers", async () => {
  const pool = { ...contracts.config.pool, distractor_bank_size: 5 };
  const small = { ...contracts, config: { ...contracts.config, pool } };
  const error = await assertRejects(() => prepareCases(dataset, small), ContractError);
  assertEquals(
    error.message,
    "pool.distractor_bank_size: the distractor bank of 5 rows is smaller than the 9 distractors each case draws",
  );
});

const embedded = await loadContracts(embeddedSources());
const selectionRule = embedded.official;

function selectionRows(type: string, prefix: string, count: number): SourceRow[] {
  return Array.from(
    { length: count },
    (_, index) => sourceRow(`${prefix}${String(index).padStart(3, "0")}`, type, "ans", "evidence"),
  );
}

function datasetOf(rows: SourceRow[]) {
  return { sha256: "x", ...parseRows(rows, "test.json") };
}

Deno.test("selection drops pilots, _abs IDs, long or excluded answers and out-of-bound evidence, by code points", async () => {
  const pilot = selectionRule.selection.excluded_pilot_ids[0];
  const rows = [
    ...selectionRows("knowledge-update", "k", 20),
    ...selectionRows("temporal-reasoning", "t", 20),
    sourceRow(pilot, "knowledge-update", "a", "e"),
    sourceRow("a000_abs", "knowledge-update", "a", "e"),
    sourceRow("a001", "knowledge-update", "x".repeat(101), "e"),
    sourceRow("a002", "knowledge-update", "It is NOT ENOUGH", "e"),
    sourceRow("a003", "knowledge-update", "  ", "e"),
    sourceRow("a004", "temporal-reasoning", "a", "e".repeat(2000)),
    // 100 code points but 102 UTF-16 units: still eligible (Python len).
    sourceRow("a005", "temporal-reasoning", "😀😀" + "x".repeat(98), "e"),
  ];
  const selected = await recomputeSelection(datasetOf(rows), selectionRule);
  assertEquals(
    selected.get("knowledge-update")!.map((item) => item.questionId),
    selectionRows("knowledge-update", "k", 20).map((r) => r.question_id),
  );
  assertEquals(selected.get("temporal-reasoning")![0].questionId, "a005");
  assertEquals(selected.get("temporal-reasoning")!.length, 20);
});

Deno.test("selection: too few eligible rows is its own error", async () => {
  const rows = [
    ...selectionRows("knowledge-update", "k", 19),
    ...selectionRows("temporal-reasoning", "t", 20),
  ];
  await assertRejects(
    () => recomputeSelection(datasetOf(rows), selectionRule),
    DatasetIntegrityError,
    "only 19 eligible knowledge-update rows",
  );
});

Deno.test("selection: a manifest that differs from the recomputed IDs names the scenario and both lists", async () => {
  const rows = generateDemoDataset();
  const data = datasetOf(rows);
  const manifest = structuredClone(selectionRule);
  const error = await assertRejects(() => prepareCases(data, { ...embedded, official: manifest }));
  assert(error instanceof DatasetIntegrityError);
  assertMatch(
    error.message,
    /manifests\/longmemeval-pr4789-v1\.json: scenarios\.confirmation_help: pinned IDs do not match the declared selection rule: expected .*, got 01493427/,
  );
});

// The reference's validate_official_selection: the take is the grouping's, and each scenario's list is compared
// in order (each eligible type's IDs in turn, each sorted), never as a set.
Deno.test("selection: a take_per_question_type that is not scenarios × cases per type is refused", async () => {
  const official = structuredClone(contracts.official);
  official.selection.take_per_question_type = 21; // 4 scenarios × 5 cases per type is 20
  const error = await assertRejects(
    () => prepareCases(dataset, { ...contracts, official }),
    DatasetIntegrityError,
  );
  assertMatch(
    error.message,
    /official\.json: selection\.take_per_question_type: take_per_question_type is 21, but the 4 scenarios × 5 cases per type need 20$/,
  );
});

Deno.test("selection: the pinned IDs of one scenario permuted are refused, naming both orders", async () => {
  const official = structuredClone(contracts.official);
  const ids = official.scenarios.confirmation_help;
  [ids[0], ids[5]] = [ids[5], ids[0]]; // a temporal-reasoning ID before the knowledge-update ones: same set
  const error = await assertRejects(
    () => prepareCases(dataset, { ...contracts, official }),
    DatasetIntegrityError,
  );
  assertMatch(
    error.message,
    /official\.json: scenarios\.confirmation_help: pinned IDs do not match the declared selection rule: expected 05fdf179,.*, got 0631cb30,/,
  );
});

// Lines of tests/golden/vectors/offsets.jsonl (the reference's int.from_bytes(sha256(f"{ns}:{id}")[:4], "big") % n),
// pinned here so that a change to the offset fails in its own module's test, not only end to end.
Deno.test('a case\'s pool offset: the first 4 bytes of sha256("namespace:case_id"), big-endian, mod the bank size', async () => {
  const pinned: [namespace: string, caseId: string, bankSize: number, offset: number][] = [
    ["deermem-medium-v1", "correction_3", 1000, 947], // first byte 0xa6: a signed 32-bit shift would go negative
    ["deermem-medium-v1", "case-11", 40, 7],
    ["deermem-medium-v1", "case-92", 1000, 880],
    ["deermem-medium-v1", "e77562c3", 40, 18],
    ["deermem-medium-v1", "中", 1000, 709], // the id's UTF-8 bytes are hashed
    ["alt-ns", "case-0", 1000, 126],
    ["alt-ns", "gpt4_74285385", 1, 0],
  ];
  for (const [namespace, caseId, bankSize, offset] of pinned) {
    assertEquals(
      await distractorOffset(namespace, caseId, bankSize),
      offset,
      `${namespace}:${caseId} % ${bankSize}`,
    );
  }
});
