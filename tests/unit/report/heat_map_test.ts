import { heatColour, heatLevel, heatMapModel } from "../../../lib/report/sweep/_heat_map.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { sweepHtml } from "../../../lib/report/mod.ts";
import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256, sweepRecord } from "../../../lib/sweep/mod.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { sweepReport } from "../../../lib/report/sweep/sweep.ts";

const contracts = await fixtureContracts();
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);

async function sweepAt(step: string) {
  const grid = parseGrid(
    `weights_step: ${step}\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncorrection_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7]\n`,
    "grid.yaml",
    contracts.config,
  );
  const result = runSweep(protocol, grid);
  const record = sweepRecord(result, contracts, protocol.dataset.sha256, "t", await sweepJsonlSha256(result));
  return sweepReport(record, sweepJsonl(result), "/home/someone/runs/sweep-0.05/");
}

const rgb = (css: string) => css.match(/\d+/g)!.map(Number);
const distance = (a: string, b: string) => Math.hypot(...rgb(a).map((value, index) => value - rgb(b)[index]));

Deno.test("heat map colours: diverging, centred on 0 — losses red, gains blue, 0 grey, +5, +8 and +11 apart", async () => {
  const heat = (await sweepAt("0.05")).heat!;
  const fillOf = (value: number) =>
    heat.panels.flatMap((panel) => panel.cells).find((cell) => cell.value === value)!.fill;
  const [five, eight, eleven] = [5, 8, 11].map(fillOf);
  for (const [a, b] of [[five, eight], [eight, eleven], [five, eleven]]) {
    // A step of the magnitudes shown on both sides (losses and gains share the scale): still plainly apart.
    assert(distance(a, b) >= 30, `${a} and ${b} are ${distance(a, b).toFixed(0)} apart`);
  }
  const levels = [-3, -1, 0, 5, 8, 11, 30];
  const neutral = heatColour(0, levels);
  const [r0, g0, b0] = rgb(neutral);
  assert(r0 === g0 && g0 === b0, `0 is neutral grey, got ${neutral}`);
  for (const value of [-3, -1]) {
    const [r, , b] = rgb(heatColour(value, levels));
    assert(r > b + 40, `a loss (${value}) is red: ${heatColour(value, levels)}`);
  }
  for (const value of [5, 8, 11, 30]) {
    const [r, , b] = rgb(heatColour(value, levels));
    assert(b > r + 40, `a gain (${value}) is blue: ${heatColour(value, levels)}`);
  }
  // Each side darkens with the size of the difference; the smallest loss is as far from grey as a gain.
  const darkness = (value: number) => distance(heatColour(value, levels), neutral);
  assert(darkness(-3) > darkness(-1) && darkness(-1) >= 40, "losses darken and stand out");
  assert(darkness(30) > darkness(11) && darkness(11) > darkness(8) && darkness(8) > darkness(5));
  // The legend covers 0 and the most common value of the cells shown, in order.
  const values = heat.panels.flatMap((panel) => panel.cells.map((cell) => cell.value));
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const common = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const legend = heat.legend.map((step) => step.value);
  assert(legend.includes(common), `legend ${legend} lacks the most common value ${common}`);
  if (values.includes(0)) assert(legend.includes(0), `legend ${legend} lacks 0`);
  assertEquals(legend, [...legend].sort((a, b) => a - b));
  assertEquals(heat.legend.find((step) => step.value === 0)?.fill ?? neutral, neutral);
});

Deno.test("heat map colours go by magnitude: a loss and a gain of the same size are equally dark, larger darker", () => {
  const levels = [-5, -1, 0, 1, 5, 8, 11, 30];
  assertEquals(heatLevel(0, levels), 0);
  for (const value of [1, 5]) assertEquals(heatLevel(-value, levels), -heatLevel(value, levels));
  const sizes = [1, 5, 8, 11, 30].map((value) => heatLevel(value, levels));
  assertEquals(sizes, [...sizes].sort((a, b) => a - b));
  assertEquals(new Set(sizes).size, sizes.length);
  assertEquals(sizes.at(-1), 1);
});

Deno.test("heat map page: a legend of the scale, the published point ringed, the directory's name as heading", async () => {
  const report = await sweepAt("0.05");
  const page = sweepHtml("/home/someone/runs/sweep-0.05/", report);
  assertStringIncludes(page, "<h1>deermem-eval report: sweep-0.05 (sweep)</h1>");
  assertStringIncludes(page, "<title>deermem-eval report: sweep-0.05 (sweep)</title>");
  assert(!page.includes("/home/someone"), "no absolute path on the page");
  const legend = page.match(/<div class="legend"[^>]*>([\s\S]*?)<\/div>/)![1];
  const steps = [
    ...legend.matchAll(
      /<span style="background:(rgb\([\d,]+\));color:#(?:000000|ffffff)">([+-]?\d+)<\/span>/g,
    ),
  ];
  assert(steps.length >= 5, legend);
  assertEquals(steps[0][2], String(report.heat!.min).replace(/^(\d)/, "+$1"));
  assertEquals(Number(steps.at(-1)![2]), report.heat!.max);
  // Every cell's number without hover: a table, a row per weight point, the published one marked.
  const values = page.match(/<details class="values">[\s\S]*?<\/details>/)![0];
  assertEquals([...values.matchAll(/<tr[^>]*><td>/g)].length, 231);
  assertMatch(
    values,
    /<tr class="published"><td>0\.65\/0\.25\/0\.1 \(published\)<\/td><td class="num">[+-]?\d+<\/td><td class="num">\+18<\/td><\/tr>/,
  );
  // One ring per capacity, around the published weights' cell, its value still in it.
  const rings = [...page.matchAll(/<g class="cell published"><title>([^<]+)<\/title>[^]*?<\/g>/g)];
  assertEquals(rings.length, 2);
  assertMatch(rings[1][1], /^capacity 7, weights 0\.65\/0\.25\/0\.1: \+18 /);
  assertMatch(rings[1][0], /<circle class="ring"[^>]*\/><text class="cell-label"[^>]*>\+18<\/text>/);
  // The grid points as tables (the Markdown's), not preformatted text.
  assert(!page.includes("<pre>"), "no preformatted block");
  for (const title of ["Best 5 grid points", "Worst 5 grid points", "Published parameters"]) {
    assertStringIncludes(page, `<h2>${title}</h2>`);
  }
  assertMatch(
    page,
    /<section id="best"><h2>Best 5 grid points<\/h2>[^]*?<table[^>]*>[^]*?<th[^>]*>difference<\/th>/,
  );
});

Deno.test("heat map: a grid too fine for 12 px numbers draws smaller cells without them, the values in the tooltips", async () => {
  const points = (await sweepAt("0.05")).heat!;
  assertEquals(points.labelSize, 12);
  const fine = heatMapModel(
    points.panels.flatMap(() => []),
    { ...sweepParameters() },
    0.01,
  );
  assertEquals(fine.labelSize, undefined);
  assert(fine.cell * 100 <= 1000, `${fine.cell} units a cell`);
});

function sweepParameters() {
  return {
    weights: { confidence: 0.65, confirmation: 0.25, access: 0.1 },
    confirmation_half_life_days: 90,
    access_half_life_days: 30,
    correction_reserved_fraction: 0.1,
    correction_reserved_max: 10,
  };
}
