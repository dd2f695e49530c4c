import { embeddedSources, loadContracts } from "../../lib/protocol/contracts.ts";
import { gradeAnswer } from "../../lib/qa/grading.ts";
import { qaSummary } from "../../lib/qa/accuracy_summary.ts";
import { parseGradedRows } from "../../lib/qa/graded_rows.ts";
import { qaStats } from "../../lib/qa/suite_stats.ts";
import { assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/cli.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const contracts = await loadContracts(embeddedSources());

Deno.test("the grader is blind by construction: two strings in", () => {
  assertEquals(gradeAnswer.length, 2);
});

Deno.test("published qa.summary.json and qa.stats.json re-derive byte for byte from the published rows", async () => {
  const rows = parseGradedRows(
    await Deno.readTextFile(`${PUBLISHED}/qa.rows.jsonl`),
    "qa.rows.jsonl",
    contracts.config,
  );
  assertEquals(rows.length, 90);
  assertEquals(qaSummary(rows, contracts.config), await Deno.readTextFile(`${PUBLISHED}/qa.summary.json`));
  assertEquals(qaStats(rows, contracts.config), await Deno.readTextFile(`${PUBLISHED}/qa.stats.json`));
});
