/**
 * Every Markdown text `report` can write, read by a real GFM parser (micromark, test-only): each table a table
 * with its header's cell count in every row, each heading and sentence its own block.
 */
import {
  buildReport,
  compareRuns,
  comparisonHeading,
  comparisonSections,
  type QaReport,
  readSweepReport,
  reportMarkdown,
  sectionsMarkdown,
  sweepMarkdown,
} from "../../../lib/report/mod.ts";
import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256, sweepRecord } from "../../../lib/sweep/mod.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { GOLDEN, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts, fixtureTasks, REFERENCE_QA } from "../../helpers/fixture.ts";
import { gfmBlocks, gfmProblems } from "../../helpers/gfm.ts";
import { contracts, copyDirectory, PUBLISHED, publishedReport, QA_FILES } from "../../helpers/published.ts";
import { sweepReport } from "../../../lib/report/sweep/sweep.ts";

const PRICES = { input: 0.27, output: 1.1 };

/** Asserts `markdown` parses as GFM with no problem and holds at least `tables` tables. */
function assertGfm(markdown: string, tables: number, what: string): void {
  assertEquals(gfmProblems(markdown), [], what);
  const blocks = gfmBlocks(markdown);
  assert(blocks.tables.length >= tables, `${what}: ${blocks.tables.length} tables`);
  assertEquals(blocks.headings[0], { line: 1, depth: 1 }, what);
}

/** The published run with no cache figures in any row's usage (a server that does not cache). */
async function withoutCacheFigures<T>(body: (directory: string) => Promise<T>): Promise<T> {
  return await withTempDir(async (directory) => {
    await copyDirectory(PUBLISHED, directory, QA_FILES);
    const rows = await Deno.readTextFile(`${directory}/qa.rows.jsonl`);
    const stripped = rows.replace(/"prompt_cache_(hit|miss)_tokens": \d+, /g, "");
    assert(stripped !== rows && !stripped.includes("prompt_cache"));
    await Deno.writeTextFile(`${directory}/qa.rows.jsonl`, stripped);
    return await body(directory);
  });
}

Deno.test("GFM: the QA report with and without prices, with and without cache figures", async () => {
  for (const prices of [undefined, PRICES]) {
    const what = `prices ${prices !== undefined}`;
    assertGfm(reportMarkdown(await publishedReport({ prices })), 6, `${what}, cache figures`);
    await withoutCacheFigures(async (directory) => {
      const report = await buildReport(directory, contracts, { prices }) as QaReport;
      assert(report.bill.total.cacheHit === undefined);
      assertGfm(reportMarkdown(report), 6, `${what}, no cache figures`);
    });
  }
});

Deno.test("GFM: answers holding Markdown's punctuation and line breaks stay in their cells", async () => {
  const report = await publishedReport();
  const [first] = report.discordant;
  const odd = "a | b\n\n| c | `d` *e* <f> \\";
  const rows = Object.fromEntries(
    Object.entries(first.rows).map(([policy, row]) => [policy, { ...row, prediction: odd }]),
  );
  const markdown = reportMarkdown({
    ...report,
    discordant: [{ ...first, rows }, ...report.discordant.slice(1)],
  });
  assertGfm(markdown, 6, "odd answers");
});

Deno.test("GFM: a policy run's report", async () => {
  const fixture = await fixtureContracts();
  const report = await buildReport(`${GOLDEN}/fixture-run/policy`, fixture);
  assertEquals(report.kind, "policy");
  assertGfm(reportMarkdown(report), 2, "policy run");
});

Deno.test("GFM: a comparison, identical and with a differing row", async () => {
  const published = await publishedReport();
  const same = await compareRuns(published, published);
  assertGfm(sectionsMarkdown(comparisonHeading(same), comparisonSections(same)), 3, "identical");
  await withTempDir(async (directory) => {
    await copyDirectory(PUBLISHED, directory, QA_FILES);
    const rows = await Deno.readTextFile(`${directory}/qa.rows.jsonl`);
    await Deno.writeTextFile(
      `${directory}/qa.rows.jsonl`,
      rows.replace('"prediction": "25"', '"prediction": "2|6"'),
    );
    const differing = await compareRuns(published, await buildReport(directory, contracts));
    assertEquals(differing.rowDifferences.length, 1);
    assertGfm(sectionsMarkdown(comparisonHeading(differing), comparisonSections(differing)), 4, "differing");
  });
});

