/** The report's verification step: what it proved, and a QA directory without its marker. */
import { buildReport, reportText } from "../../../lib/report/mod.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { contracts, copyDirectory, PUBLISHED, publishedReport, QA_FILES } from "../../helpers/published.ts";

Deno.test("the report states what verify proved, and says what needs --dataset", async () => {
  const report = await publishedReport();
  assert(report.verification.ok);
  assert(report.verification.checks.length >= 4);
  assertMatch(report.verification.proved, /need --dataset/);
  const text = reportText(report);
  assertMatch(text, /VERIFICATION\n( {2}✓ .*\n){4,}( {2}– .* — needs --dataset\n){3} {2}proved: /);
});

Deno.test("a QA directory without qa_run.json is reported, saying it is not bound to artifact hashes", async () => {
  await withTempDir(async (directory) => {
    await copyDirectory(PUBLISHED, directory, QA_FILES.filter((name) => name !== "qa_run.json"));
    const report = await buildReport(directory, contracts);
    assert(report.kind === "qa" && report.verification.ok);
    assertMatch(report.verification.proved, /no qa_run\.json/);
    assertEquals(Object.fromEntries(report.provenance.entries).artifacts, "not recorded (no qa_run.json)");
  });
});
