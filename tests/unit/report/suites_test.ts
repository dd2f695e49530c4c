/** The suites section: the published run's headline numbers, as values and as terminal text. */
import { reportHtml, reportJson, reportMarkdown, reportText } from "../../../lib/report/mod.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";
import { formatSigned } from "../../../lib/report/document/format.ts";
import { QaReportJson } from "../../../lib/report/render/json.ts";

Deno.test("the published run's suites: 23/40 vs 35/40 (p 0.0018, +0.300 [+0.150, +0.450]), 1/5 vs 5/5, 24/45 vs 40/45", async () => {
  const report = await publishedReport();
  const suite = (name: string) => report.suites.find((item) => item.name === name)!;
  const line = (name: string) => {
    const { correct, stats } = suite(name);
    return [
      `${correct.confidence}/${stats.cases}`,
      `${correct["hybrid-v1"]}/${stats.cases}`,
      stats.mcnemar.p_value.toFixed(4),
      `${formatSigned(stats.bootstrap.mean_difference)} [${formatSigned(stats.bootstrap.lower)}, ${
        formatSigned(stats.bootstrap.upper)
      }]`,
    ];
  };
  assertEquals(line("official"), ["23/40", "35/40", "0.0018", "+0.300 [+0.150, +0.450]"]);
  assertEquals(line("synthetic"), ["1/5", "5/5", "0.1250", "+0.800 [+0.400, +1.000]"]);
  assertEquals(line("overall"), ["24/45", "40/45", "0.0001", "+0.356 [+0.200, +0.511]"]);
  assertEquals(suite("official").stats.bootstrap.seed, 4789n);
  assertEquals(suite("official").stats.bootstrap.iterations, 10000);
  const text = reportText(report);
  assertMatch(
    text,
    /longmemeval\s+40\s+23\/40\s+35\/40\s+14\s+1\s+13\s+0\.0018\s+\+0\.300\s+\[\+0\.150, \+0\.450\]/,
  );
  assertMatch(text, /synthetic\s+5\s+1\/5\s+5\/5\s+4\s+0\s+4\s+0\.1250\s+\+0\.800/);
  assertMatch(text, /overall\s+45\s+24\/45\s+40\/45\s+18\s+1\s+17\s+0\.0001\s+\+0\.356/);
  assertStringIncludes(text, "seed 4789, 10,000 iterations, 95% percentile interval");
});

/** The published report with no synthetic cases (as a partial run's grading has) and an overall p of 3e-6. */
async function zeroCaseReport() {
  const report = await publishedReport();
  const suites = report.suites.map((suite) => {
    const { mcnemar, bootstrap } = suite.stats;
    if (suite.name === "overall") {
      return { ...suite, stats: { ...suite.stats, mcnemar: { ...mcnemar, p_value: 3e-6 } } };
    }
    if (suite.name !== "synthetic") return suite;
    const none = {
      both_correct: 0,
      both_wrong: 0,
      only_first_correct: 0,
      only_second_correct: 0,
      p_value: 1,
    };
    return {
      ...suite,
      correct: { confidence: 0, "hybrid-v1": 0 },
      stats: { cases: 0, mcnemar: none, bootstrap: { ...bootstrap, mean_difference: 0, lower: 0, upper: 0 } },
    };
  });
  return { ...report, suites };
}

Deno.test("a suite with no cases has no p, difference or interval in any format; p below 0.0001 is < 0.0001", async () => {
  const report = await zeroCaseReport();
  const text = reportText(report);
  assertMatch(text, /^ {2}synthetic \(0 cases\): no cases, no statistics$/m);
  assertMatch(text, /^ {4}exact McNemar p < 0\.0001 \(mid-p < 0\.0001\) · difference \+0\.356/m);
  assertMatch(text, /synthetic\s+0\s+0\/0\s+0\/0\s+0\s+0\s+0\s+–\s+–\s+–\n/);
  assertMatch(text, /overall\s+45\s+24\/45\s+40\/45\s+18\s+1\s+17\s+< 0\.0001\s+\+0\.356/);
  const markdown = reportMarkdown(report);
  assertStringIncludes(markdown, "- **synthetic** (0 cases): no cases, no statistics\n");
  assertStringIncludes(markdown, "exact McNemar p \\< 0.0001 (mid-p \\< 0.0001) · difference +0.356"); // < escaped
  const html = reportHtml(report);
  assertStringIncludes(html, "no cases, no statistics");
  assertStringIncludes(html, "exact McNemar p &lt; 0.0001");
  for (const output of [text, markdown, html]) {
    assert(!output.includes("0.0000"), "a p printed as 0.0000");
    assert(!output.includes("1.0000"), "a 0-case suite's p");
  }
  assert(!html.includes("<title>synthetic:"), "a 0-case suite drawn in the forest plot");
  const json = QaReportJson.parse(reportJson(report));
  const synthetic = json.suites.find((suite) => suite.name === "synthetic")!;
  assertEquals(synthetic.mcnemar.p_value, null);
  assertEquals([synthetic.bootstrap.mean_difference, synthetic.bootstrap.lower, synthetic.bootstrap.upper], [
    null,
    null,
    null,
  ]);
});
