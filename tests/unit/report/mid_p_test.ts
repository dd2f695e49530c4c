/**
 * The mid-p beside the exact McNemar p (Fagerland et al. 2013): checked against an exact enumeration written
 * here, independently of the program's, and shown for the published run in every format.
 */
import { exactMcnemar, mcnemarMidP } from "../../../lib/qa/mod.ts";
import { reportHtml, reportJson, reportMarkdown, reportText } from "../../../lib/report/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";

/**
 * The mid-p by enumeration over every outcome x of X ~ Binomial(n, ½), exact in rationals over 2^n: the outcomes
 * as or less likely than the observed split count fully, except the observed split itself and its mirror, which
 * count half their probability each (an even split is its own mirror: counted fully and then less half of
 * itself twice). Returned as the numerator over 2^n.
 */
function enumeratedMidP(b: number, c: number): { numerator: bigint; n: number } {
  const n = b + c;
  const ways: bigint[] = [1n];
  for (let row = 1; row <= n; row++) {
    for (let k = row; k >= 1; k--) ways[k] = (ways[k] ?? 0n) + ways[k - 1];
  }
  const observed = ways[b];
  let twice = 0n; // twice the numerator, so halves stay integers
  for (let x = 0; x <= n; x++) {
    if (ways[x] > observed) continue;
    twice += x === b || x === n - b ? ways[x] : 2n * ways[x];
  }
  // The two-sided p counts both tails: for an even split the one observed outcome stands for both.
  if (b === c) twice = 2n * (1n << BigInt(n));
  return { numerator: twice / 2n, n };
}

function pairs(b: number, c: number): [boolean, boolean][] {
  return [...Array(b).fill([true, false]), ...Array(c).fill([false, true])];
}

Deno.test("mid-p equals the enumerated value and the exact p minus the observed split's probability, for every split of up to 40 discordant pairs", () => {
  for (let n = 0; n <= 40; n++) {
    for (let b = 0; b <= n; b++) {
      const c = n - b;
      const { numerator } = enumeratedMidP(b, c);
      const expected = Math.min(1, Number(numerator) / 2 ** n);
      assertEquals(mcnemarMidP(b, c), expected, `${b} vs ${c}`);
      if (b === c) continue;
      // Below an even split: the exact two-sided p less P(X = b), the probability of the observed split.
      let observed = 1;
      for (let k = 1; k <= Math.min(b, c); k++) observed = (observed * (n - k + 1)) / k;
      const exact = exactMcnemar(pairs(b, c)).p_value;
      assert(Math.abs(mcnemarMidP(b, c) - (exact - observed / 2 ** n)) <= 1e-15, `${b} vs ${c}`);
      assert(mcnemarMidP(b, c) < exact, `${b} vs ${c}: the mid-p is below the exact p`);
    }
  }
});

Deno.test("the published run: mid-p 0.000977 (1 vs 13) beside p 0.0018, in the text, Markdown, HTML and JSON", async () => {
  const report = await publishedReport();
  const official = report.suites.find((suite) => suite.name === "official")!;
  assertEquals([official.stats.mcnemar.only_first_correct, official.stats.mcnemar.only_second_correct], [
    1,
    13,
  ]);
  assertEquals(official.midP, 16 / 16384);
  assertStringIncludes(reportText(report), "exact McNemar p = 0.0018 (mid-p 0.000977) · difference +0.300");
  assertStringIncludes(
    reportMarkdown(report),
    "exact McNemar p = 0.0018 (mid-p 0.000977) · difference +0.300",
  );
  assertStringIncludes(reportHtml(report), "exact McNemar p = 0.0018 · mid-p 0.000977 ");
  const json = reportJson(report);
  assert(json.kind === "qa");
  assertEquals(json.suites.map((suite) => [suite.name, suite.mcnemar.p_value?.toFixed(4), suite.mid_p]), [
    ["official", "0.0018", 16 / 16384],
    ["synthetic", "0.1250", 0.0625],
    ["overall", "0.0001", 20 / 2 ** 18], // 1 vs 17: (2 · 1 + 18) / 2^18
  ]);
});
