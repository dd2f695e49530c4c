import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { gradeAnswer } from "../../../lib/qa/grade/grading.ts";
import { qaSummary } from "../../../lib/qa/grade/accuracy_summary.ts";
import { parseGradedRows } from "../../../lib/qa/grade/graded_rows.ts";
import { qaStats, qaStatsSuites, suiteLines } from "../../../lib/qa/grade/suite_stats.ts";
import { graded } from "../../../lib/qa/grade/_samples.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/cli.ts";

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

Deno.test("a suite with no pair (only a partial run's grading has one) has zero cases and no difference, the others their figures", () => {
  const rows = [
    graded("q1", "confidence", false, "longmemeval"),
    graded("q1", "hybrid-v1", true, "longmemeval"),
  ];
  const stats = JSON.parse(qaStats(rows, contracts.config));
  assertEquals(stats.suites.synthetic.cases, 0);
  assertEquals(
    [stats.suites.synthetic.bootstrap.mean_difference, stats.suites.synthetic.mcnemar.p_value],
    [0, 1],
  );
  assertEquals([stats.suites.official.cases, stats.suites.official.bootstrap.mean_difference], [1, 1]);
});

Deno.test("grade-qa's suite lines: a suite with no cases says so and prints no p; a p below 0.0001 is p<0.0001", () => {
  const rows = [
    graded("q1", "confidence", false, "longmemeval"),
    graded("q1", "hybrid-v1", true, "longmemeval"),
  ];
  const suites = qaStatsSuites(rows, contracts.config);
  assertEquals(suiteLines(rows, suites), [
    "official: confidence 0/1, hybrid-v1 1/1, exact McNemar p=1.0000",
    "synthetic: no cases, no statistics",
    "overall: confidence 0/1, hybrid-v1 1/1, exact McNemar p=1.0000",
  ]);
  const tiny = {
    ...suites,
    overall: { ...suites.overall, mcnemar: { ...suites.overall.mcnemar, p_value: 3e-6 } },
  };
  assertEquals(suiteLines(rows, tiny)[2], "overall: confidence 0/1, hybrid-v1 1/1, exact McNemar p<0.0001");
});
