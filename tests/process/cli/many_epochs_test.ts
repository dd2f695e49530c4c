/**
 * `report RUN RUN RUN` with K-run candidates: on the demo protocol at temperature 0.7 (its config edited in a
 * temporary copy) the stand-in answers three candidates with 3, 1 and 2 runs; the table tests each K-run row by
 * the exact sign-flip over its cases — the p, difference and interval `report DIR --json` gives that directory
 * — and the one-run row by exact McNemar as its qa.stats.json has it; Holm's adjustment is checked by hand; the
 * page (every format) opens with the SYNTHETIC notice, the verdict and what was checked, the HTML with its
 * chart, and the JSON validates against the shipped schema; a grade flipped in run 2 refuses the page.
 */

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { validate } from "../../helpers/json_schema.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";
import { ReportJson } from "../../../lib/report/render/json.ts";

const CLI = { flags: taskFlags("cli") };
const CANDIDATES = [["recency", 3], ["oldest", 1], ["first_ids", 2]] as const;

/** Holm's step-down adjustment written out here: rank, scale by the tests left, running maximum, cap 1. */
function holmByHand(pValues: readonly number[]): number[] {
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const adjusted: number[] = new Array(pValues.length);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

async function demoProtocol(directory: string): Promise<string[]> {
  const protocol = `${directory}/protocol`;
  await writeDemoProtocol(protocol, await buildDemoProtocol());
  const config = `${protocol}/configs/demo-synthetic-v1.yaml`;
  const text = await Deno.readTextFile(config);
  await Deno.writeTextFile(config, text.replace(/^ {2}temperature: 0$/m, "  temperature: 0.7"));
  return ["--protocol", protocol];
}

async function candidate(directory: string, protocol: string[], name: string, epochs: number) {
  const module = ["--policy-module", `${ROOT}tests/fixtures/policies/${name}.ts`];
  const ran = await runCli(
    ["run-qa", "--stand-in", ...protocol, ...module, "--epochs", String(epochs), "--output-dir", directory],
    { flags: taskFlags("run-qa") },
  );
  assertEquals(ran.code, 0, ran.stderr);
  const graded = await runCli(["grade-qa", ...protocol, ...module, "--output-dir", directory], CLI);
  assertEquals(graded.code, 0, graded.stderr);
}

interface Comparison {
  test: string;
  test_name: string;
  cases: number;
  candidate_runs: number;
  p: number;
  mcnemar_p?: number;
  holm_p: number;
  difference: { mean_difference: number; lower: number; upper: number };
}

Deno.test("report of K-run candidates (3, 1 and 2 runs): the case-level p per K-run row, McNemar for one run, Holm by hand, notices, verdict, checks and chart in every format", async () => {
  await withTempDir(async (directory) => {
    const protocol = await demoProtocol(directory);
    const runs = CANDIDATES.map(([name]) => `${directory}/${name}`);
    for (const [index, [name, epochs]] of CANDIDATES.entries()) {
      await candidate(runs[index], protocol, name, epochs);
    }
    const json = await runCli(["report", ...runs, ...protocol, "--json"], CLI);
    assertEquals(json.code, 0, json.stderr);
    const document = JSON.parse(json.stdout);
    const schema = JSON.parse(await Deno.readTextFile(`${ROOT}schemas/report.schema.json`));
    assertEquals(validate(schema, document), []);
    assert(ReportJson.safeParse(document).success);
    assertEquals(document.kind, "many-candidates");
    assertMatch(document.notices[0], /^SYNTHETIC /);
    assertStringIncludes(document.notices[0], "stand-in");

    const byDirectory = new Map<string, Comparison>(
      document.candidates.map((entry: { directory: string; against_baseline: Comparison }) => [
        entry.directory,
        entry.against_baseline,
      ]),
    );
    for (const [index, [, epochs]] of CANDIDATES.entries()) {
      const row = byDirectory.get(runs[index])!;
      assertEquals([row.cases, row.candidate_runs], [45, epochs]);
      if (epochs === 1) {
        // One run: exact McNemar, the numbers of its own qa.stats.json.
        const stats = JSON.parse(await Deno.readTextFile(`${runs[index]}/qa.stats.json`)).suites.overall;
        assertEquals([row.test, row.test_name], ["exact-mcnemar", "exact McNemar"]);
        assertEquals([row.p, row.mcnemar_p], [stats.mcnemar.p_value, stats.mcnemar.p_value]);
        const { mean_difference, lower, upper } = stats.bootstrap;
        assertEquals(row.difference, { mean_difference, lower, upper });
        continue;
      }
      // K runs: the directory's own case-level verdict, as `report DIR --json` gives it.
      const own = await runCli(["report", runs[index], ...protocol, "--json"], CLI);
      assertEquals(own.code, 0, own.stderr);
      const overall = JSON.parse(own.stdout).case_level.find((suite: { suite: string }) =>
        suite.suite === "overall"
      );
      assertEquals([row.test, row.test_name], ["exact-sign-flip", `exact sign-flip, ${epochs} runs`]);
      assertEquals(row.mcnemar_p, undefined);
      assertEquals(row.p, overall.p);
      assertEquals(
        [row.difference.mean_difference, row.difference.lower, row.difference.upper],
        [overall.difference, ...overall.interval],
      );
    }
    const rows = [...byDirectory.values()];
    assertEquals(rows.map((row) => row.holm_p), holmByHand(rows.map((row) => row.p)));
    const winners = document.candidates.filter((entry: { against_baseline: Comparison }) =>
      entry.against_baseline.holm_p <= 0.05 && entry.against_baseline.difference.mean_difference > 0
    ).map((entry: { candidate: string }) => entry.candidate);
    assertEquals(document.verdict.beat_baseline, winners);
    assertMatch(document.verdict.line, /^Verdict: /);
    assertStringIncludes(document.checked, "each of the 6 runs of the 3 candidates");

    const [markdown, html] = [`${directory}/m.md`, `${directory}/m.html`];
    const text = await runCli(["report", ...runs, ...protocol, "--markdown", markdown, "--html", html], CLI);
    assertEquals(text.code, 0, text.stderr);
    const lines = text.stdout.split("\n");
    assertMatch(lines[0], /^SYNTHETIC /);
    const heading = lines.indexOf("3 candidates against confidence");
    assert(heading > 0, text.stdout);
    assertEquals(lines[heading + 1].startsWith(document.verdict.line.slice(0, 30)), true, text.stdout);
    assertStringIncludes(text.stdout.replace(/\s+/g, " "), "Checked: each of the 6 runs");
    const md = await Deno.readTextFile(markdown);
    assertMatch(md, /^> \*\*SYNTHETIC /);
    assertStringIncludes(md, document.verdict.line);
    assertStringIncludes(md, "| exact sign-flip, 3 runs |");
    assertStringIncludes(md, "| exact McNemar |");
    const page = await Deno.readTextFile(html);
    assertMatch(page, /<title>SYNTHETIC/);
    assertStringIncludes(page, '<svg id="chart-candidates"');
    assertEquals(page.match(/<circle class="point"/g)?.length, 3);
    assertStringIncludes(page, "Verdict: ");

    // Every run is verified: one grade flipped in run 2 of the 3-run candidate refuses the page, naming that run.
    const rowsFile = `${runs[0]}/epoch-2/qa.rows.jsonl`;
    const graded = await Deno.readTextFile(rowsFile);
    await Deno.writeTextFile(rowsFile, graded.replace('"grade_correct": false', '"grade_correct": true'));
    const refused = await runCli(["report", ...runs, ...protocol], CLI);
    assertEquals(refused.code, 1, refused.stdout + refused.stderr);
    assertStringIncludes(refused.stderr, `deermem-eval report: ${runs[0]}/epoch-2: NOT verified`);
    assertEquals(refused.stdout, "");
  });
});
