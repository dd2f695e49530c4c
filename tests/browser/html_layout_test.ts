/**
 * The HTML reports laid out by headless Chromium at a phone's width (390 px) and a desktop's (1,400 px), checked
 * by a probe: no text rendered under 11 px, nothing wider than the page, the claim first and on the first
 * screen, the page's width used, the heat map's labels apart and readable. Chromium missing fails the test.
 */

import { embeddedSources, loadContracts } from "../../lib/protocol/contracts.ts";
import { prepareProtocol } from "../../lib/protocol/prepare.ts";
import {
  buildReport,
  compareRuns,
  comparisonHeading,
  comparisonSections,
  manyCandidates,
  publishedComparisonHeading,
  publishedComparisonSections,
  renderManyCandidates,
  reportHtml,
  sectionsHtml,
  sweepHtml,
} from "../../lib/report/mod.ts";
import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256, sweepRecord } from "../../lib/sweep/mod.ts";
import { PUBLISHED_FILES } from "../../lib/protocol/published.ts";
import { parseGradedRows } from "../../lib/qa/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { type BrowserPage, openBrowser, requireChromium } from "../helpers/chromium.ts";
import { GOLDEN, ROOT } from "../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../helpers/fixture.ts";
import { contrast, intersects, PROBE, type Probe } from "../helpers/layout_probe.ts";
import { comparePublished } from "../../lib/report/compare/against_published.ts";
import { sweepReport } from "../../lib/report/sweep/sweep.ts";

const WIDTHS = [390, 1400] as const;
const MIN_TEXT = 11;

const contracts = await loadContracts(embeddedSources());
const fixture = await fixtureContracts();
const published = await buildReport(`${ROOT}results/pr4789-reproduction-v1`, contracts);
const qaHtml = reportHtml(published);
const policyHtml = reportHtml(await buildReport(`${GOLDEN}/fixture-run/policy`, fixture));
const comparison = await compareRuns(published, published);
const comparisonHtml = sectionsHtml(comparisonHeading(comparison), comparisonSections(comparison));
/** A candidate (the published hybrid-v1's rows renamed) beside the published run: `report --against`'s page. */
function againstPublishedHtml(): string {
  const rows = parseGradedRows(PUBLISHED_FILES["qa.rows.jsonl"], "qa.rows.jsonl", contracts.config);
  const candidate = rows.map((row) =>
    row.policy === "hybrid-v1" ? { ...row, policy: "recency", row_id: `${row.case_id}__recency` } : row
  );
  const against = comparePublished(
    { directory: "runs/recency", policies: ["confidence", "recency"] },
    candidate,
    "results/pr4789-reproduction-v1",
    rows,
    contracts.config.statistics,
  );
  return sectionsHtml(publishedComparisonHeading(against), publishedComparisonSections(against));
}

/**
 * `report RUN RUN…`'s page: a one-run candidate and a 3-run one with a long name (the published hybrid-v1's
 * rows renamed, run 2 with its first ten grades flipped) against confidence and the published hybrid-v1.
 */
function manyCandidatesHtml(): string {
  const rows = parseGradedRows(PUBLISHED_FILES["qa.rows.jsonl"], "qa.rows.jsonl", contracts.config);
  const renamed = (name: string, flipped = 0) =>
    rows.map((row, index) =>
      row.policy === "hybrid-v1"
        ? { ...row, policy: name, grade_correct: index < flipped ? !row.grade_correct : row.grade_correct }
        : row
    );
  const long = "recency-with-a-rather-long-candidate-name";
  const table = manyCandidates(
    [
      { directory: "runs/recency", baseline: "confidence", candidate: "recency", rows: renamed("recency") },
      {
        directory: "runs/a-three-run-directory-with-a-long-path/k3",
        baseline: "confidence",
        candidate: long,
        rows: renamed(long),
        epochs: [renamed(long), renamed(long, 20), renamed(long)],
      },
    ],
    contracts.config.statistics,
    { name: "the published run", policy: "hybrid-v1", rows },
  );
  return renderManyCandidates(table, "html");
}

