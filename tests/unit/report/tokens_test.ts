/** The token bill on the published run, with and without prices. */
import { reportText } from "../../../lib/report/mod.ts";
import type { GradedRow } from "../../../lib/qa/mod.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";

Deno.test("the published run's bill: 86,342 prompt and 12,340 completion tokens; the cost at given prices", async () => {
  const report = await publishedReport({ prices: { input: 0.27, output: 1.1 } });
  const { total, byPolicy } = report.bill;
  assertEquals([total.prompt, total.completion, total.rows, total.attempts], [86342, 12340, 90, 90]);
  assertEquals(byPolicy.confidence.prompt + byPolicy["hybrid-v1"].prompt, 86342);
  assertEquals(total.cacheHit! + total.cacheMiss!, total.prompt);
  // 86,342 × 0.27 / 1e6 + 12,340 × 1.1 / 1e6
  assertEquals(total.cost!.toFixed(8), "0.03688634");
  const text = reportText(report);
  assertMatch(text, /total\s+90\s+90\s+86,342\s+12,340\s+2,560\s+83,782\s+\$0\.0369/);
  const unpriced = reportText(await publishedReport());
  assertStringIncludes(unpriced, "pass --price-input USD --price-output USD");
  assert(!unpriced.includes("$0."));
});

Deno.test("cache figures no row reports are shown as –, never as 0", async () => {
  const { tokenTotals, billSection } = await import("../../../lib/report/run/tokens.ts");
  const row = { attempts: 1, usage: { prompt_tokens: 10, completion_tokens: 2 } } as unknown as GradedRow;
  const totals = tokenTotals([row]);
  assertEquals([totals.cacheHit, totals.cacheMiss], [undefined, undefined]);
  const section = billSection({ byPolicy: { confidence: totals, "hybrid-v1": totals }, total: totals });
  assertEquals(section.tables[0].rows[2].slice(5), ["–", "–"]);
});
