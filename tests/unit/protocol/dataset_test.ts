/**
 * The dataset: semantics at the edges as the reference computes them (expected bytes from the reference's
 * `extract_evidence` run on the same row by CPython 3.11.7), and the row-wise parse that must always equal one
 * whole-text parse.
 */
import { buildDistractorBank, prepareCases } from "../../../lib/protocol/cases.ts";
import {
  DATASET_JSON_LIMITS,
  loadDataset,
  parseDatasetJson,
  parseRows,
} from "../../../lib/protocol/dataset.ts";
import { renderEvidence } from "../../../lib/protocol/evidence.ts";
import { ContractError } from "../../../lib/base/errors.ts";
import { DatasetIntegrityError } from "../../../lib/protocol/mod.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";
import { dumps, parsePyJson, type PyJson } from "../../../lib/py/json.ts";
import { codePointLength } from "../../../lib/py/builtins.ts";
import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "../../helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { sourceRow } from "../../helpers/generate.ts";

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

const encoder = new TextEncoder();

/** The single whole-text parse the row-wise one must always equal. */
function single(bytes: Uint8Array): PyJson {
  // The file as the reference's json.load reads it: opened as UTF-8, a leading BOM kept (and then refused).
  return parsePyJson(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
}

function row(id: string, extra: Record<string, unknown> = {}) {
  return {
    question_id: id,
    question_type: "temporal-reasoning",
    question: "?",
    answer: 1,
    haystack_session_ids: ["s"],
    haystack_dates: ["d"],
    haystack_sessions: [[{ role: "user", content: `text of ${id}` }]],
    ...extra,
  };
}

function outcome(parse: () => unknown): string {
  try {
    return `value ${dumps(parse() as PyJson)}`;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

Deno.test("row-wise parse equals the single parse: value, float/int distinction, or the same error", async () => {
  const rows = [
    row("a"),
    row("b", { answer: 2.0, big: 12345678901234567890n }),
    row("ü", { note: "😀 naïve" }),
  ];
  const texts = [
    // compact, indented, and Python's json.dump default separators
    JSON.stringify(rows, (_key, value) => typeof value === "bigint" ? "BIG" : value),
    `[${rows.map((item) => dumps(item as PyJson)).join(", ")}]`,
    `[\n ${rows.map((item) => dumps(item as PyJson)).join(",\n ")}\n]\n`,
    ` \n[{"question_id": "a", "x": 1.0}\n,\n\t{"question_id": "b", "x": 1e400}]\r\n`,
    // the first element's opening inside a row (a nested object), or inside a string: cut only where valid
    `[{"question_id": "a", "meta": [1, {"question_id": "n"}]}, {"question_id": "b"}]`,
    `[{"question_id": "a", "s": "}, {\\"question_id\\": 1"}, {"question_id": "b"}]`,
    // not a list of objects, or not one shape
    `[1, 2, 3]`,
    `[]`,
    `{"question_id": "a"}`,
    `[{"a": 1}, {"b": 2}, {"a": 3}]`,
    // invalid: a piece that does not parse falls back, and the single parse gives the error
    `[{"question_id": "a"}, {"question_id": "b",}]`,
    `[{"question_id": "a"}, {"question_id": "b"}`,
    `[{"question_id": "a"}, {"question_id": "b"}] x`,
    `[{"question_id": "a"},, {"question_id": "b"}]`,
  ];
  for (const text of texts) {
    const bytes = encoder.encode(text);
    assertEquals(outcome(() => parseDatasetJson(bytes)), outcome(() => single(bytes)), text);
  }
  const fixture = await Deno.readFile(FIXTURE_DATASET);
  assertEquals(dumps(parseDatasetJson(fixture) as PyJson), dumps(single(fixture)));
});

Deno.test("row-wise decode is as strict as the single decode: invalid UTF-8 and a byte-order mark inside", () => {
  const head = encoder.encode(`[{"question_id": "a", "s": "ok"}, {"question_id": "b", "s": "`);
  const tail = encoder.encode(`"}]`);
  const join = (...parts: Uint8Array[]) => {
    const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) bytes.set(part, (at += part.length) - part.length);
    return bytes;
  };
  const invalid = join(head, new Uint8Array([0xff]), tail);
  assertThrows(() => parseDatasetJson(invalid), TypeError);
  // A U+FFFD written in the file is text, not a decoding error.
  const replacement = join(head, encoder.encode("\uFFFD"), tail);
  assertEquals(outcome(() => parseDatasetJson(replacement)), outcome(() => single(replacement)));
  // A mark at the file's start is refused by both; one after a row's comma is not whitespace for either.
  const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
  const rows = encoder.encode(`[{"question_id": "a"}, {"question_id": "b"}]`);
  assert(outcome(() => single(join(bom, rows))).includes("Unexpected UTF-8 BOM"));
  assertEquals(outcome(() => parseDatasetJson(join(bom, rows))), outcome(() => single(join(bom, rows))));
  const inside = join(encoder.encode(`[{"question_id": "a"},`), bom, encoder.encode(`{"question_id": "b"}]`));
  assert(outcome(() => single(inside)).startsWith("SyntaxError"));
  assertEquals(outcome(() => parseDatasetJson(inside)), outcome(() => single(inside)));
});

Deno.test("a wrong dataset is a SHA-256 mismatch, never a parse error, even though parsing overlaps hashing", async () => {
  const broken = encoder.encode("{ this is not JSON");
  const pinned = await sha256Hex("something else");
  const error = await assertRejects(() => loadDataset(broken, "d.json", pinned), DatasetIntegrityError);
  assertEquals(
    error.message,
    `d.json: SHA-256 mismatch: expected ${pinned}, actual ${await sha256Hex(broken)}`,
  );
  const valid = encoder.encode(JSON.stringify([row("a")]));
  await assertRejects(() => loadDataset(valid, "d.json", pinned), DatasetIntegrityError, "SHA-256 mismatch");
  // With the right digest, the same broken bytes are reported as invalid JSON.
  await assertRejects(
    async () => await loadDataset(broken, "d.json", await sha256Hex(broken)),
    DatasetIntegrityError,
    "d.json: not valid JSON: ",
  );
  const loaded = await loadDataset(valid, "d.json", await sha256Hex(valid));
  assertEquals(loaded.rows.map((item) => item.questionId), ["a"]);
});

Deno.test("evidence length is computed without the text and equals the rendered text's code points", () => {
  const rows = [
    row("plain"),
    row("pairs", {
      haystack_session_ids: ["s1", "s2", "s3"],
      haystack_dates: ["2023/05/20 😀", "d2", "d3"],
      haystack_sessions: [
        [{ role: "user", content: "I 😀 moved \ud800 to Lisbon." }, { role: "assistant", content: "no" }],
        [],
        [{ role: "ß", content: "x", has_answer: true }, { role: null, content: "𝄞𝄞", has_answer: true }],
      ],
    }),
    row("none", { haystack_sessions: [[{ role: "assistant", content: "never evidence" }]] }),
  ];
  const { rows: parsed } = parseRows(rows, "d.json");
  for (const [index, item] of parsed.entries()) {
    const text = renderEvidence(rows[index]);
    assertEquals(item.evidenceLength, codePointLength(text), item.questionId);
    assertEquals(item.evidence, text, item.questionId);
  }
  assertEquals(parsed[1].evidence.split("\n").slice(3), ["SESSION s3 AT d3", "SS: x", "UNKNOWN: 𝄞𝄞"]);
  assertEquals(parsed[2].evidence, "");
});

Deno.test("evidence: has_answer turns of any role win over user turns; empty sessions are skipped", () => {
  const text = renderEvidence({
    question_id: "q",
    haystack_session_ids: ["a", 7, "c"],
    haystack_dates: [null, "2023/01/01", "x"],
    haystack_sessions: [
      [{ role: "assistant", content: "yes", has_answer: true }, { role: "User", content: "plain" }],
      [{ role: "USER", content: "only user" }, { role: "assistant", content: "no" }, "junk", {
        role: "user",
        content: 3,
      }],
      [{ role: "assistant", content: "skipped" }],
    ],
  });
  assertEquals(text, "SESSION a AT None\nASSISTANT: yes\n\nSESSION 7 AT 2023/01/01\nUSER: only user");
});

Deno.test("evidence: has_answer must be exactly true; a missing role renders UNKNOWN", () => {
  const text = renderEvidence({
    question_id: "q",
    haystack_session_ids: ["a"],
    haystack_dates: ["d"],
    haystack_sessions: [[{ role: "user", content: "u", has_answer: 1 }, { content: "x", has_answer: true }]],
  });
  assertEquals(text, "SESSION a AT d\nUNKNOWN: x");
});

Deno.test("evidence: malformed haystack arrays are DatasetIntegrityErrors naming the question", () => {
  const base = {
    question_id: "q9",
    haystack_session_ids: ["a"],
    haystack_dates: ["d"],
    haystack_sessions: [[]],
  };
  assertThrows(
    () => renderEvidence({ ...base, haystack_sessions: "oops" }),
    DatasetIntegrityError,
    "question q9",
  );
  assertThrows(
    () => renderEvidence({ ...base, haystack_dates: [] }),
    DatasetIntegrityError,
    "different lengths",
  );
  assertThrows(
    () => renderEvidence({ ...base, haystack_sessions: ["x"] }),
    DatasetIntegrityError,
    "invalid haystack",
  );
});

Deno.test("dataset rows: question_id must be a unique non-empty string; non-string answers are json.dumps'd", () => {
  assertThrows(
    () => parseRows({}, "d.json"),
    DatasetIntegrityError,
    "d.json: (root): the root must be a list",
  );
  assertThrows(
    () => parseRows([sourceRow("", "x", "a", "e")], "d.json"),
    DatasetIntegrityError,
    "[0].question_id",
  );
  assertThrows(
    () => parseRows([sourceRow("a", "x", "a", "e"), sourceRow("a", "x", "b", "e")], "d.json"),
    DatasetIntegrityError,
    "duplicate",
  );
  assertEquals(
    parseRows([sourceRow("a", "x", { b: [1, true], a: null }, "e")], "d.json").rows[0].answer,
    '{"a": null, "b": [1, true]}',
  );
});

Deno.test("dataset bytes: invalid UTF-8 is refused; a genuine U+FFFD is kept and a leading BOM refused (the reference's json.load)", async () => {
  const encoder = new TextEncoder();
  const rowJson = (question: string) =>
    `[{"question_id": "q1", "question_type": "x", "question": "${question}", "answer": "a", ` +
    `"haystack_session_ids": [], "haystack_dates": [], "haystack_sessions": []}]`;
  const load = async (bytes: Uint8Array) => await loadDataset(bytes, "d.json", await sha256Hex(bytes));
  const replacement = encoder.encode(rowJson("what \uFFFD?"));
  assertEquals((await load(replacement)).rows[0].question, "what \uFFFD?");
  const [before, after] = rowJson("what X?").split("X");
  const invalid = new Uint8Array([...encoder.encode(before), 0xff, ...encoder.encode(after)]);
  const error = await assertRejects(() => load(invalid), DatasetIntegrityError);
  // The place, as every other file's invalid UTF-8 is named: not the decoder's "The encoded data is not valid".
  assertEquals(
    error.message,
    `d.json: not valid UTF-8: line 1, byte offset ${encoder.encode(before).length}`,
  );
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(rowJson("q"))]);
  const refused = await assertRejects(() => load(bom), DatasetIntegrityError);
  assertEquals(refused.message, "d.json: not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)");
});

Deno.test("a dataset nested past 900 levels or of more than 2^23 values is refused before it is parsed, naming the limit", async () => {
  const load = async (bytes: Uint8Array) => await loadDataset(bytes, "d.json", await sha256Hex(bytes));
  const deep = encoder.encode(`[{"question_id": "a", "x": ${"[".repeat(901)}${"]".repeat(901)}}]`);
  const error = await assertRejects(() => load(deep), DatasetIntegrityError);
  assertEquals(error.message, "d.json: not valid JSON: nested more than 900 levels deep: at byte offset 925");
  // Row-wise, every row is small: the bound is on the whole file, not on each row.
  const many = encoder.encode(`[${Array(1 << 22).fill('{"question_id": []}').join(",")}]`);
  await assertRejects(
    () => load(many),
    DatasetIntegrityError,
    "more than 8388608 values, the limit of one document",
  );
  assertEquals(DATASET_JSON_LIMITS, { depth: 900, values: 1 << 23 });
});
