import { embeddedSources, loadContracts } from "../lib/contracts.ts";
import { loadDataset, parseRows, renderEvidence } from "../lib/dataset.ts";
import { sha256Hex } from "../lib/hash.ts";
import { generateDemoDataset } from "../lib/demo.ts";
import { DatasetIntegrityError } from "../lib/errors.ts";
import { parseOfficialManifest } from "../lib/manifest.ts";
import { buildPool } from "../lib/pool.ts";
import { prepareCases, recomputeSelection } from "../lib/cases.ts";
import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "./helpers/assert.ts";

const contracts = loadContracts(embeddedSources());
const selectionRule = contracts.official;

// deno-lint-ignore no-explicit-any
type Row = Record<string, any>;

function row(id: string, type: string, answer: unknown, evidenceText: string): Row {
  return {
    question_id: id,
    question_type: type,
    question: "Q?",
    answer,
    haystack_session_ids: ["s"],
    haystack_dates: ["d"],
    haystack_sessions: [[{ role: "user", content: evidenceText }]],
  };
}

function dataset(rows: Row[]) {
  return { sha256: "x", ...parseRows(rows, "test.json") };
}

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
  assertThrows(() => parseRows([row("", "x", "a", "e")], "d.json"), DatasetIntegrityError, "[0].question_id");
  assertThrows(
    () => parseRows([row("a", "x", "a", "e"), row("a", "x", "b", "e")], "d.json"),
    DatasetIntegrityError,
    "duplicate",
  );
  assertEquals(
    parseRows([row("a", "x", { b: [1, true], a: null }, "e")], "d.json").rows[0].answer,
    '{"a": null, "b": [1, true]}',
  );
});

function selectionRows(type: string, prefix: string, count: number): Row[] {
  return Array.from(
    { length: count },
    (_, index) => row(`${prefix}${String(index).padStart(3, "0")}`, type, "ans", "evidence"),
  );
}

Deno.test("selection drops pilots, _abs IDs, long or excluded answers and out-of-bound evidence, by code points", () => {
  const pilot = selectionRule.selection.excluded_pilot_ids[0];
  const rows = [
    ...selectionRows("knowledge-update", "k", 20),
    ...selectionRows("temporal-reasoning", "t", 20),
    row(pilot, "knowledge-update", "a", "e"),
    row("a000_abs", "knowledge-update", "a", "e"),
    row("a001", "knowledge-update", "x".repeat(101), "e"),
    row("a002", "knowledge-update", "It is NOT ENOUGH", "e"),
    row("a003", "knowledge-update", "  ", "e"),
    row("a004", "temporal-reasoning", "a", "e".repeat(2000)),
    // 100 code points but 102 UTF-16 units: still eligible (Python len).
    row("a005", "temporal-reasoning", "😀😀" + "x".repeat(98), "e"),
  ];
  const selected = recomputeSelection(dataset(rows), selectionRule);
  assertEquals(
    selected.get("knowledge-update")!.map((item) => item.questionId),
    selectionRows("knowledge-update", "k", 20).map((r) => r.question_id),
  );
  assertEquals(selected.get("temporal-reasoning")![0].questionId, "a005");
  assertEquals(selected.get("temporal-reasoning")!.length, 20);
});

Deno.test("selection: too few eligible rows is its own error", () => {
  const rows = [
    ...selectionRows("knowledge-update", "k", 19),
    ...selectionRows("temporal-reasoning", "t", 20),
  ];
  assertThrows(
    () => recomputeSelection(dataset(rows), selectionRule),
    DatasetIntegrityError,
    "only 19 eligible knowledge-update rows",
  );
});

Deno.test("selection: a manifest that differs from the recomputed IDs names the scenario and both lists", () => {
  const rows = generateDemoDataset();
  const data = dataset(rows);
  const manifest = structuredClone(selectionRule);
  const error = assertThrows(() => prepareCases(data, { ...contracts, official: manifest }));
  assert(error instanceof DatasetIntegrityError);
  assertMatch(
    error.message,
    /manifests\/longmemeval-pr4789-v1\.json: scenarios\.confirmation_help: recomputed selection .* differs from the pinned 01493427/,
  );
});

Deno.test("pools: metadata rules, IDs, timestamps and usage as the reference writes them", async () => {
  const demo = await (await import("../lib/demo.ts")).buildDemoProtocol();
  const official = parseOfficialManifest(demo.official, "demo.json");
  const data = dataset(JSON.parse(new TextDecoder().decode(demo.dataset)));
  const cases = prepareCases(data, {
    ...contracts,
    official: { ...official, protocol_id: contracts.config.protocol_id },
  });
  assertEquals(cases.length, 45);
  assertEquals(cases.map((item) => item.source).filter((source) => source === "synthetic").length, 5);
  const access = cases.find((item) => item.scenario === "access_help" && item.lossRank === 8)!;
  const pool = buildPool(access, contracts.config.evaluation_time);
  assertEquals(pool.facts.map((fact) => fact.id), [...pool.facts.map((fact) => fact.id)].sort());
  const gold = pool.facts.find((fact) => fact.id === `gold_${access.caseId}`)!;
  assertEquals(gold.confidence, 0.70);
  assertEquals(gold.createdAt, "2026-02-14T00:00:00Z");
  assertEquals(gold.source, `deermem-eviction-eval:${access.caseId}`);
  assertEquals(pool.usage[gold.id], {
    accessHeat: 8,
    accessCount: 8,
    lastAccessedAt: "2026-08-13T00:00:00Z",
  });
  const third = pool.facts.find((fact) => fact.id.startsWith(`d_${access.caseId}_3_`))!;
  assertEquals(third.confidence, 0.94 - 0.02 * 3);
  const eighth = pool.facts.find((fact) => fact.id.startsWith(`d_${access.caseId}_7_`))!;
  assertEquals(eighth.confidence, 0.68 - 0.02 * (7 - 7));
  const control = cases.find((item) => item.scenario === "confidence_control")!;
  const controlPool = buildPool(control, contracts.config.evaluation_time);
  const fifth = controlPool.facts.find((fact) => fact.id.startsWith(`d_${control.caseId}_5_`))!;
  assertEquals([fifth.confidence, fifth.lastConfirmedAt, fifth.confirmationCount], [
    0.70,
    "2026-08-06T00:00:00Z",
    1,
  ]);
  const sixth = controlPool.facts.find((fact) => fact.id.startsWith(`d_${control.caseId}_6_`))!;
  assertEquals(controlPool.usage[sixth.id]?.accessHeat, 8);
});

Deno.test("dataset bytes: invalid UTF-8 is refused; a genuine U+FFFD is kept and a leading BOM skipped (json.loads of bytes)", async () => {
  const encoder = new TextEncoder();
  const rowJson = (question: string) =>
    `[{"question_id": "q1", "question_type": "x", "question": "${question}", "answer": "a", ` +
    `"haystack_session_ids": [], "haystack_dates": [], "haystack_sessions": []}]`;
  const load = async (bytes: Uint8Array) => await loadDataset(bytes, "d.json", sha256Hex(bytes));
  const replacement = encoder.encode(rowJson("what \uFFFD?"));
  assertEquals((await load(replacement)).rows[0].question, "what \uFFFD?");
  const [before, after] = rowJson("what X?").split("X");
  const invalid = new Uint8Array([...encoder.encode(before), 0xff, ...encoder.encode(after)]);
  const error = await assertRejects(() => load(invalid), DatasetIntegrityError);
  assertMatch(error.message, /^d\.json: not valid JSON/);
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(rowJson("q"))]);
  assertEquals((await load(bom)).rows[0].questionId, "q1");
});
