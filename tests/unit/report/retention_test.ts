/** The retention-against-accuracy section on the published run. */
import { assertEquals } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";

Deno.test("the published run's retention against accuracy: the official suite per policy", async () => {
  const report = await publishedReport();
  const official = report.retention.filter((item) => item.suite === "official");
  assertEquals(official.map((item) => [item.policy, item.retained, item.lost]), [
    ["confidence", { cases: 26, correct: 23 }, { cases: 14, correct: 0 }],
    ["hybrid-v1", { cases: 40, correct: 35 }, { cases: 0, correct: 0 }],
  ]);
});
