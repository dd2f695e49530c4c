import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { buildReport, type QaReport, reportHtml } from "../../../lib/report/mod.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { GOLDEN, ROOT, withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts } from "../../helpers/fixture.ts";
import { reportSections } from "../../../lib/report/run/sections.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const contracts = await loadContracts(embeddedSources());
const report = await buildReport(PUBLISHED, contracts) as QaReport;
const html = reportHtml(report);

const CHARTS = ["chart-forest", "chart-accuracy", "chart-retention"] as const;

/** The `<svg id=…>…</svg>` of a chart. */
function svgOf(page: string, id: string): string {
  const match = page.match(new RegExp(`<svg id="${id}"[\\s\\S]*?</svg>`));
  assert(match !== null, `no <svg id="${id}">`);
  return match[0];
}

/** The figure holding a chart and the table beside it. */
function pairOf(page: string, id: string): { caption: string; table: string } {
  const match = page.match(
    new RegExp(
      `<div class="pair"><figure><svg id="${id}"[\\s\\S]*?</svg><figcaption>([^<]+)</figcaption></figure>(<div class="table-wrap"><table[^>]*>[\\s\\S]*?</table></div>)</div>`,
    ),
  );
  assert(match !== null, `chart ${id} has no caption and table beside it`);
  return { caption: match[1], table: match[2] };
}

