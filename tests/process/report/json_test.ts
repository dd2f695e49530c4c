/** report --json: the report's data as one schema'd document, each figure the text report shows. */
import { buildReport, reportJson } from "../../../lib/report/mod.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { publishedReport } from "../../helpers/published.ts";
import { PolicyReportJson, QaReportJson, SweepReportJson } from "../../../lib/report/render/json.ts";

const CLI = { flags: taskFlags("cli") };

Deno.test("report --json on the published run: 23/40 vs 35/40, p 0.0018, and every section of the text report", async () => {
  const result = await runCli(["report", "--json"], CLI);
  assertEquals(result.code, 0, result.stderr);
  const document = QaReportJson.parse(JSON.parse(result.stdout));
  assertEquals(document.directory, "results/pr4789-reproduction-v1");
  const official = document.suites.find((suite) => suite.name === "official")!;
  assertEquals([official.cases, official.correct], [40, { confidence: 23, "hybrid-v1": 35 }]);
  assertEquals(official.mcnemar.p_value?.toFixed(4), "0.0018");
  assertEquals([official.bootstrap.lower, official.bootstrap.upper].map((value) => value?.toFixed(3)), [
    "0.150",
    "0.450",
  ]);
  assert(document.verification.ok);
  assertEquals(document.discordant.length, 18);
  assertEquals(document.discordant.filter((item) => item.won_by === "hybrid-v1").length, 17);
  assertEquals([document.tokens.total.rows, document.tokens.total.prompt], [90, 86342]);
  assertEquals([document.tokens.prices, document.tokens.total.cost_usd], [null, null]);
  assertEquals(document.scenarios.length, 5 * 2); // (source, scenario) groups × policies
  assert(document.provenance.length > 0);
  // The same figures the library's report holds, one key per figure.
  assertEquals(
    document,
    QaReportJson.parse(JSON.parse(JSON.stringify(reportJson({
      ...await publishedReport(),
      directory: "results/pr4789-reproduction-v1",
    })))),
  );
});

Deno.test("report --json with prices: the cost; full answers, never shortened", async () => {
  const document = QaReportJson.parse(
    reportJson(await publishedReport({ prices: { input: 0.27, output: 1.1 } })),
  );
  assertEquals(document.tokens.prices, { input_usd_per_million: 0.27, output_usd_per_million: 1.1 });
  assert(document.tokens.total.cost_usd! > 0);
  const longest = Math.max(
    ...document.discordant.flatMap((item) =>
      Object.values(item.answers).map((answer) => answer.prediction.length)
    ),
  );
  assert(longest > 28, `${longest}`); // the text table cuts answers at 28 characters
});

Deno.test("report --json on a policy run and on a sweep; refused with --against", async () => {
  const fixture = await fixtureContracts();
  const policy = PolicyReportJson.parse(
    reportJson(await buildReport(`${GOLDEN}/fixture-run/policy`, fixture)),
  );
  assertEquals(policy.retention.length, 5 * 3 * 2); // scenarios × capacities × policies
  await withTempDir(async (directory) => {
    const grid = `${directory}/grid.yaml`;
    await Deno.writeTextFile(
      grid,
      "weights_step: 0.05\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\n" +
        "correction_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [7]\n",
    );
    const out = `${directory}/sweep`;
    const made = await runCli(
      ["sweep", ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET, "--output-dir", out, "--grid", grid],
      CLI,
    );
    assertEquals(made.code, 0, made.stderr);
    const result = await runCli(["report", out, "--json", ...fixtureProtocolFlags()], CLI);
    assertEquals(result.code, 0, result.stderr);
    const sweep = SweepReportJson.parse(JSON.parse(result.stdout));
    assertEquals([sweep.sweep.grid_points, sweep.sweep.rows], [231, 1155]);
    // +18 at capacity 7, 45 vs 27 supports, as run-policy's retention table says.
    assertEquals(
      sweep.published.points.map((point) => [point.capacity, point.difference, point.hybrid_v1_retained]),
      [[7, 18, 45]],
    );
    assert(sweep.verification.ok);
    const against = await runCli(["report", out, "--json", "--against", out], CLI);
    assertEquals(against.code, 2);
    assertMatch(against.stderr, /--json reports one run; --against compares in text, Markdown and HTML/);
  });
});

Deno.test("report --json --markdown FILE: standard output is the JSON document alone, `wrote FILE` on standard error", async () => {
  await withTempDir(async (directory) => {
    for (const [flag, name] of [["--markdown", "r.md"], ["--html", "r.html"]]) {
      const path = `${directory}/${name}`;
      const result = await runCli(["report", "--json", flag, path], CLI);
      assertEquals(result.code, 0, result.stderr);
      QaReportJson.parse(JSON.parse(result.stdout)); // the whole of standard output parses
      assertEquals(result.stderr, `wrote ${path}\n`);
      assert((await Deno.stat(path)).isFile);
    }
  });
});
