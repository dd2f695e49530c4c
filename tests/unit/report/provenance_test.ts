/** The provenance section on the published run. */
import { assertEquals, assertMatch } from "../../helpers/assert.ts";
import { contracts, publishedReport } from "../../helpers/published.ts";

Deno.test("the published run's provenance: protocol, models, artifact hashes, run date and tool", async () => {
  const report = await publishedReport();
  const provenance = Object.fromEntries(report.provenance.entries);
  assertEquals(provenance.protocol, "deermem-hybrid-v1-pr4789-reproduction-v1");
  assertEquals(provenance["configured model"], "deepseek-v4-flash");
  assertEquals(provenance["response models seen"], "deepseek-v4-flash (90 rows)");
  assertEquals(provenance.config_sha256, contracts.hashes.config);
  assertEquals(provenance.dataset_sha256, contracts.config.dataset.sha256);
  assertEquals(provenance["run date"], "2026-08-18T04:12:21.258451Z");
  assertMatch(provenance.tool, /git 01f99d61d3e068083978c72c43f5de67d2543c92 \(clean\)/);
});
