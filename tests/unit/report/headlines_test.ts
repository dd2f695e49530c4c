/**
 * Headlines say exactly what was re-derived: a module policy run read without its module does not claim every
 * row re-derived; a suite with no cases shows no statistics.
 */
import {
  publishedComparisonHeading,
  publishedComparisonSections,
  reportHtml,
  reportText,
  sectionsText,
} from "../../../lib/report/mod.ts";
import { demoGradedRun } from "../../../lib/qa/mod.ts";
import { claimLines, claimOf } from "../../../lib/report/run/claim.ts";
import { suitesSection } from "../../../lib/report/run/suites.ts";
import { samplePolicyReport } from "../../../lib/report/run/samples.ts";
import { policySummaryGroups } from "../../../lib/policy/mod.ts";
import type { PolicyReport } from "../../../lib/report/run/run_report.ts";
import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";
import { comparePublished } from "../../../lib/report/compare/against_published.ts";

Deno.test("a module policy run read without its module: the claim says which rows were re-derived and which were not", () => {
  const sample = samplePolicyReport();
  const entries = ["confidence", "hybrid-v1", "recency"].flatMap((policy) =>
    [0, 1, 2].map(() => ({ ...sample.entries[0], policy }))
  );
  const report: PolicyReport = {
    ...sample,
    entries,
    groups: policySummaryGroups(entries),
    verification: {
      checks: [{ name: "rows recomputed", verdict: "pass" }],
      ok: true,
      rederived: true,
      bound: true,
      proved:
        "every confidence and hybrid-v1 row (recency's need --policy-module m.ts) recomputed from the pinned dataset byte for byte",
    },
  };
  const checked = claimOf(report).checked;
  assert(!checked.startsWith("The 9 rows"), checked);
  assertStringIncludes(checked, "The 6 rows of confidence and hybrid-v1 were re-derived with --dataset");
  assertStringIncludes(
    checked,
    "the 3 rows of recency are taken as recorded: re-derive them with --policy-module",
  );
});

Deno.test("a suite with no cases shows no p, no difference and no interval: in the claim and in the suites table", async () => {
  const published = await publishedReport();
  const empty = published.suites[0];
  const stats = {
    ...empty.stats,
    cases: 0,
    mcnemar: { ...empty.stats.mcnemar, only_first_correct: 0, only_second_correct: 0, p_value: 1 },
    bootstrap: { ...empty.stats.bootstrap, mean_difference: 0, lower: 0, upper: 0 },
  };
  const report = {
    ...published,
    suites: [{ ...empty, stats, correct: { confidence: 0, "hybrid-v1": 0 } }, ...published.suites.slice(1)],
  };
  const lines = claimLines(claimOf(report));
  const at = lines.findIndex((line) => line.includes("(0 cases)"));
  assert(at >= 0, lines.join("\n"));
  assert(!lines[at + 1].includes("McNemar"), lines[at + 1]);
  const table = suitesSection(report).tables[0];
  const row = table.rows[0];
  assertEquals(row.slice(-3), ["–", "–", "–"]);
  assert(!reportText(report).includes("p = 1.0000"));
  // The forest plot draws no point for it.
  const html = reportHtml(report);
  assert(!html.includes(`<title>${lines[at].split(" (")[0]}: `), "no point for the empty suite");
  assertStringIncludes(html, ">no cases</text>");
});

Deno.test("report A --against B names B by what it is: 'published' only when B is the published run", async () => {
  const { rows, contracts } = await demoGradedRun();
  const candidateRows = rows.map((row) =>
    row.policy === "confidence" ? row : { ...row, policy: "copy", row_id: `${row.case_id}__copy` }
  );
  const run = { directory: "runs/a", policies: ["confidence", "copy"] as const };
  const other = comparePublished(run, candidateRows, "runs/b", rows, contracts.config.statistics, false);
  const text = sectionsText(publishedComparisonHeading(other), publishedComparisonSections(other));
  assert(!/published/i.test(text), text.split("\n").filter((line) => /published/i.test(line)).join("\n"));
  assertStringIncludes(publishedComparisonHeading(other), "against run runs/b");
  const published = comparePublished(run, candidateRows, "results/x", rows, contracts.config.statistics);
  assertStringIncludes(publishedComparisonHeading(published), "against the published run results/x");
});
