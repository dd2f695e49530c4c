import { RowIntegrityError } from "../../../lib/base/errors.ts";
import {
  answerRow,
  answerRowJson,
  checkRowIdentity,
  identityMismatches,
  parseAnswerRow,
} from "../../../lib/qa/run/answer_rows.ts";
import { assert, assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";
import { fixtureTasks, REFERENCE_QA } from "../../helpers/fixture.ts";

const tasks = await fixtureTasks();

async function referenceRows() {
  const rows = [];
  for (const task of tasks) {
    const path = `${REFERENCE_QA}/responses/${task.rowId}.json`;
    rows.push({ task, path, text: await Deno.readTextFile(path) });
  }
  return rows;
}

Deno.test("every reference row file parses, matches its recomputed task, and re-serialises byte for byte", async () => {
  const rows = await referenceRows();
  assertEquals(rows.length, 90);
  for (const { task, path, text } of rows) {
    const row = parseAnswerRow(text, path);
    assertEquals(identityMismatches(row, task), [], path);
    assertEquals(answerRowJson(row), text, path);
  }
});

Deno.test("answerRow builds the reference's row from a task and an answer", async () => {
  const [{ task, text }] = await referenceRows();
  const stored = JSON.parse(text);
  const row = answerRow(
    task,
    {
      prediction: stored.prediction,
      responseModel: stored.response_model,
      usage: stored.usage,
    },
    stored.attempts,
    stored.created_at,
  );
  assertEquals(answerRowJson(row), text);
});

Deno.test("identityMismatches names every identity field that differs", async () => {
  const [{ task, path, text }] = await referenceRows();
  const row = parseAnswerRow(text, path);
  const altered = {
    ...row,
    case_id: "other",
    kept_fact_ids: [...row.kept_fact_ids].reverse(),
    capacity: 9,
  };
  assertEquals(identityMismatches(altered, task).map((mismatch) => mismatch.field), [
    "case_id",
    "capacity",
    "kept_fact_ids",
  ]);
  const error = assertThrows(() => checkRowIdentity(altered, task, path), RowIntegrityError);
  assertEquals(error.field, "case_id");
  assertMatch(
    error.message,
    /: case_id: differs from the recomputed task: expected "05fdf179", got "other"$/,
  );
});

Deno.test("parseAnswerRow: bad JSON, a wrong schema version, a non-string prediction, an extra key", () => {
  const good = {
    attempts: 1,
    capacity: 7,
    case_id: "c",
    created_at: "2026-11-29T11:12:02.090405Z",
    kept_fact_ids: ["a"],
    policy: "confidence",
    prediction: "7",
    request_fingerprint: "0".repeat(64),
    response_model: null,
    row_id: "c__confidence",
    scenario: "s",
    schema_version: 1,
    source: "synthetic",
    usage: {},
  };
  assertEquals(parseAnswerRow(JSON.stringify(good), "r.json").prediction, "7");
  const cases: [string, string | undefined][] = [
    ["{", undefined],
    [JSON.stringify({ ...good, schema_version: 2 }), "schema_version"],
    [JSON.stringify({ ...good, prediction: 7 }), "prediction"],
    [JSON.stringify({ ...good, question: "leak?" }), "(root)"],
    [JSON.stringify({ ...good, usage: { total_tokens: 1.5 } }), "usage.total_tokens"],
    // Deliberate (README: known differences): the reference passes these through unread.
    [JSON.stringify({ ...good, attempts: undefined }), "attempts"],
    [JSON.stringify({ ...good, attempts: null }), "attempts"],
    [JSON.stringify({ ...good, attempts: "1" }), "attempts"],
    [JSON.stringify(good).replace('"attempts":1', '"attempts":1.0'), "attempts"],
    [JSON.stringify({ ...good, usage: undefined }), "usage"],
    [JSON.stringify({ ...good, usage: null }), "usage"],
    [JSON.stringify({ ...good, usage: [] }), "usage"],
    [JSON.stringify({ ...good, response_model: undefined }), "response_model"],
    [JSON.stringify({ ...good, response_model: 5 }), "response_model"],
    [JSON.stringify({ ...good, created_at: undefined }), "created_at"],
    [JSON.stringify({ ...good, created_at: null }), "created_at"],
    [JSON.stringify({ ...good, created_at: 1 }), "created_at"],
  ];
  for (const [text, field] of cases) {
    const error = assertThrows(() => parseAnswerRow(text, "r.json"), RowIntegrityError);
    assert(error.message.startsWith("r.json: "), error.message);
    assertEquals(error.field, field, text);
  }
});

Deno.test("parseAnswerRow: a lone surrogate anywhere in a row is refused with a clear one-line error", () => {
  const text = JSON.stringify({
    attempts: 1,
    capacity: 7,
    case_id: "c",
    created_at: "2026-11-29T11:12:02.090405Z",
    kept_fact_ids: ["a"],
    policy: "confidence",
    prediction: "7 X",
    request_fingerprint: "0".repeat(64),
    response_model: null,
    row_id: "c__confidence",
    scenario: "s",
    schema_version: 1,
    source: "synthetic",
    usage: {},
  }).replace("X", "\\ud83d");
  const error = assertThrows(() => parseAnswerRow(text, "r.json"), RowIntegrityError);
  assertMatch(
    error.message,
    /^r\.json: not valid JSON: lone surrogate \\ud83d: refused, as no UTF-8 output can hold it: line 1 column \d+/,
  );
  assert(!error.message.includes("\n"));
});

Deno.test("answerRowJson refuses to write a lone surrogate (a lenient encoder would store U+FFFD)", async () => {
  const [{ task }] = await referenceRows();
  const row = answerRow(task, { prediction: "seven \ud800", responseModel: "m", usage: {} }, 1, "t");
  const error = assertThrows(() => answerRowJson(row), RowIntegrityError);
  assertEquals(
    error.message,
    `${task.rowId}: prediction: holds a lone surrogate, which no UTF-8 file can hold; refused`,
  );
  const model = answerRow(task, { prediction: "7", responseModel: "m\udc00", usage: {} }, 1, "t");
  assertThrows(() => answerRowJson(model), RowIntegrityError, "response_model: holds a lone surrogate");
});

// The reference compares a row's schema_version and capacity with Python's == (runner.load_completed_row,
// report.grade_answer_rows): 7.0 == 7 and True == 1 hold, so those rows are graded (and it writes the task's 7).
Deno.test("parseAnswerRow: capacity 7.0 and schema_version 1.0 or true are the reference's 7 and 1", async () => {
  const [{ task, path, text }] = await referenceRows();
  for (
    const [from, to] of [
      ['"capacity": 7,', '"capacity": 7.0,'],
      ['"capacity": 7,', '"capacity": 70e-1,'],
      ['"schema_version": 1,', '"schema_version": 1.0,'],
      ['"schema_version": 1,', '"schema_version": true,'],
    ]
  ) {
    const changed = text.replace(from, to);
    assert(changed !== text, from);
    const row = parseAnswerRow(changed, path);
    assertEquals([row.capacity, row.schema_version], [7, 1], to);
    assertEquals(identityMismatches(row, task), [], to);
  }
});

Deno.test("parseAnswerRow: a capacity Python's == does not equal the task's is the identity check's mismatch", async () => {
  const [{ task, path, text }] = await referenceRows();
  for (const [to, actual] of [["7.5", 7.5], ["true", 1], ["8", 8]] as const) {
    const row = parseAnswerRow(text.replace('"capacity": 7,', `"capacity": ${to},`), path);
    assertEquals(identityMismatches(row, task), [{ field: "capacity", expected: 7, actual }], to);
  }
  const error = assertThrows(
    () => parseAnswerRow(text.replace('"schema_version": 1,', '"schema_version": 1.5,'), path),
    RowIntegrityError,
  );
  assertEquals(error.field, "schema_version");
});

Deno.test("parseAnswerRow: no message names an internal type (PyFloat, bigint)", async () => {
  const [{ path, text }] = await referenceRows();
  for (
    const [from, to] of [
      ['"attempts": 1,', '"attempts": 1.0,'],
      ['"total_tokens": 913', '"total_tokens": 913.5'],
      ['"total_tokens": 913', '"total_tokens": 99999999999999999999'],
      ['"case_id": "05fdf179"', '"case_id": 1.5'],
      ['"capacity": 7,', '"capacity": "7",'],
    ]
  ) {
    const changed = text.replace(from, to);
    assert(changed !== text, from);
    const error = assertThrows(() => parseAnswerRow(changed, path), RowIntegrityError);
    assert(!/PyFloat|bigint/i.test(error.message), error.message);
    assert(!error.message.includes("\n"), error.message);
  }
});

Deno.test("a usage key named __proto__ (or constructor, toString) is kept when a row is read and written", async () => {
  const [{ path, text }] = await referenceRows();
  const usage = '"usage": {\n    "__proto__": 7,\n    "constructor": 1,\n    "toString": 2\n  }';
  const edited = text.replace(/"usage": \{[^}]*\}/, usage);
  assert(edited !== text);
  const row = parseAnswerRow(edited, path);
  assertEquals(Object.keys(row.usage), ["__proto__", "constructor", "toString"]);
  assertEquals(Object.getOwnPropertyDescriptor(row.usage, "__proto__")?.value, 7);
  assertEquals(answerRowJson(row), edited);
  // Its value is checked like any other count's.
  const error = assertThrows(
    () => parseAnswerRow(edited.replace('"__proto__": 7', '"__proto__": 7.5'), path),
    RowIntegrityError,
  );
  assertEquals(error.field, "usage.__proto__");
});
