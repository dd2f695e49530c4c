/** The suites section: the published run's headline numbers, as values and as terminal text. */
import { formatSigned, reportText } from "../../../lib/report/mod.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";

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
