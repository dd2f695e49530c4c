/**
 * The many-candidate page in every format: the notices first (decided by content, as a run's report decides
 * them), the verdict sentence (which candidates beat the baseline after Holm at the protocol's alpha, checked
 * here by hand), the sentence of what was checked, the chart in HTML, and the JSON against the shipped schema.
 */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/cli.ts";
import { validate } from "../../helpers/json_schema.ts";
import { type CandidateRunInput, manyCandidates } from "../../../lib/report/compare/many_candidates.ts";
import { manyCandidatesJson, renderManyCandidates } from "../../../lib/report/compare/many_page.ts";
import { reportNotices } from "../../../lib/report/document/notices.ts";
import { ReportJson } from "../../../lib/report/render/json.ts";
import { buildDemoProtocol, prepareDemoProtocol } from "../../../lib/protocol/demo.ts";
import { STAND_IN_MODEL } from "../../../lib/protocol/mod.ts";

/** One run of `n` cases: the baseline right on the first `base`, the candidate on the first `cand`. */
function rowsOf(name: string, n: number, base: number, cand: number) {
  return Array.from({ length: n }, (_, index) => `c${String(index).padStart(2, "0")}`).flatMap((
    case_id,
    i,
  ) => [
    { case_id, policy: "confidence", grade_correct: i < base },
    { case_id, policy: name, grade_correct: i < cand },
  ]);
}

function run(name: string, n: number, base: number, cand: number): CandidateRunInput {
  return {
    directory: `runs/${name}`,
    baseline: "confidence",
    candidate: name,
    rows: rowsOf(name, n, base, cand),
  };
}

function kRun(name: string, n: number, base: number[], cand: number[]): CandidateRunInput {
  const epochs = base.map((right, index) => rowsOf(name, n, right, cand[index]));
  return { directory: `runs/${name}`, baseline: "confidence", candidate: name, rows: epochs[0], epochs };
}

const STATS = { bootstrap_seed: 4789, bootstrap_iterations: 2000, alpha: 0.05 };
const { contracts: demo } = await prepareDemoProtocol(await buildDemoProtocol());

// strong: 16 discordant pairs all its own (p = 2/2^16); weak: 2 of 2 (p = 0.5); worse: below the baseline.
const RUNS = [run("strong", 30, 5, 21), run("weak", 30, 5, 7), kRun("worse", 30, [10, 10], [6, 7])];

Deno.test("the many-candidate page: the verdict names the candidates that beat the baseline after Holm, checked by hand", () => {
  const table = manyCandidates(RUNS, STATS);
  // By hand: strong p = 2/2^16; worse's d = (−1, −2, −2, −2) on c06–c09, p = 2/2^4; weak 2 of 2, p = 0.5.
  // Holm: 3 · 2/65536, then 2 · 0.125 = 0.25, then 1 · 0.5 = 0.5. Only strong is ≤ 0.05 and above the baseline.
  const holm = (name: string) => table.rows.find((line) => line.candidate === name)!.holmP;
  assertEquals([holm("strong"), holm("worse"), holm("weak")], [3 * (2 / 65536), 0.25, 0.5]);
  const json = manyCandidatesJson(table);
  assertEquals(json.verdict.beat_baseline, ["strong"]);
  assertEquals(
    json.verdict.line,
    "Verdict: strong beats confidence after Holm's adjustment across the 3 candidates at alpha 0.05 " +
      "(a positive difference, Holm p ≤ 0.05).",
  );
  const none = manyCandidatesJson(manyCandidates([run("weak", 30, 5, 7), RUNS[2]], STATS));
  assertEquals(none.verdict.beat_baseline, []);
  assertEquals(
    none.verdict.line,
    "Verdict: no candidate beats confidence after Holm's adjustment across the 2 candidates at alpha 0.05.",
  );
  const two = manyCandidatesJson(manyCandidates([RUNS[0], run("also", 30, 5, 21)], STATS));
  assertMatch(two.verdict.line, /^Verdict: also and strong beat confidence /);
});

Deno.test("the many-candidate page says what was checked: each run verified, what was re-derived and what taken as recorded", () => {
  const one = manyCandidatesJson(manyCandidates([RUNS[0], RUNS[1]], STATS));
  assertEquals(
    one.checked,
    "Checked: each of the 2 candidate runs passed verify's structure-and-statistics checks — its summary and " +
      "statistics re-derived from its graded rows, the rows' form and its record checked; the grades and the " +
      "model's answers are taken as recorded (verify DIR --dataset re-derives the grades).",
  );
  const k = manyCandidatesJson(manyCandidates(RUNS, STATS, undefined, { reused: 90 }));
  assertMatch(
    k.checked,
    /^Checked: each of the 4 runs of the 3 candidates \(every run of a K-run candidate\) /,
  );
  assertMatch(k.checked, / 90 answer rows were taken from earlier runs, as their reuse\.json records\.$/);
  assertEquals(k.reused_rows, 90);
});