/** A sweep of the fixture at the default weight step (231 points a capacity, two-digit differences). */
async function fixtureSweepHtml(step: string): Promise<string> {
  const protocol = await prepareProtocol(fixture, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  const grid = parseGrid(
    `weights_step: ${step}\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncorrection_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7, 9]\n`,
    "grid.yaml",
    fixture.config,
  );
  const result = runSweep(protocol, grid);
  const record = sweepRecord(
    result,
    fixture,
    protocol.dataset.sha256,
    "deermem-eval test",
    await sweepJsonlSha256(result),
  );
  return sweepHtml("/tmp/runs/sweep-2026", sweepReport(record, sweepJsonl(result), "/tmp/runs/sweep-2026"));
}

const pages: Record<string, string> = {
  qa: qaHtml,
  policy: policyHtml,
  comparison: comparisonHtml,
  "against published": againstPublishedHtml(),
  "many candidates": manyCandidatesHtml(),
  "sweep 0.05": await fixtureSweepHtml("0.05"),
  "sweep 0.25": await fixtureSweepHtml("0.25"),
  // The per-cell table opened, as a reader looking for a number has it.
  "sweep 0.05 opened": (await fixtureSweepHtml("0.05")).replace(
    '<details class="values">',
    '<details class="values" open>',
  ),
};

/** Each page probed at each width, in one Chromium. */
async function probeAll(): Promise<Map<string, Probe>> {
  const browser = await openBrowser(requireChromium());
  const directory = await Deno.makeTempDir({ prefix: "deermem-eval-layout-" });
  const probes = new Map<string, Probe>();
  try {
    const page: BrowserPage = await browser.page();
    for (const [name, html] of Object.entries(pages)) {
      const path = `${directory}/${name.replace(" ", "-")}.html`;
      await Deno.writeTextFile(path, html);
      for (const width of WIDTHS) {
        await page.load(path, width, 900);
        probes.set(`${name} @${width}`, await page.evaluate<Probe>(PROBE));
        if (Deno.env.get("DEERMEM_EVAL_KEEP_SCREENSHOTS") !== undefined) {
          await Deno.writeFile(
            `${directory}/${name.replace(" ", "-")}-${width}.png`,
            await page.screenshot(),
          );
        }
      }
    }
  } finally {
    await browser.close();
    if (Deno.env.get("DEERMEM_EVAL_KEEP_SCREENSHOTS") === undefined) {
      await Deno.remove(directory, { recursive: true });
    } else console.log(`screenshots kept in ${directory}`);
  }
  return probes;
}

let cached: Promise<Map<string, Probe>> | undefined;
const probes = () => cached ??= probeAll();

Deno.test("layout: Chromium is installed (the layout tests fail, never skip, without it)", () => {
  requireChromium();
});

for (const name of Object.keys(pages)) {
  for (const width of WIDTHS) {
    Deno.test(`layout (${name} at ${width} px): no text under ${MIN_TEXT} px, nothing wider than the page or clipped`, async () => {
      const probe = (await probes()).get(`${name} @${width}`)!;
      assertEquals(probe.viewport, width);
      assert(probe.texts.length > 20, `only ${probe.texts.length} texts`);
      const small = probe.texts.filter((text) => text.size < MIN_TEXT - 0.01);
      assertEquals(
        small.map((text) => `${text.text} (${text.size.toFixed(1)} px)`),
        [],
        "text rendered under 11 px",
      );
      assert(probe.scrollWidth <= width, `the page is ${probe.scrollWidth} px wide at ${width}`);
      assertEquals(probe.clipped, [], "elements clipping their text");
      // Every column's value in view without sideways scrolling: no box wider than its container.
      assertEquals(probe.wide.length, 0, `boxes wider than their container: ${probe.wide.join(" | ")}`);
      const outside = probe.texts.filter((text) => text.box.right > width + 0.5 || text.box.left < -0.5)
        .filter((text) => !text.inScroll);
      assertEquals(outside.map((text) => text.text), [], "text outside the page");
      assertEquals(
        probe.texts.filter((text) => text.cut).map((text) => text.text),
        [],
        "text cut by its SVG's edge",
      );
    });
  }
}

Deno.test("layout (QA report): the claim block comes first, on the first screen of a phone", async () => {
  for (const width of WIDTHS) {
    const probe = (await probes()).get(`qa @${width}`)!;
    assertEquals(probe.blocks.slice(0, 3), ["claim", "verification", "suites"]);
    assert(
      probe.claimTop !== null && probe.claimTop < (width === 390 ? 600 : 300),
      `claim at ${probe.claimTop}`,
    );
    // The three suites' numbers are in it, as text a reader sees.
    const claim = probe.texts.filter((text) =>
      text.box.top >= probe.claimTop! && text.box.top < probe.claimTop! + 700
    )
      .map((text) => text.text).join(" ");
    for (
      const part of ["23/40", "35/40", "0.0018", "[+0.150, +0.450]", "1/5", "5/5", "24/45", "40/45", "0.0001"]
    ) {
      assert(claim.includes(part), `claim lacks ${part}: ${claim}`);
    }
  }
});

Deno.test("layout (QA and policy report at 1,400 px): every figure row and the claim use ≥ 80 % of the width", async () => {
  for (const name of ["qa", "policy"]) {
    const probe = (await probes()).get(`${name} @1400`)!;
    assert(probe.spans.length >= (name === "qa" ? 4 : 3), `${probe.spans.length} rows`);
    for (const span of probe.spans) {
      const used = (span.right - span.left) / 1400;
      assert(used >= 0.8, `${name} ${span.name}: ${Math.round(used * 100)} % of the width`);
    }
  }
});

for (const step of ["0.05", "0.25"]) {
  Deno.test(`layout (heat map, step ${step}): labels never overlap, each readable on its cell, the published ring clear of its value`, async () => {
    for (const width of WIDTHS) {
      const { labels } = (await probes()).get(`sweep ${step} @${width}`)!;
      if (width === 1400 || step === "0.25") {
        assert(labels.length >= 3 * (step === "0.25" ? 15 : 231), `${labels.length} labels at ${width}`);
      }
      const sorted = [...labels].sort((a, b) => a.box.left - b.box.left);
      for (let i = 0; i < sorted.length; i++) {
        for (let j = i + 1; j < sorted.length && sorted[j].box.left < sorted[i].box.right; j++) {
          assert(
            !intersects(sorted[i].box, sorted[j].box),
            `"${sorted[i].text}" and "${sorted[j].text}" overlap at ${width}`,
          );
        }
      }
      for (const label of labels) {
        const ratio = contrast(label.ink, label.fill);
        assert(
          ratio >= 4.5,
          `"${label.text}" at contrast ${ratio.toFixed(2)} (${label.ink} on ${label.fill})`,
        );
      }
      const rings = labels.filter((label) => label.ring !== undefined);
      // The published weights (0.65/0.25/0.1) lie on the 0.05 grid only.
      if (step === "0.05" && labels.length > 0) assert(rings.length >= 1, "a published cell's label");
      for (const { box, ring, text } of rings) {
        const corners = [[box.left, box.top], [box.right, box.top], [box.left, box.bottom], [
          box.right,
          box.bottom,
        ]];
        const farthest = Math.max(...corners.map(([x, y]) => Math.hypot(x - ring!.cx, y - ring!.cy)));
        assert(
          farthest <= ring!.inner + 0.5,
          `published "${text}" reaches ${farthest.toFixed(1)} px, ring inside at ${ring!.inner.toFixed(1)}`,
        );
      }
    }
  });
}
