import { checkVectorText } from "../../../lib/conformance/mod.ts";
import { VectorFormatError } from "../../../lib/conformance/mod.ts";
import { assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { GOLDEN } from "../../helpers/cli.ts";

const VECTORS = `${GOLDEN}/vectors`;

Deno.test("an altered expected value fails and names the line and field", async () => {
  const lines = (await Deno.readTextFile(`${VECTORS}/grader.jsonl`)).split("\n");
  const record = JSON.parse(lines[41]);
  record.expected = record.expected.error
    ? { correct: true, rule: "exact" }
    : { ...record.expected, correct: !record.expected.correct };
  lines[41] = JSON.stringify(record);
  const report = await checkVectorText("grader.jsonl", lines.join("\n"));
  assertEquals(report.total - report.passed, 1);
  assertEquals(report.mismatches[0].line, 42);
  assertMatch(report.mismatches[0].field, /^expected\./);
});

Deno.test("a malformed line is a format error naming the file and line", async () => {
  const text = '{"expected": "3fe6666666666666", "input": 0.7}\n{"input": 1}\n';
  const error = await assertRejects(() => checkVectorText("bounded-number.jsonl", text), VectorFormatError);
  assertMatch(error.message, /bounded-number\.jsonl: line 2: expected: missing field/);
  await assertRejects(
    () => checkVectorText("grader.jsonl", "{not json\n"),
    VectorFormatError,
    "line 1: not valid JSON",
  );
});
