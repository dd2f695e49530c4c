/** lib/'s shape: folders by layer, every import pointing down or within its folder, private files kept private. */

import { assert, assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";
import { copyTree, LAYERS, layerViolations, readImportGraph } from "../helpers/layers.ts";

Deno.test("every import in lib/ points down the layers or stays in its folder; no _private file leaks", async () => {
  const edges = await readImportGraph(`${ROOT}lib`);
  assert(edges.length > 100, `only ${edges.length} imports found: the reader is not reading lib/`);
  assertEquals(layerViolations(edges), []);
});

Deno.test("lib/ holds only the layer folders (no module at its top level)", async () => {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}lib`)) {
    names.push(entry.isDirectory ? entry.name : `${entry.name}!`);
  }
  assertEquals(names.sort(), [...LAYERS].sort());
});

/** The layering problems of a copy of lib/ with `line` appended to `file` (relative to lib/). */
async function violationsWithPlanted(file: string, line: string): Promise<string[]> {
  const copy = await Deno.makeTempDir();
  try {
    await copyTree(`${ROOT}lib`, `${copy}/lib`);
    const path = `${copy}/lib/${file}`;
    await Deno.writeTextFile(path, `${await Deno.readTextFile(path)}\n${line}\n`);
    return layerViolations(await readImportGraph(`${copy}/lib`));
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
}

Deno.test("the layering check fails on a deliberately added upward import in a copy of lib/", async () => {
  assertEquals(await violationsWithPlanted("base/hash.ts", 'import "../commands/run_qa.ts";'), [
    "base/hash.ts -> commands/run_qa.ts: base may not import from commands (above it)",
  ]);
});

Deno.test("the layering check names sideways, private and outside edges", () => {
  assertEquals(
    layerViolations([
      { from: "report/render/html.ts", to: "conformance/run.ts" },
      { from: "sweep/grid.ts", to: "policy/_radix.ts" },
      { from: "policy/selector.ts", to: "policy/_radix.ts" },
      { from: "qa/run/tasks.ts", to: "helpers/x.ts" },
    ]),
    [
      "report/render/html.ts -> conformance/run.ts: report may not import from conformance (above it)",
      "sweep/grid.ts -> policy/_radix.ts: private to policy/",
      "qa/run/tasks.ts -> helpers/x.ts: outside the layer folders",
    ],
  );
});

Deno.test("the sub-folder check names an upward import between sub-folders, one into the surface, and a private file", () => {
  assertEquals(
    layerViolations([
      { from: "report/render/text.ts", to: "report/run/claim.ts" },
      { from: "report/document/format.ts", to: "report/render/text.ts" },
      { from: "qa/grade/grading.ts", to: "qa/answer/provider.ts" },
      { from: "qa/answer/stand_in.ts", to: "qa/grade/grading.ts" },
      { from: "qa/run/tasks.ts", to: "qa/mod.ts" },
      { from: "report/render/html.ts", to: "report/render/_svg.ts" },
      { from: "report/explain/explain.ts", to: "report/render/_svg.ts" },
      { from: "conformance/checkers/stats.ts", to: "conformance/_record.ts" },
    ]),
    [
      "report/document/format.ts -> report/render/text.ts: report/document may not import from report/render (above it)",
      "qa/grade/grading.ts -> qa/answer/provider.ts: qa/grade may not import from qa/answer (above it)",
      "qa/run/tasks.ts -> qa/mod.ts: qa/run may not import qa's surface (it is above every sub-folder)",
      "report/explain/explain.ts -> report/render/_svg.ts: private to report/render/",
    ],
  );
});

Deno.test("the sub-folder check fails on a planted upward import in a copy of lib/", async () => {
  assertEquals(await violationsWithPlanted("report/document/format.ts", 'import "../render/text.ts";'), [
    "report/document/format.ts -> report/render/text.ts: report/document may not import from report/render (above it)",
  ]);
});
