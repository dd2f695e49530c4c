/**
 * Dataset semantics at the edges, as the reference computes them. Expected bytes come from the reference's
 * `extract_evidence` run on the same row by CPython 3.11.7.
 */
import { buildDistractorBank, prepareCases } from "../lib/cases.ts";
import { loadDataset, renderEvidence } from "../lib/dataset.ts";
import { ContractError, DatasetIntegrityError } from "../lib/errors.ts";
import { sha256Hex } from "../lib/hash.ts";
import { parsePyJson } from "../lib/pyjson.ts";
import { assertEquals, assertMatch, assertRejects, assertThrows } from "./helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "./helpers/fixture.ts";

const EDGE_ROW =
  `{"question_id": "q1", "haystack_session_ids": [{"b": 1, "1": ["\\u3000", 1e400]}, ["s\\u00a0", 2.50]],
 "haystack_dates": ["2023/05/20", {"\\u200b": null}],
 "haystack_sessions": [
   [{"role": 0, "content": "zero", "has_answer": true}, {"role": 0.0, "content": "float zero", "has_answer": true},
    {"role": false, "content": "false", "has_answer": true}, {"role": [], "content": "list", "has_answer": true},
    {"role": {}, "content": "dict", "has_answer": true}, {"role": "\\u0264x", "content": "gamma", "has_answer": true},
    {"role": [0], "content": "list of zero", "has_answer": true}],
   [{"role": "USER", "content": "upper user"}, {"role": "\\u0130", "content": "dotted"}]]}`;

Deno.test("evidence: falsy roles are UNKNOWN, str() of lists and dicts is Python's repr, upper() is Unicode 14", () => {
  const evidence = renderEvidence(parsePyJson(EDGE_ROW) as Record<string, unknown>);
  assertEquals(
    evidence,
    "SESSION {'b': 1, '1': ['\\u3000', inf]} AT 2023/05/20\nUNKNOWN: zero\nUNKNOWN: float zero\nUNKNOWN: false\n" +
      "UNKNOWN: list\nUNKNOWN: dict\n\u0264X: gamma\n[0]: list of zero\n\n" +
      "SESSION ['s\\xa0', 2.5] AT {'\\u200b': None}\nUSER: upper user",
  );
  assertEquals(Array.from(evidence).length, 218);
});

async function fixtureRows(): Promise<Record<string, unknown>[]> {
  return JSON.parse(await Deno.readTextFile(FIXTURE_DATASET));
}

async function prepare(
  rows: unknown,
  edit: (contracts: Awaited<ReturnType<typeof fixtureContracts>>) => void = () => {},
) {
  const bytes = new TextEncoder().encode(JSON.stringify(rows));
  const dataset = await loadDataset(bytes, "d.json", await sha256Hex(bytes));
  const contracts = await fixtureContracts();
  edit(contracts);
  return { dataset, contracts, cases: () => prepareCases(dataset, contracts) };
}

Deno.test("a non-string question_date on an official-type or bank-type row is refused; elsewhere it is not read", async () => {
  for (const type of ["knowledge-update", "single-session-user"]) {
    const rows = await fixtureRows();
    const row = rows.find((item) =>
      item.question_type === type && !String(item.question_id).endsWith("_abs")
    )!;
    row.question_date = 20230517;
    const { cases } = await prepare(rows);
    const error = await assertRejects(cases, DatasetIntegrityError);
    assertEquals(
      error.message,
      `question ${row.question_id}: question_date is invalid for ${row.question_id}`,
    );
  }
  const rows = await fixtureRows();
  rows.find((item) => item.question_type === "multi-session")!.question_date = ["2023"];
  assertEquals((await (await prepare(rows)).cases()).length, 45);
});

Deno.test("a pool that would hold the same source record twice is refused", async () => {
  const rows = await fixtureRows();
  const { dataset, contracts, cases } = await prepare(rows, (contracts) => {
    // A bank of exactly nine: every case draws all of it, so a synthetic case named like a bank row repeats it.
    (contracts.config.pool as { distractor_bank_size: number }).distractor_bank_size = 9;
  });
  const [first] = buildDistractorBank(dataset, contracts.config);
  contracts.synthetic.cases[0].case_id = first.questionId;
  const error = await assertRejects(cases, DatasetIntegrityError);
  assertEquals(
    error.message,
    `case ${first.questionId}: a prepared pool cannot contain duplicate source records`,
  );
});

Deno.test("the dataset's JSON is read as Python's json reads it: NaN and 1e400 are values, not errors", async () => {
  const text = `[{"question_id": "q1", "question_type": "x", "question": "?", "answer": [NaN, 1e400, 1.0, ` +
    `123456789012345678901234567890], "haystack_session_ids": [], "haystack_dates": [], "haystack_sessions": []}]`;
  const bytes = new TextEncoder().encode(text);
  const dataset = await loadDataset(bytes, "d.json", await sha256Hex(bytes));
  // json.dumps(answer, ensure_ascii=False, sort_keys=True) in CPython 3.11.7.
  assertEquals(dataset.rows[0].answer, "[NaN, Infinity, 1.0, 123456789012345678901234567890]");
  assertThrows(() => parsePyJson('[{"a": "\\udfff"}]'), SyntaxError, "lone surrogate");
});

Deno.test("a pool of other than nine distractors is refused when cases are built, as the reference's build_case does", async () => {
  const { cases } = await prepare(await fixtureRows(), (contracts) => {
    Object.assign(contracts.config.pool, { size: 11, distractors: 10 });
  });
  const error = await assertRejects(cases, ContractError);
  assertMatch(
    error.message,
    /pool\.distractors: the pr4789 reproduction protocol requires exactly nine distractors, got 10$/,
  );
});