Deno.test("the HTML report holds three SVG charts, each with a caption and a table beside it", () => {
  assertEquals([...html.matchAll(/<svg id="([^"]+)"/g)].map((match) => match[1]), [...CHARTS]);
  for (const id of CHARTS) {
    const { caption, table } = pairOf(html, id);
    assertMatch(caption, /^Figure \d\. /);
    assertStringIncludes(table, "<tbody>");
  }
});

Deno.test("the accuracy chart draws every scenario × policy the table beside it lists", () => {
  const svg = svgOf(html, "chart-accuracy");
  const { table } = pairOf(html, "chart-accuracy");
  const titles = [...svg.matchAll(/<title>([^<]+)<\/title>/g)].map((match) => match[1]);
  assertEquals(titles.length, 10);
  assertStringIncludes(svg, "<title>access_help · confidence: 3/10 correct (0.300)</title>");
  assertStringIncludes(svg, "<title>access_help · hybrid-v1: 9/10 correct (0.900)</title>");
  assertStringIncludes(svg, "<title>correction_reserve · hybrid-v1: 5/5 correct (1.000)</title>");
  for (const title of titles) {
    const [, scenario, policy, correct] = title.match(/^(\S+) · (\S+): (\d+\/\d+) correct/)!;
    const row = table.match(new RegExp(`<tr><td[^>]*>[a-z]+</td><td[^>]*>${scenario}</td>(.*?)</tr>`))![1];
    const cells = [...row.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((match) => match[1]);
    assertEquals(cells[policy === "confidence" ? 1 : 2], correct, title);
  }
  // Paired bars: one rect per bar carrying its value, plus the legend's two swatches.
  assertEquals([...svg.matchAll(/<rect class="p[01]"[^>]*data-value=/g)].length, 10);
});

Deno.test("the forest plot shows each suite's difference and interval, and the zero line", () => {
  const svg = svgOf(html, "chart-forest");
  assertStringIncludes(svg, "<title>longmemeval: +0.300 [+0.150, +0.450]</title>");
  assertStringIncludes(svg, "<title>synthetic: +0.800 [+0.400, +1.000]</title>");
  assertStringIncludes(svg, "<title>overall: +0.356 [+0.200, +0.511]</title>");
  assertMatch(svg, /<line class="zero"[^>]*\/>/);
  assertStringIncludes(svg, "no difference");
  // The zero line sits where the axis says 0.
  const zero = svg.match(/<line class="zero" x1="([\d.]+)"/)![1];
  assertMatch(svg, new RegExp(`<text class="muted" x="${zero}" y="[\\d.]+" text-anchor="middle">0</text>`));
  const { table } = pairOf(html, "chart-forest");
  assertStringIncludes(table, ">[+0.150, +0.450]</td>");
});

Deno.test("the retention chart shows accuracy with the support retained and lost, as in its table", () => {
  const svg = svgOf(html, "chart-retention");
  assertStringIncludes(svg, "<title>longmemeval · confidence · support retained: 23/26 correct</title>");
  assertStringIncludes(svg, "<title>longmemeval · confidence · support lost: 0/14 correct</title>");
  assertStringIncludes(svg, "<title>longmemeval · hybrid-v1 · support retained: 35/40 correct</title>");
  assertStringIncludes(svg, ">n=0</text>");
  const { table } = pairOf(html, "chart-retention");
  assertMatch(
    table,
    /<td[^>]*>longmemeval<\/td><td[^>]*>confidence<\/td><td class="num"[^>]*>26<\/td><td class="num"[^>]*>23<\/td>/,
  );
});

Deno.test("the HTML is self-contained: no URL in any src or href, no scripts, links, imports or fonts", () => {
  assert(!/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i.test(html), "an http(s) URL in src/href");
  assert(!/\b(?:src|href)\s*=/i.test(html), "no src or href at all");
  assert(!/<script|<link|<iframe|<img|@import|url\(|@font-face/i.test(html));
  assert(!/https?:\/\//.test(html), "no http URL anywhere");
  assertStringIncludes(html, "@media (prefers-color-scheme: dark)");
  assertStringIncludes(html, "@media print");
});

Deno.test("every table row of the report appears in the HTML, cell for cell", () => {
  const unescape = (text: string) =>
    text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&");
  // A cut answer's cell shows the cut text as its summary (the whole answer expands below it).
  const shown = (cell: string) =>
    cell.match(/^<details class="answer"><summary>([^<]*)<\/summary>/)?.[1] ?? cell;
  const htmlRows = new Set(
    [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((match) =>
      JSON.stringify(
        [...match[1].matchAll(/<td[^>]*>((?:<details[\s\S]*?<\/details>)|[^<]*)<\/td>/g)].map((cell) =>
          unescape(shown(cell[1]))
        ),
      )
    ),
  );
  let count = 0;
  for (const section of reportSections(report)) {
    for (const table of section.tables) {
      for (const original of table.rows) {
        // The page names the official suite by its rows' source name, as its scenario rows do.
        const suiteTable = section.id === "suites" || section.id === "retention";
        const row = suiteTable && original[0] === "official"
          ? ["longmemeval", ...original.slice(1)]
          : original;
        assert(htmlRows.has(JSON.stringify(row)), `missing row ${JSON.stringify(row)}`);
        count++;
      }
    }
  }
  assertEquals(count, 3 + 5 + 6 + 18 + 3 + 11);
});

Deno.test("predictions are escaped: a prediction holding markup is shown as text", async () => {
  await withTempDir(async (directory) => {
    for (const name of ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"]) {
      await Deno.copyFile(`${PUBLISHED}/${name}`, `${directory}/${name}`);
    }
    const rows = await Deno.readTextFile(`${directory}/qa.rows.jsonl`);
    const changed = rows.replace(
      /("case_id": "1cea1afa"[^\n]*"policy": "confidence", "prediction": )"600"/,
      '$1"<script>600</script>"',
    );
    assert(changed !== rows);
    await Deno.writeTextFile(`${directory}/qa.rows.jsonl`, changed);
    const page = reportHtml(await buildReport(directory, contracts));
    assertStringIncludes(page, "&lt;script&gt;600&lt;/script&gt;");
    assert(!page.includes("<script>"));
  });
});

Deno.test("a policy run's HTML has one retention chart per capacity, each with its table", async () => {
  const fixture = await fixtureContracts();
  const page = reportHtml(await buildReport(`${GOLDEN}/fixture-run/policy`, fixture));
  for (const capacity of [5, 7, 9]) {
    const svg = svgOf(page, `chart-retention-${capacity}`);
    assertEquals([...svg.matchAll(/<title>/g)].length, 10);
    pairOf(page, `chart-retention-${capacity}`);
  }
  assertStringIncludes(
    svgOf(page, "chart-retention-7"),
    "<title>capacity 7 · access_help · confidence: 3/10 kept the support</title>",
  );
});

Deno.test("the QA report opens with the claim: each suite's a/n vs b/n, exact McNemar p and interval, before verification", () => {
  const body = html.slice(html.indexOf("<body>"));
  const claim = body.indexOf('<section id="claim">');
  assert(claim > 0 && claim < body.indexOf('<section id="verification">'), "the claim precedes verification");
  assertEquals(
    body.slice(body.indexOf("</h1>") + 5, claim).trim(),
    "",
    "nothing between the heading and the claim",
  );
  const block = body.slice(claim, body.indexOf("</section>", claim));
  const cards = [...block.matchAll(/<div class="suite">([\s\S]*?)<\/div>/g)].map((match) =>
    match[1].replace(/<[^>]+>/g, "")
  );
  assertEquals(cards.length, 3);
  assertMatch(cards[0], /^longmemeval · 40 cases/);
  assertStringIncludes(cards[0], "confidence 23/40 vs hybrid-v1 35/40");
  assertStringIncludes(cards[0], "exact McNemar p = 0.0018");
  assertStringIncludes(cards[0], "difference +0.300, 95% interval [+0.150, +0.450]");
  assertStringIncludes(cards[1], "confidence 1/5 vs hybrid-v1 5/5");
  assertStringIncludes(cards[1], "p = 0.1250");
  assertStringIncludes(cards[2], "confidence 24/45 vs hybrid-v1 40/45");
  assertStringIncludes(cards[2], "p = 0.0001");
  assertStringIncludes(cards[2], "[+0.200, +0.511]");
});

Deno.test("one name for the official suite: every heading, label and cell says longmemeval, never official", () => {
  const body = html.slice(html.indexOf("<body>"));
  // The one place "official" may stay is a field's own name (official_manifest_sha256) in provenance.
  const labels = [...body.matchAll(/>([^<>]*)</g)].map((match) => match[1])
    .filter((text) => /\bofficial\b/.test(text) && !text.includes("official_manifest_sha256"));
  assertEquals(labels, []);
  assert(
    [...body.matchAll(/>longmemeval</g)].length >= 5,
    "the suite's name in the claim, tables and charts",
  );
});

Deno.test("a cut answer expands to the whole answer, escaped", async () => {
  await withTempDir(async (directory) => {
    for (const name of ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"]) {
      await Deno.copyFile(`${PUBLISHED}/${name}`, `${directory}/${name}`);
    }
    const rows = await Deno.readTextFile(`${directory}/qa.rows.jsonl`);
    const long = "The <b>long</b> answer & more: " + "x".repeat(80) + " — the end";
    const changed = rows.replace(
      /("case_id": "1cea1afa"[^\n]*"policy": "confidence", "prediction": )"600"/,
      `$1${JSON.stringify(long)}`,
    );
    assert(changed !== rows);
    await Deno.writeTextFile(`${directory}/qa.rows.jsonl`, changed);
    const page = reportHtml(await buildReport(directory, contracts));
    const escaped = long.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
    assertMatch(
      page,
      new RegExp(
        `<td[^>]*><details class="answer"><summary>The &lt;b&gt;long&lt;/b&gt; answer [^<]{5,}…</summary>${
          escaped.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        }</details></td>`,
      ),
    );
    // The published run's one long answer expands too; short ones stay plain cells.
    assertStringIncludes(
      html,
      "<summary>The Nightingale by Kristin …</summary>The Nightingale by Kristin Hannah",
    );
    assertMatch(html, /<td[^>]*>14 days\.<\/td>/);
  });
});

Deno.test("on a phone every cell of a table of three or more columns carries its header, and names stay whole", () => {
  // The discordant table: seven columns, each cell labelled by its column's header for the stacked layout.
  const table = html.match(/<section id="discordant">[\s\S]*?(<table[^>]*>[\s\S]*?<\/table>)/)![1];
  assertStringIncludes(table, '<table class="stack">');
  const headers = [...table.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((match) => match[1]);
  const firstRow = table.match(/<tbody>\n<tr>([\s\S]*?)<\/tr>/)![1];
  assertEquals([...firstRow.matchAll(/<td[^>]*data-label="([^"]*)"/g)].map((match) => match[1]), headers);
  assertMatch(firstRow, /<td class="name" data-label="won by">hybrid-v1<\/td>/);
  assertStringIncludes(html, "@media (max-width: 40rem)");
});
