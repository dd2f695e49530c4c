/** The scenarios section on the published run. */
import { assertEquals } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";

Deno.test("the published run's scenarios: correct answers and support retained per policy", async () => {
  const report = await publishedReport();
  const accessHelp = report.scenarios.filter(({ group }) => group.scenario === "access_help")
    .map(({ group, retained }) => [group.policy, group.correct, retained]);
  assertEquals(accessHelp, [["confidence", 3, 3], ["hybrid-v1", 9, 10]]);
});
