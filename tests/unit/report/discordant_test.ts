/** The discordant-cases section on the published run. */
import { reportText } from "../../../lib/report/mod.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";

Deno.test("the published run's 18 discordant cases: 17 won by hybrid-v1; 1cea1afa lost with the support kept by both", async () => {
  const report = await publishedReport();
  assertEquals(report.discordant.length, 18);
  assertEquals(report.discordant.filter((item) => item.winner === "hybrid-v1").length, 17);
  const lost = report.discordant.filter((item) => item.winner === "confidence");
  assertEquals(lost.map((item) => [item.caseId, item.scenario]), [["1cea1afa", "confidence_control"]]);
  assertEquals(lost[0].rows.confidence.support_all_retained, true);
  assertEquals(lost[0].rows["hybrid-v1"].support_all_retained, true);
  assertEquals([lost[0].rows.confidence.prediction, lost[0].rows["hybrid-v1"].prediction], [
    "600",
    "INSUFFICIENT",
  ]);
  // Every hybrid-v1 win but that one is a case confidence evicted the support of, or a synthetic correction.
  for (const item of report.discordant.filter((entry) => entry.winner === "hybrid-v1")) {
    assertEquals(item.rows.confidence.support_all_retained, false, item.caseId);
  }
  const text = reportText(report);
  assertStringIncludes(text, "18 cases graded differently: 17 won by hybrid-v1, 1 won by confidence");
  assertMatch(
    text,
    /1cea1afa\s+confidence_control\s+confidence\s+yes \/ yes\s+600\s+INSUFFICIENT\s+exact \/ insufficient/,
  );
});
