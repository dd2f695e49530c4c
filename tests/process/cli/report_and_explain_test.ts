/** `report` and `explain` end to end, run as the `cli` task runs them (offline, no environment). */

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, ROOT, runCli, taskFlags, unwrap, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, REFERENCE_QA } from "../../helpers/fixture.ts";
import { runInTerminal } from "../../helpers/terminal.ts";
import { escapeHtml } from "../../../lib/report/document/html_escape.ts";
import { markdownEscape } from "../../../lib/report/render/markdown.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const QA_FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"];
const CLI = { flags: taskFlags("cli") };

async function copyPublished(directory: string): Promise<void> {
  for (const name of QA_FILES) await Deno.copyFile(`${PUBLISHED}/${name}`, `${directory}/${name}`);
}

async function listing(directory: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

Deno.test("report on the published run: verification, suites, discordant cases, bill, provenance", async () => {
  const result = await runCli(["report", "results/pr4789-reproduction-v1"], CLI);
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stderr, "");
  const out = unwrap(result.stdout);
  assertMatch(out, /^deermem-eval report: results\/pr4789-reproduction-v1 \(QA results\)\n/);
  assertMatch(out, /proved: .*need --dataset/);
  // Without the dataset the per-row checks did not run: never shown as passed.
  assertMatch(out, /\n {2}– every task has its row and every row is a task: .* — needs --dataset\n/);
  assertEquals(out.includes("✓ every task has its row"), false);
  // At 100 columns the suites' interval is a second group of columns, each row led by its suite.
  assertMatch(out, /\n {2}longmemeval\s+40\s+23\/40\s+35\/40\s+14\s+1\s+13\s+0\.0018\n/);
  assertMatch(out, /\n {2}longmemeval +\+0\.300 +\[\+0\.150, \+0\.450\]\n/);
  assertMatch(out, /synthetic\s+5\s+1\/5\s+5\/5\s+4\s+0\s+4\s+0\.1250/);
  assertMatch(out, /overall\s+45\s+24\/45\s+40\/45\s+18\s+1\s+17\s+0\.0001/);
  assertStringIncludes(out, "18 cases graded differently: 17 won by hybrid-v1, 1 won by confidence");
  assertMatch(out, /1cea1afa\s+confidence_control\s+confidence\s+yes \/ yes/);
  assertMatch(out, /total\s+90\s+90\s+86,342\s+12,340/);
  assertMatch(out, /config_sha256\s+e0bcd1581be8457c614a4159b87304e54501d48a7e07990b02f1f6f8627fa026/);
});

Deno.test("report --price-input/--price-output adds the cost; one without the other, or a bad number, is refused", async () => {
  const priced = await runCli(
    ["report", PUBLISHED, "--price-input", "0.27", "--price-output", "1.10"],
    CLI,
  );
  assertEquals(priced.code, 0, priced.stderr);
  assertMatch(priced.stdout, /total\s+90\s+90\s+86,342\s+12,340\s+2,560\s+83,782\s+\$0\.0369/);
  const half = await runCli(["report", PUBLISHED, "--price-input", "0.27"], CLI);
  assertEquals([half.code, half.stdout], [2, ""]);
  assertStringIncludes(half.stderr, "--price-input and --price-output go together");
  const bad = await runCli(["report", PUBLISHED, "--price-input", "cheap", "--price-output", "1"], CLI);
  assertEquals(bad.code, 2);
  assertStringIncludes(
    bad.stderr,
    '--price-input: expected a non-negative number of USD per million tokens, got "cheap"',
  );
});

