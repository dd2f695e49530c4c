import { buildReport, compareRuns, comparisonSections, sectionsText } from "../../../lib/report/mod.ts";
import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { InputError } from "../../../lib/base/errors.ts";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../../helpers/assert.ts";
import { GOLDEN, ROOT, withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts } from "../../helpers/fixture.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const QA_FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"];
const contracts = await loadContracts(embeddedSources());

async function copyPublished(directory: string): Promise<void> {
  for (const name of QA_FILES) await Deno.copyFile(`${PUBLISHED}/${name}`, `${directory}/${name}`);
}

Deno.test("a run against itself: every layer identical", async () => {
  const report = await buildReport(PUBLISHED, contracts);
  const comparison = await compareRuns(report, report);
  assertEquals(comparison.verdicts.map((verdict) => [verdict.layer, verdict.identical]), [
    ["aggregate", true],
    ["row", true],
    ["byte", true],
  ]);
  assertEquals(comparison.rowDifferences, []);
  assertEquals(comparison.fieldAgreement.map((item) => [item.field, item.agree, item.differ]), [
    ["kept_fact_ids", 90, 0],
    ["request_fingerprint", 90, 0],
    ["prediction", 90, 0],
    ["grade", 90, 0],
  ]);
  assertEquals(comparison.files.map((file) => file.status), [
    "identical",
    "identical",
    "identical",
    "identical",
  ]);
  const text = sectionsText("comparison", comparisonSections(comparison));
  assertStringIncludes(text, "= row: identical: all 90 rows agree in every compared field");
  assertStringIncludes(text, "= byte: identical: qa.rows.jsonl, qa.summary.json, qa.stats.json, qa_run.json");
});

Deno.test("against a copy with one prediction changed: the row is named, aggregates stay identical", async () => {
  await withTempDir(async (directory) => {
    await copyPublished(directory);
    const rows = await Deno.readTextFile(`${directory}/qa.rows.jsonl`);
    const changed = rows.replace('"prediction": "25"', '"prediction": "26"');
    assert(changed !== rows);
    await Deno.writeTextFile(`${directory}/qa.rows.jsonl`, changed);
    const comparison = await compareRuns(
      await buildReport(PUBLISHED, contracts),
      await buildReport(directory, contracts),
    );
    assertEquals(comparison.verdicts.map((verdict) => verdict.identical), [true, false, false]);
    assertEquals(comparison.rowDifferences, [
      { rowId: "01493427__confidence", fields: ["prediction"], mine: '"25"', theirs: '"26"' },
    ]);
    assertEquals(comparison.files.find((file) => file.file === "qa.rows.jsonl")!.status, "differs");
    assertEquals(comparison.files.filter((file) => file.status === "identical").length, 3);
    const text = sectionsText("comparison", comparisonSections(comparison));
    assertStringIncludes(text, "≠ row: 89 of 90 rows agree; 1 differ");
    assertStringIncludes(text, "01493427__confidence");
  });
});

Deno.test("against a run with a different grade: the aggregate layer shows both numbers and the difference", async () => {
  const fixture = await fixtureContracts();
  const published = await buildReport(PUBLISHED, contracts);
  await withTempDir(async (directory) => {
    for (const name of QA_FILES) {
      await Deno.copyFile(`${GOLDEN}/fixture-run/qa/${name}`, `${directory}/${name}`);
    }
    // The fixture run is a different protocol: compare its report (under its own contracts) with the published one.
    const other = await buildReport(directory, fixture);
    const comparison = await compareRuns(published, other);
    assertEquals(comparison.verdicts[0].identical, false);
    const official = comparison.aggregate.rows.filter((row) => row[0] === "longmemeval");
    assertEquals(official[0], ["longmemeval", "confidence correct", "23", "20", "-3"]);
    assertEquals(official[1], ["longmemeval", "hybrid-v1 correct", "35", "30", "-5"]);
    assertEquals(comparison.files.every((file) => file.status === "differs"), true);
  });
});

Deno.test("policy runs compare by case, capacity and policy; a QA run and a policy run cannot be compared", async () => {
  const fixture = await fixtureContracts();
  const policy = await buildReport(`${GOLDEN}/fixture-run/policy`, fixture);
  const comparison = await compareRuns(policy, policy);
  assertEquals(comparison.verdicts.map((verdict) => verdict.identical), [true, true, true]);
  assertEquals(comparison.fieldAgreement[0], { field: "kept_fact_ids", agree: 270, differ: 0 });
  const qa = await buildReport(`${GOLDEN}/fixture-run/qa`, fixture);
  await assertRejects(
    () => compareRuns(qa, policy),
    InputError,
    "cannot compare a qa run with a policy run",
  );
});