Deno.test("the many-candidate page opens with the notices in every format, decided by content", async () => {
  const notices = await reportNotices(demo, { responseModels: [STAND_IN_MODEL] });
  assertEquals(notices.map((notice) => notice.kind), ["synthetic"]);
  const table = manyCandidates(RUNS, STATS, undefined, { notices });
  const line = notices[0].line;
  const text = renderManyCandidates(table, "text").split("\n");
  assertEquals(text.slice(0, 4), [
    line,
    "3 candidates against confidence",
    manyCandidatesJson(table).verdict.line,
    manyCandidatesJson(table).checked,
  ]);
  const markdown = renderManyCandidates(table, "markdown");
  assert(markdown.startsWith(`> **SYNTHETIC data generated by deermem-eval`), markdown.slice(0, 80));
  assert(markdown.indexOf("Verdict: strong beats") < markdown.indexOf("| candidate |"));
  const html = renderManyCandidates(table, "html");
  assertMatch(
    html,
    /<title>SYNTHETIC · 3 candidates against confidence<\/title>|<title>SYNTHETIC[^<]*<\/title>/,
  );
  assert(html.indexOf("Verdict: strong beats") < html.indexOf("<table"), "the verdict before the table");
  const json = JSON.parse(renderManyCandidates(table, "json"));
  assertEquals(Object.keys(json).slice(0, 3), ["notices", "synthetic", "kind"]);
  assertEquals(json.notices, [line]);
  // The pinned protocol's page has none.
  const plain = manyCandidates(RUNS, STATS);
  assertEquals(renderManyCandidates(plain, "text").split("\n")[0], "3 candidates against confidence");
  assertEquals(JSON.parse(renderManyCandidates(plain, "json")).notices, undefined);
});

Deno.test("the many-candidate HTML page draws each candidate's difference and interval, at the table's numbers", () => {
  const table = manyCandidates(RUNS, STATS);
  const html = renderManyCandidates(table, "html");
  const svg = html.match(/<svg id="chart-candidates"[^]*?<\/svg>/)?.[0];
  assert(svg !== undefined, "the chart is on the page");
  assertMatch(svg, /viewBox="0 0 380 \d+"/); // drawn at a 390 px phone's width
  const points = [...svg.matchAll(/data-value="([^"]+)" data-lower="([^"]+)" data-upper="([^"]+)"/g)]
    .map((match) => match.slice(1).map(Number));
  assertEquals(
    points,
    table.rows.map((line) => [line.difference.mean_difference, line.difference.lower, line.difference.upper]),
  );
  for (const line of table.rows) assert(svg.includes(`>${line.candidate}</text>`), line.candidate);
  // A long name is cut beside its numbers, whole in the point's title.
  const long = "a-candidate-with-a-rather-long-name";
  const named = renderManyCandidates(manyCandidates([run(long, 30, 5, 21), RUNS[1]], STATS), "html");
  assert(named.includes(">a-candidate-with-a-ra…</text>"), "cut to 22 characters");
  assert(named.includes(`<title>${long}: `), "whole in the title");
  // Every point and whisker inside the drawing.
  for (const x of [...svg.matchAll(/(?:cx|x1|x2)="([^"]+)"/g)].map((match) => Number(match[1]))) {
    assert(x >= 0 && x <= 380, `x = ${x}`);
  }
  // The table beside it carries the same numbers.
  assert(html.includes("exact sign-flip, 2 runs"));
});

Deno.test("the many-candidate JSON validates against the shipped report schema, and an unknown key does not", async () => {
  const schema = JSON.parse(await Deno.readTextFile(`${ROOT}schemas/report.schema.json`));
  const notices = await reportNotices(demo, { responseModels: [STAND_IN_MODEL] });
  const reference = {
    name: "the published run",
    policy: "hybrid-v1",
    rows: rowsOf("x", 30, 0, 12).filter((row) => row.policy === "x").map((row) => ({
      ...row,
      policy: "hybrid-v1",
    })),
  };
  const document = JSON.parse(
    renderManyCandidates(manyCandidates(RUNS, STATS, reference, { notices }), "json"),
  );
  assert(document.candidates.every((entry: { against_reference?: unknown }) => entry.against_reference));
  assertEquals(validate(schema, document), []);
  assert(ReportJson.safeParse(document).success);
  const extra = { ...document, verdict_line: "x" };
  assert(validate(schema, extra).length > 0);
  assert(!ReportJson.safeParse(extra).success);
});