Deno.test("report --markdown and --html write both files, atomically, and never over an existing file", async () => {
  await withTempDir(async (directory) => {
    const result = await runCli(
      ["report", PUBLISHED, "--markdown", `${directory}/r.md`, "--html", `${directory}/r.html`],
      CLI,
    );
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes(result.stdout, `wrote ${directory}/r.md\nwrote ${directory}/r.html`);
    assertEquals(await listing(directory), ["r.html", "r.md"]);
    const markdown = await Deno.readTextFile(`${directory}/r.md`);
    assertMatch(markdown, /^# deermem-eval report: .*\n/);
    assertStringIncludes(markdown, "| longmemeval | 40 | 23/40 | 35/40 |");
    const html = await Deno.readTextFile(`${directory}/r.html`);
    assertMatch(html, /^<!DOCTYPE html>/);
    for (const id of ["chart-forest", "chart-accuracy", "chart-retention"]) {
      assertStringIncludes(html, `<svg id="${id}"`);
    }

    // Again: the HTML exists, so nothing is written (not even the Markdown under a new name).
    await Deno.writeTextFile(`${directory}/mine.html`, "mine\n");
    const refused = await runCli(
      ["report", PUBLISHED, "--markdown", `${directory}/new.md`, "--html", `${directory}/mine.html`],
      CLI,
    );
    assertEquals(refused.code, 2);
    assertStringIncludes(refused.stderr, `${directory}/mine.html: refusing to overwrite an existing file`);
    assertEquals(refused.stderr.trim().split("\n").length, 1);
    assertEquals(await listing(directory), ["mine.html", "r.html", "r.md"]);
    assertEquals(await Deno.readTextFile(`${directory}/mine.html`), "mine\n");

    const same = await runCli([
      "report",
      PUBLISHED,
      "--markdown",
      `${directory}/x`,
      "--html",
      `${directory}/x`,
    ], CLI);
    assertEquals(same.code, 2);
    assertStringIncludes(same.stderr, "--markdown and --html name the same file");
  });
});

Deno.test("report refuses a directory that does not verify, printing the checks and no numbers", async () => {
  await withTempDir(async (directory) => {
    await copyPublished(directory);
    const stats = await Deno.readTextFile(`${directory}/qa.stats.json`);
    await Deno.writeTextFile(
      `${directory}/qa.stats.json`,
      stats.replace('"p_value": 0.125', '"p_value": 0.0125'),
    );
    const result = await runCli(["report", directory, "--markdown", `${directory}/r.md`], CLI);
    assertEquals(result.code, 1);
    assertEquals(result.stdout, "");
    assertStringIncludes(result.stderr, "✗ qa.stats.json: re-derived from the rows byte for byte");
    assertStringIncludes(result.stderr, `${directory}: does not verify`);
    assert(!result.stderr.includes("23/40"));
    assertEquals(await listing(directory), QA_FILES.slice().sort());
  });
});

Deno.test("report names what it cannot read: not a run directory, missing, extra arguments", async () => {
  await withTempDir(async (directory) => {
    const empty = await runCli(["report", directory], CLI);
    assertEquals(empty.code, 2);
    assertStringIncludes(empty.stderr, `${directory}: is neither a QA results directory`);
    assertEquals(empty.stderr.trim().split("\n").length, 1);
    const missing = await runCli(["report", `${directory}/absent`], CLI);
    assertEquals(missing.code, 2);
    assertStringIncludes(missing.stderr, "not found");
    const extra = await runCli(["report", PUBLISHED, "other"], CLI);
    assertEquals(extra.code, 2);
    // A second DIR is another candidate run for one table: one that is no run is refused in one line.
    assertEquals(
      extra.stderr,
      "deermem-eval report: other/qa_run.json: missing: not a run-qa output directory\n",
    );
  });
});

Deno.test("report --against: the published run against itself, and against a copy with one prediction changed", async () => {
  const self = await runCli(["report", PUBLISHED, "--against", PUBLISHED], CLI);
  assertEquals(self.code, 0, self.stderr);
  assertStringIncludes(self.stdout, "= aggregate: identical\n  = row: identical: all 90 rows agree");
  assertStringIncludes(
    self.stdout,
    "= byte: identical: qa.rows.jsonl, qa.summary.json, qa.stats.json, qa_run.json",
  );
  await withTempDir(async (directory) => {
    await copyPublished(directory);
    const rows = await Deno.readTextFile(`${directory}/qa.rows.jsonl`);
    await Deno.writeTextFile(
      `${directory}/qa.rows.jsonl`,
      rows.replace('"prediction": "5"', '"prediction": "five"'),
    );
    const result = await runCli([
      "report",
      PUBLISHED,
      "--against",
      directory,
      "--markdown",
      `${directory}/c.md`,
    ], CLI);
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes(result.stdout, "= aggregate: identical");
    assertStringIncludes(result.stdout, "≠ row: 89 of 90 rows agree; 1 differ");
    assertMatch(result.stdout, /06db6396__confidence\s+prediction\s+"5"\s+"five"/);
    assertMatch(result.stdout, /qa\.rows\.jsonl\s+differs \(first at byte \d+\)/);
    assertStringIncludes(
      await Deno.readTextFile(`${directory}/c.md`),
      "| 06db6396\\_\\_confidence | prediction |",
    );
  });
});

Deno.test("report --dataset on the reference's fixture run re-derives every row", async () => {
  const result = await runCli(
    ["report", REFERENCE_QA, ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET],
    CLI,
  );
  assertEquals(result.code, 0, result.stderr);
  assertMatch(result.stdout, /✓ every task has its row and every row is a task/);
  assertMatch(
    unwrap(result.stdout),
    /proved: every derivable field re-derived from the dataset; prediction \(as the model's text\), usage, attempts, response_model are recorded, not re-derivable/,
  );
  assertMatch(result.stdout, /longmemeval\s+40\s+20\/40\s+30\/40/);
});

Deno.test("report on a policy run: run-policy's retention table and the cases where supports differ", async () => {
  await withTempDir(async (directory) => {
    const run = await runCli(
      ["run-policy", ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET, "--output-dir", directory],
      CLI,
    );
    assertEquals(run.code, 0, run.stderr);
    const table = run.stdout.slice(0, run.stdout.indexOf("\nwrote "));
    const result = await runCli(
      [
        "report",
        directory,
        ...fixtureProtocolFlags(),
        "--dataset",
        FIXTURE_DATASET,
        "--html",
        `${directory}/r.html`,
      ],
      CLI,
    );
    assertEquals(result.code, 0, result.stderr);
    assertStringIncludes(result.stdout, "(policy run)");
    assertStringIncludes(result.stdout, "✓ policy.raw.jsonl recomputed from the dataset byte for byte");
    assertStringIncludes(result.stdout, `\n${table}\n`);
    assertStringIncludes(result.stdout, "22 cases, 43 case × capacity pairs");
    assertStringIncludes(await Deno.readTextFile(`${directory}/r.html`), '<svg id="chart-retention-7"');
    // Under the embedded protocol the run is refused in one line: its run.json names the fixture protocol.
    const other = await runCli(["report", directory], CLI);
    assertEquals([other.code, other.stdout], [2, ""]);
    assertStringIncludes(other.stderr, "run.json: made under another protocol: protocol_id");
  });
});

Deno.test("explain prints the pool under both policies; fact text only with --show-text; writes nothing", async () => {
  await withTempDir(async (directory) => {
    const args = ["explain", "05fdf179", ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET];
    const plain = await runCli([...args, "--output-dir", REFERENCE_QA], { ...CLI, cwd: directory });
    assertEquals(plain.code, 0, plain.stderr);
    assertStringIncludes(plain.stdout, "case 05fdf179: longmemeval, scenario confirmation_help");
    assertMatch(plain.stdout, /gold_05fdf179\s+support\s+context\s+0\.7000\s+6\s+·kk/);
    assertStringIncludes(
      plain.stdout,
      "support gold_05fdf179 under confidence: rank 6, evicted at capacity 5",
    );
    assertMatch(plain.stdout, /confidence\s+correct \(exact\)\s+"7"\s+\[qa\.rows\.jsonl\]/);
    assertStringIncludes(plain.stdout, "pass --show-text");
    // The text goes to a terminal only (tests/process/cli/terminal_test.ts: refused when piped).
    const shown = await runInTerminal([...args, "--show-text"], { cwd: directory, env: { NO_COLOR: "1" } });
    assertEquals(shown.code, 0, shown.stderr);
    assertMatch(shown.screen, /\n {2}question: \S/);
    assertMatch(shown.screen, /\n {2}gold_05fdf179: \S/);
    assertEquals(await listing(directory), []);
    const toFile = await runCli([...args, "--show-text", "--markdown", `${directory}/x.md`], CLI);
    assertEquals(toFile.code, 2);
    assertStringIncludes(toFile.stderr, "explain: unknown flag --markdown"); // explain takes no file flag
    assertEquals(await listing(directory), []);
  });
});

Deno.test("explain refuses an unknown case and a missing dataset, in one line", async () => {
  const unknown = await runCli(
    ["explain", "nope", ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET],
    CLI,
  );
  assertEquals(unknown.code, 2);
  assertStringIncludes(unknown.stderr, 'CASE_ID: no case "nope" in this protocol (it has 45 cases)');
  const noDataset = await runCli(["explain", "05fdf179"], CLI);
  assertEquals(noDataset.code, 2);
  assertStringIncludes(noDataset.stderr, "needs --dataset PATH");
});

Deno.test("demo ends with the QA report of its run, every row re-derived; its policy run keeps 27/45 vs 45/45", async () => {
  await withTempDir(async (directory) => {
    const result = await runCli(["demo", "--output-dir", `${directory}/out`], { flags: taskFlags("demo") });
    assertEquals(result.code, 0, result.stderr);
    const report = result.stdout.slice(result.stdout.indexOf("deermem-eval report:"));
    assertStringIncludes(report, `deermem-eval report: ${directory}/out (QA results)`);
    assertStringIncludes(report, "proved: every derivable field re-derived from the dataset");
    assertMatch(report, /PROVENANCE\n(?:.*\n)*? {2}protocol\s+deermem-demo-synthetic-v1/);
    const policy = await runCli([
      "report",
      `${directory}/out/policy`,
      "--protocol",
      `${directory}/out/protocol`,
    ], CLI);
    assertEquals(policy.code, 0, policy.stderr);
    assertStringIncludes(policy.stdout, "proved: every row recomputed from the pinned dataset byte for byte");
    assertMatch(policy.stdout, /capacity 7\n(?:.*\n)*? {2}all 45 cases\s+27\/45\s+45\/45/);
  });
});

/** Sweeps the fixture over a small grid (weight points `step` apart × capacities 5 and 7) into DIRECTORY/sweep. */
async function sweepOnFixture(directory: string, step = 0.5): Promise<{ out: string; stdout: string }> {
  const grid = `${directory}/grid.yaml`;
  await Deno.writeTextFile(
    grid,
    `weights_step: ${step}\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\n` +
      "correction_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7]\n",
  );
  const out = `${directory}/sweep`;
  const sweep = await runCli(
    ["sweep", ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET, "--output-dir", out, "--grid", grid],
    CLI,
  );
  assertEquals(sweep.code, 0, sweep.stderr);
  return { out, stdout: sweep.stdout };
}

/** The small sweep (six weight points × capacities 5 and 7): its directory. */
async function smallSweep(directory: string): Promise<string> {
  return (await sweepOnFixture(directory)).out;
}

Deno.test("report on a sweep directory carries the verdict sweep printed: text, Markdown and HTML", async () => {
  await withTempDir(async (directory) => {
    const sweep = await sweepOnFixture(directory, 0.05);
    const { out } = sweep;
    // What sweep printed after its count line, up to where it names what it wrote.
    const printed = unwrap(sweep.stdout).split("\n");
    const verdict = printed.slice(1, printed.findIndex((line) => line.startsWith("wrote ")));
    assert(verdict.some((line) => line.startsWith("published hybrid-v1: ")), sweep.stdout);
    assert(verdict.some((line) => /keeps (at least as many|fewer)/.test(line)), sweep.stdout);
    const result = await runCli(
      [
        "report",
        out,
        ...fixtureProtocolFlags(),
        "--markdown",
        `${directory}/s.md`,
        "--html",
        `${directory}/s.html`,
      ],
      CLI,
    );
    assertEquals(result.code, 0, result.stderr);
    const markdown = await Deno.readTextFile(`${directory}/s.md`);
    const html = await Deno.readTextFile(`${directory}/s.html`);
    const lines = unwrap(result.stdout).split("\n");
    assertEquals(lines.slice(2, 3 + verdict.length), [
      "VERDICT: THE PUBLISHED PARAMETERS ON THE GRID",
      ...verdict,
    ]);
    assertStringIncludes(markdown, "\n## Verdict: the published parameters on the grid\n");
    for (const line of verdict) {
      assertStringIncludes(markdown, `\n${markdownEscape(line)}\n`);
      assertStringIncludes(html, `>${escapeHtml(line.trim())}</li>`);
    }
    // In the HTML the verdict comes before the heat map.
    assert(html.indexOf('id="verdict"') < html.indexOf('id="heat-map"'));
  });
});

Deno.test("report on a sweep directory: best and worst grid points, Markdown with the table, HTML with the heat map", async () => {
  await withTempDir(async (directory) => {
    const out = await smallSweep(directory);
    const result = await runCli(
      ["report", out, "--markdown", `${directory}/s.md`, "--html", `${directory}/s.html`],
      CLI,
    );
    assertEquals(result.code, 0, result.stderr);
    // Six weight points on a 0.5 simplex × two capacities; five scenarios each.
    assertMatch(result.stdout, /^sweep of \S+ by deermem-eval \d+\.\d+\.\d+: 12 grid points, 60 rows\n/);
    assertStringIncludes(result.stdout, "\nbest 5 grid points (hybrid-v1 minus confidence");
    assertStringIncludes(result.stdout, "\nworst 5 grid points:");
    assertMatch(result.stdout, /wrote .*s\.md\nwrote .*s\.html\n$/);
    const markdown = await Deno.readTextFile(`${directory}/s.md`);
    // Tables, not a code block: the best points' header row and its delimiter.
    assertStringIncludes(markdown, "\n## Best 5 grid points\n");
    assertStringIncludes(markdown, "\n| difference | hybrid-v1 | confidence | capacity |");
    assert(!markdown.includes("```"));
    const html = await Deno.readTextFile(`${directory}/s.html`);
    assertStringIncludes(html, '<section id="best"><h2>Best 5 grid points</h2>');
    assert(!html.includes("<pre>"));
    assertStringIncludes(html, '<svg xmlns="http://www.w3.org/2000/svg"');
    for (
      const flag of [["--against", out], ["--price-input", "1", "--price-output", "1"], [
        "--policy-module",
        "m.ts",
      ]]
    ) {
      const refused = await runCli(["report", out, ...flag], CLI);
      assertEquals(refused.code, 2, flag[0]);
      assertMatch(
        unwrap(refused.stderr),
        /sweep\.json and sweep\.jsonl: --against, the prices and --policy-module do not apply/,
      );
    }
  });
});

Deno.test("report reads the default grid's sweep (tens of megabytes, past the 16 MiB cap on protocol inputs)", async () => {
  await withTempDir(async (directory) => {
    const out = `${directory}/sweep`;
    const sweep = await runCli(
      ["sweep", ...fixtureProtocolFlags(), "--dataset", FIXTURE_DATASET, "--output-dir", out],
      CLI,
    );
    assertEquals(sweep.code, 0, sweep.stderr);
    assert((await Deno.stat(`${out}/sweep.jsonl`)).size > 16 * 2 ** 20);
    const result = await runCli(["report", out], CLI);
    assertEquals(result.code, 0, result.stderr);
    assertMatch(
      result.stdout,
      /^sweep of \S+ by deermem-eval \d+\.\d+\.\d+: 41580 grid points, 207900 rows\n/,
    );
  });
});

Deno.test("report and verify on a sweep with one row's number edited (the row kept valid): refused, the file and row named", async () => {
  await withTempDir(async (directory) => {
    const out = await smallSweep(directory);
    const verified = await runCli(["verify", out, ...fixtureProtocolFlags()], CLI);
    assertEquals(verified.code, 0, verified.stdout + verified.stderr);
    assertMatch(unwrap(verified.stdout), /^✓ sweep\.jsonl: its SHA-256 is the one sweep\.json records$/m);
    assertMatch(
      unwrap(verified.stdout),
      /^sweep\.jsonl is the file sweep\.json records, .* need --dataset to be checked$/m,
    );
    const rows = (await Deno.readTextFile(`${out}/sweep.jsonl`)).split("\n");
    // Line 17 (second parameter set): one fewer support kept by hybrid-v1, its difference made to agree.
    const row = JSON.parse(rows[16]);
    rows[16] = rows[16]
      .replace(/"difference": -?\d+/, `"difference": ${row.difference - 1}`)
      .replace(/"hybrid_v1_retained": \d+/, `"hybrid_v1_retained": ${row.hybrid_v1_retained - 1}`);
    await Deno.writeTextFile(`${out}/sweep.jsonl`, rows.join("\n"));
    const report = await runCli(["report", out, ...fixtureProtocolFlags()], CLI);
    assertEquals(report.code, 1, report.stdout + report.stderr);
    assertEquals(report.stdout, "");
    assertMatch(
      report.stderr,
      /^✗ sweep\.jsonl: its SHA-256 is the one sweep\.json records — the file's is \w{64}, sweep\.json records \w{64}: the rows changed after sweep wrote them/m,
    );
    const named = await runCli(["report", out, "--dataset", FIXTURE_DATASET, ...fixtureProtocolFlags()], CLI);
    assertEquals(named.code, 1);
    const line = named.stderr.split("\n").filter((text) => text.includes(`${out}/sweep.jsonl: line 17`));
    assertEquals(line, [
      `✗ sweep.jsonl: every row's counts recomputed from the dataset (the sweep run again over its grid) — ${out}/sweep.jsonl: line 17: hybrid_v1_retained: file ${
        row.hybrid_v1_retained - 1
      }, recomputed ${row.hybrid_v1_retained}`,
    ]);
    const json = await runCli(["verify", out, "--json", ...fixtureProtocolFlags()], CLI);
    assertEquals(json.code, 1);
    const document = JSON.parse(json.stdout);
    assertEquals([document.kind, document.ok, document.directory], ["sweep", false, out]);
  });
});