Deno.test("GFM: the sweep report is tables, not a code block", async () => {
  const fixture = await fixtureContracts();
  const protocol = await prepareProtocol(fixture, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  const grid = "weights_step: 0.05\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\n" +
    "correction_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7]\n";
  const result = runSweep(protocol, parseGrid(grid, "grid.yaml", fixture.config));
  const record = sweepRecord(
    result,
    fixture,
    protocol.dataset.sha256,
    "deermem-eval test",
    await sweepJsonlSha256(result),
  );
  const markdown = sweepMarkdown("/tmp/sweep", sweepReport(record, sweepJsonl(result), "/tmp/sweep"));
  assert(!markdown.includes("```"), markdown);
  assertGfm(markdown, 2, "sweep");
});

Deno.test("GFM checker: the breakages the issue found are each reported", () => {
  const shortHeader = "# r\n\n| a | b |\n| --- | --- | ---: |\n| 1 | 2 |\n";
  assertEquals(gfmProblems(shortHeader), [
    "line 3: a table line outside any table: | a | b |",
    "line 4: a table line outside any table: | --- | --- | ---: |",
    "line 5: a table line outside any table: | 1 | 2 |",
    "lines 3–5: one paragraph",
  ]);
  assertEquals(gfmProblems("# r\n\n| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n| 4 |\n"), [
    "line 5: 3 cells under 2 headers",
    "line 6: 1 cells under 2 headers",
  ]);
  assertEquals(gfmProblems("# r\n## Discordant cases\n18 cases\nsupport kept\n"), [
    "lines 3–4: one paragraph",
  ]);
  assertEquals(gfmProblems("# r\n\n```text\n# in a code block\n```\n"), ["line 4: not a heading"]);
});

Deno.test("GFM: the sweep's published-parameters table holds the published point's counts", async () => {
  const fixture = await fixtureContracts();
  const protocol = await prepareProtocol(fixture, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  const grid = "weights_step: 0.05\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\n" +
    "correction_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [7]\n";
  const result = runSweep(protocol, parseGrid(grid, "grid.yaml", fixture.config));
  const record = sweepRecord(result, fixture, protocol.dataset.sha256, "t", await sweepJsonlSha256(result));
  const markdown = sweepMarkdown("s", sweepReport(record, sweepJsonl(result), "s"));
  // +18 at capacity 7, 45 vs 27 supports: run-policy's retention table for the fixture says so.
  assertStringIncludes(
    markdown,
    "## Published parameters\n\nweights 0.65/0.25/0.1, half-lives 90/30 d, reserve 0.1 up to 10\n\n",
  );
  assertStringIncludes(
    markdown,
    "| capacity | difference | hybrid-v1 | confidence |\n| ---: | ---: | ---: | ---: |\n| 7 | +18 | 45 | 27 |\n",
  );
});

Deno.test("GFM: a QA report re-derived with the dataset, and a verified sweep's report (its checks listed first)", async () => {
  const fixture = await fixtureContracts();
  const qa = await buildReport(REFERENCE_QA, fixture, { recomputed: { tasks: await fixtureTasks(fixture) } });
  assert(qa.verification.checks.every((check) => check.verdict === "pass"));
  assertGfm(reportMarkdown(qa), 6, "QA with the dataset");
  const protocol = await prepareProtocol(fixture, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  const result = runSweep(
    protocol,
    parseGrid("weights_step: 0.5\ncapacities: [5, 7]\n", "g.yaml", fixture.config),
  );
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/sweep.jsonl`, sweepJsonl(result));
    await Deno.writeTextFile(
      `${directory}/sweep.json`,
      sweepRecord(result, fixture, protocol.dataset.sha256, "t", await sweepJsonlSha256(result)),
    );
    const markdown = sweepMarkdown(directory, await readSweepReport(directory, fixture, protocol.cases));
    assertStringIncludes(markdown, "\n## Verification\n\n- ✓ sweep.json: ");
    assertStringIncludes(markdown, "\n- ✓ sweep.jsonl: its SHA-256 is the one sweep.json records\n");
    assertGfm(markdown, 2, "verified sweep"); // best and worst: the published weights are off a 0.5 grid
  });
});
