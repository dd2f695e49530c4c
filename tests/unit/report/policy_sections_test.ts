/** A policy run's sections: support retained and the cases where the policies keep different supports. */
import { evaluateAll } from "../../../lib/policy/mod.ts";
import { retentionTable } from "../../../lib/policy/mod.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { buildReport, reportText } from "../../../lib/report/mod.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { GOLDEN } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import type { PolicyReport } from "../../../lib/report/run/run_report.ts";

const FIXTURE_POLICY = `${GOLDEN}/fixture-run/policy`;

Deno.test("a policy run's report: the retention table equals the one run-policy prints for the recomputed run", async () => {
  const fixture = await fixtureContracts();
  const prepared = await prepareProtocol(fixture, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  const report = await buildReport(FIXTURE_POLICY, fixture, {
    recomputed: { cases: prepared.cases },
  }) as PolicyReport;
  assertEquals(report.kind, "policy");
  assert(report.verification.ok);
  assertMatch(report.verification.proved, /every row recomputed/);
  const table = retentionTable(evaluateAll(prepared.cases, fixture.config));
  assertStringIncludes(reportText(report), `\n${table}\n`);
  // Cases where the policies keep different supports, read from the reference's own rows.
  const raw = (await Deno.readTextFile(`${FIXTURE_POLICY}/policy.raw.jsonl`)).trim().split("\n").map((line) =>
    JSON.parse(line)
  );
  const expected = new Set<string>();
  for (const row of raw) {
    const other = raw.find((item) =>
      item.case_id === row.case_id && item.capacity === row.capacity && item.policy !== row.policy
    );
    if (row.support_all_retained && !other.support_all_retained) {
      expected.add(`${row.case_id}@${row.capacity}:${row.policy}`);
    }
  }
  assertEquals(
    new Set(report.differences.map((item) => `${item.caseId}@${item.capacity}:${item.keptBy}`)),
    expected,
  );
  assertEquals(report.differences.length, 43);
  assertStringIncludes(reportText(report), "22 cases, 43 case × capacity pairs");
});
