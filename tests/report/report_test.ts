import { embeddedSources, loadContracts } from "../../lib/protocol/contracts.ts";
import { InputError } from "../../lib/base/errors.ts";
import { evaluateAll } from "../../lib/policy/mod.ts";
import { retentionTable } from "../../lib/policy/outputs.ts";
import {
  buildReport,
  detectRunKind,
  formatCount,
  formatSigned,
  NotVerifiedError,
  type PolicyReport,
  type QaReport,
  reportText,
  shorten,
  tableLines,
} from "../../lib/report/report.ts";
import { reportMarkdown } from "../../lib/report/markdown.ts";
import { prepareProtocol } from "../../lib/protocol/prepare.ts";
import { assert, assertEquals, assertMatch, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { GOLDEN, ROOT, withTempDir } from "../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../helpers/fixture.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const FIXTURE_POLICY = `${GOLDEN}/fixture-run/policy`;
const contracts = loadContracts(embeddedSources());

async function publishedReport(options: Parameters<typeof buildReport>[2] = {}): Promise<QaReport> {
  const report = await buildReport(PUBLISHED, contracts, options);
  assert(report.kind === "qa");
  return report;
}

async function copyDirectory(from: string, to: string, files: readonly string[]): Promise<void> {
  for (const name of files) await Deno.copyFile(`${from}/${name}`, `${to}/${name}`);
}

const QA_FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"];

Deno.test("the published run's suites: 23/40 vs 35/40 (p 0.0018, +0.300 [+0.150, +0.450]), 1/5 vs 5/5, 24/45 vs 40/45", async () => {
  const report = await publishedReport();
  const suite = (name: string) => report.suites.find((item) => item.name === name)!;
  const line = (name: string) => {
    const { correct, stats } = suite(name);
    return [
      `${correct.confidence}/${stats.cases}`,
      `${correct["hybrid-v1"]}/${stats.cases}`,
      stats.mcnemar.p_value.toFixed(4),
      `${formatSigned(stats.bootstrap.mean_difference)} [${formatSigned(stats.bootstrap.lower)}, ${
        formatSigned(stats.bootstrap.upper)
      }]`,
    ];
  };
  assertEquals(line("official"), ["23/40", "35/40", "0.0018", "+0.300 [+0.150, +0.450]"]);
  assertEquals(line("synthetic"), ["1/5", "5/5", "0.1250", "+0.800 [+0.400, +1.000]"]);
  assertEquals(line("overall"), ["24/45", "40/45", "0.0001", "+0.356 [+0.200, +0.511]"]);
  assertEquals(suite("official").stats.bootstrap.seed, 4789n);
  assertEquals(suite("official").stats.bootstrap.iterations, 10000);
  const text = reportText(report);
  assertMatch(
    text,
    /official\s+40\s+23\/40\s+35\/40\s+14\s+1\s+13\s+0\.0018\s+\+0\.300\s+\[\+0\.150, \+0\.450\]/,
  );
  assertMatch(text, /synthetic\s+5\s+1\/5\s+5\/5\s+4\s+0\s+4\s+0\.1250\s+\+0\.800/);
  assertMatch(text, /overall\s+45\s+24\/45\s+40\/45\s+18\s+1\s+17\s+0\.0001\s+\+0\.356/);
  assertStringIncludes(text, "seed 4789, 10,000 iterations, 95% percentile interval");
});

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

Deno.test("the published run's bill: 86,342 prompt and 12,340 completion tokens; the cost at given prices", async () => {
  const report = await publishedReport({ prices: { input: 0.27, output: 1.1 } });
  const { total, byPolicy } = report.bill;
  assertEquals([total.prompt, total.completion, total.rows, total.attempts], [86342, 12340, 90, 90]);
  assertEquals(byPolicy.confidence.prompt + byPolicy["hybrid-v1"].prompt, 86342);
  assertEquals(total.cacheHit + total.cacheMiss, total.prompt);
  // 86,342 × 0.27 / 1e6 + 12,340 × 1.1 / 1e6
  assertEquals(total.cost!.toFixed(8), "0.03688634");
  const text = reportText(report);
  assertMatch(text, /total\s+90\s+90\s+86,342\s+12,340\s+2,560\s+83,782\s+\$0\.0369/);
  const unpriced = reportText(await publishedReport());
  assertStringIncludes(unpriced, "pass --price-input USD --price-output USD");
  assert(!unpriced.includes("$0."));
});

Deno.test("the published run's scenarios, retention against accuracy and provenance", async () => {
  const report = await publishedReport();
  const accessHelp = report.scenarios.filter(({ group }) => group.scenario === "access_help")
    .map(({ group, retained }) => [group.policy, group.correct, retained]);
  assertEquals(accessHelp, [["confidence", 3, 3], ["hybrid-v1", 9, 10]]);
  const official = report.retention.filter((item) => item.suite === "official");
  assertEquals(official.map((item) => [item.policy, item.retained, item.lost]), [
    ["confidence", { cases: 26, correct: 23 }, { cases: 14, correct: 0 }],
    ["hybrid-v1", { cases: 40, correct: 35 }, { cases: 0, correct: 0 }],
  ]);
  const provenance = Object.fromEntries(report.provenance.entries);
  assertEquals(provenance.protocol, "deermem-hybrid-v1-pr4789-reproduction-v1");
  assertEquals(provenance["configured model"], "deepseek-v4-flash");
  assertEquals(provenance["response models seen"], "deepseek-v4-flash (90 rows)");
  assertEquals(provenance.config_sha256, contracts.hashes.config);
  assertEquals(provenance.dataset_sha256, contracts.config.dataset.sha256);
  assertEquals(provenance["run date"], "2026-08-18T04:12:21.258451Z");
  assertMatch(provenance.tool, /git 01f99d61d3e068083978c72c43f5de67d2543c92 \(clean\)/);
});

Deno.test("the report states what verify proved, and says what needs --dataset", async () => {
  const report = await publishedReport();
  assert(report.verification.ok);
  assert(report.verification.checks.length >= 4);
  assertMatch(report.verification.proved, /need --dataset/);
  const text = reportText(report);
  assertMatch(text, /VERIFICATION\n( {2}✓ .*\n){4,}( {2}– .* — needs --dataset\n){3} {2}proved: /);
});

Deno.test("report refuses a directory verify rejects, and shows no numbers", async () => {
  await withTempDir(async (directory) => {
    await copyDirectory(PUBLISHED, directory, QA_FILES);
    const summary = await Deno.readTextFile(`${directory}/qa.summary.json`);
    await Deno.writeTextFile(
      `${directory}/qa.summary.json`,
      summary.replace('"correct": 9,', '"correct": 10,'),
    );
    const error = await assertRejects(() => buildReport(directory, contracts), NotVerifiedError);
    assertEquals(error.verification.ok, false);
    const failed = error.verification.checks.filter((check) => check.verdict === "fail").map((check) =>
      check.name
    );
    assertEquals(failed, ["qa.summary.json: re-derived from the rows byte for byte"]);
  });
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

Deno.test("detectRunKind: QA results, a policy run, and neither", async () => {
  assertEquals(await detectRunKind(PUBLISHED), "qa");
  assertEquals(await detectRunKind(FIXTURE_POLICY), "policy");
  await withTempDir(async (directory) => {
    await assertRejects(() => detectRunKind(directory), InputError, "neither a QA results directory");
    await assertRejects(() => detectRunKind(`${directory}/absent`), InputError, "not found");
    await Deno.writeTextFile(`${directory}/file`, "x");
    await assertRejects(() => detectRunKind(`${directory}/file`), InputError, "is not a directory");
  });
});

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

Deno.test("the Markdown report carries the same tables as GFM", async () => {
  const markdown = reportMarkdown(await publishedReport());
  assertStringIncludes(markdown, "# deermem-eval report:");
  assertStringIncludes(markdown, "## Discordant cases");
  assertStringIncludes(
    markdown,
    "| official | 40 | 23/40 | 35/40 | 14 | 1 | 13 | 0.0018 | +0.300 | \\[+0.150, +0.450\\] |",
  );
  assertStringIncludes(markdown, "| --- | ---: |");
  assertStringIncludes(markdown, "| total | 90 | 90 | 86,342 | 12,340 |");
  assertMatch(markdown, /\n$/);
  assert(!markdown.endsWith("\n\n"));
});

Deno.test("formatting helpers: counts, signed differences, shortened predictions, aligned tables", () => {
  assertEquals(formatCount(86342), "86,342");
  assertEquals(formatCount(999), "999");
  assertEquals(formatCount(1234567), "1,234,567");
  assertEquals(formatSigned(0.30000000000000004), "+0.300");
  assertEquals(formatSigned(-0.0001), "+0.000");
  assertEquals(formatSigned(-0.25), "-0.250");
  assertEquals(shorten("a\n  b"), "a b");
  assertEquals(shorten("x".repeat(50), 10), `${"x".repeat(9)}…`);
  assertEquals(
    tableLines({ headers: ["a", "n"], rows: [["xy", "5"], ["z", "10"]], numeric: [false, true] }),
    [
      "  a    n",
      "  xy   5",
      "  z   10",
    ],
  );
});
