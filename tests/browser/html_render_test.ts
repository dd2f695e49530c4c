/** The HTML report as headless Chromium draws it: each chart, both colour schemes, and the whole page. */

import { embeddedSources, loadContracts } from "../../lib/protocol/contracts.ts";
import { buildReport, type QaReport, reportHtml } from "../../lib/report/mod.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { CHROMIUM_MISSING, findChromium, requireChromium, screenshot } from "../helpers/chromium.ts";
import { ROOT, withTempDir } from "../helpers/cli.ts";
import { countPixels, decodePng, near, pixelAt } from "../helpers/png.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const contracts = await loadContracts(embeddedSources());
const html = reportHtml(await buildReport(PUBLISHED, contracts) as QaReport);

const CHARTS = ["chart-forest", "chart-accuracy", "chart-retention"] as const;

/** The SVG of the chart with the given id. */
function svgOf(page: string, id: string): string {
  const match = page.match(new RegExp(`<svg id="${id}"[\\s\\S]*?</svg>`));
  assert(match !== null, `no <svg id="${id}">`);
  return match[0];
}

// ---- Rendering in headless Chromium ----------------------------------------------------------------------

// A missing Chromium fails these tests (requireChromium says how to install it): they never pass unrendered.
const chromium = findChromium();
if (chromium === undefined) console.log(`html_render_test: ${CHROMIUM_MISSING}`);

/** Lays the three charts out at fixed places and hides everything else, so each chart's area is known. */
const ISOLATE = `<style>
body * { visibility: hidden !important; }
#chart-forest, #chart-forest *, #chart-accuracy, #chart-accuracy *, #chart-retention, #chart-retention * {
  visibility: visible !important; }
#chart-forest, #chart-accuracy, #chart-retention { position: fixed !important; left: 0 !important;
  width: 360px !important; max-width: none !important; height: auto !important; }
#chart-forest { top: 0 !important; } #chart-accuracy { top: 400px !important; } #chart-retention { top: 800px !important; }
</style></head>`;

const REGIONS = { "chart-forest": 0, "chart-accuracy": 400, "chart-retention": 800 } as const;

for (const dark of [false, true]) {
  Deno.test({
    name: `Chromium draws each chart of the HTML report (${dark ? "dark" : "light"} colour scheme)`,
    fn: async () => {
      requireChromium();
      await withTempDir(async (directory) => {
        await Deno.writeTextFile(`${directory}/report.html`, html.replace("</head>", ISOLATE));
        await screenshot(chromium!, `${directory}/report.html`, `${directory}/report.png`, {
          width: 720,
          height: 1200,
          dark,
        });
        const image = await decodePng(await Deno.readFile(`${directory}/report.png`));
        assertEquals([image.width, image.height], [720, 1200]);
        const background = pixelAt(image, 710, 1190);
        // Light: white page; dark: the dark theme's near-black page.
        assert(dark ? background.every((value) => value < 40) : background.every((value) => value > 240));
        const palette = dark
          ? { p0: "#f0883e", p1: "#4493f8", ok: "#3fb950" }
          : { p0: "#bc4c00", p1: "#0969da", ok: "#1a7f37" };
        const drawn = (id: keyof typeof REGIONS) => {
          const region = { x: 0, y: REGIONS[id], width: 380, height: 390 };
          const different = countPixels(
            image,
            region,
            (rgb) => rgb.some((value, index) => Math.abs(value - background[index]) > 40),
          );
          return { region, different };
        };
        for (const id of CHARTS) {
          const { different } = drawn(id);
          assert(different > 2000, `${id}: only ${different} pixels drawn`);
        }
        const colour = (id: keyof typeof REGIONS, hex: string) =>
          countPixels(image, drawn(id).region, near(hex));
        // Paired bars in both policy colours; the forest plot's whiskers and its zero line; the retained bars.
        assert(colour("chart-accuracy", palette.p0) > 2000, "confidence bars");
        assert(colour("chart-accuracy", palette.p1) > 5000, "hybrid-v1 bars");
        assert(colour("chart-forest", palette.p1) > 300, "forest whiskers and points");
        // The dashed zero line is thin and antialiased: count reddish pixels in its column.
        const zeroX = Math.round(
          (Number(svgOf(html, "chart-forest").match(/<line class="zero" x1="([\d.]+)"/)![1]) * 360) / 380,
        );
        const reddish = countPixels(
          image,
          { x: zeroX - 3, y: 10, width: 7, height: 160 },
          ([r, g, b]) => r - Math.max(g, b) > 80,
        );
        assert(reddish > 60, `zero line: ${reddish} pixels`);
        assert(colour("chart-retention", palette.ok) > 5000, "retained bars");
        // Nothing outside the three charts is drawn.
        const outside = countPixels(
          image,
          { x: 0, y: 1190, width: 720, height: 10 },
          (rgb) => rgb.some((value, index) => Math.abs(value - background[index]) > 40),
        );
        assertEquals(outside, 0);
      });
    },
  });
}

Deno.test({
  name: "Chromium renders the whole HTML report unmodified, readable (dark text on light)",
  fn: async () => {
    requireChromium();
    await withTempDir(async (directory) => {
      await Deno.writeTextFile(`${directory}/report.html`, html);
      await screenshot(chromium!, `${directory}/report.html`, `${directory}/report.png`, {
        width: 1200,
        height: 2400,
      });
      const image = await decodePng(await Deno.readFile(`${directory}/report.png`));
      const all = { x: 0, y: 0, width: image.width, height: image.height };
      const dark = countPixels(image, all, (rgb) => rgb.every((value) => value < 80));
      const blue = countPixels(image, all, near("#0969da"));
      assert(dark > 10000, `text drawn: ${dark} dark pixels`);
      assert(blue > 5000, `charts drawn: ${blue} hybrid-v1 pixels`);
    });
  },
});
