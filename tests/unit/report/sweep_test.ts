import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "../../helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { InputError } from "../../../lib/base/errors.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256, sweepRecord } from "../../../lib/sweep/mod.ts";
import { readSweepReport } from "../../../lib/report/mod.ts";
import { sweepReport } from "../../../lib/report/sweep/sweep.ts";

const contracts = await fixtureContracts();
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
const grid = parseGrid(
  [
    "weights_step: 0.25",
    "confirmation_half_life_days: [45, 90]",
    "access_half_life_days: [30]",
    "correction_reserved_fraction: [0.1]",
    "correction_reserved_max: [10]",
    "capacities: [5, 7]",
  ].join("\n"),
  "grid.yaml",
  contracts.config,
);
// The published weights (0.65/0.25/0.1) are not multiples of 0.25: add their rows from a 0.05 sweep of one point.
const published = runSweep(
  protocol,
  parseGrid(
    "weights_step: 0.05\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncorrection_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7]\n",
    "grid.yaml",
    contracts.config,
  ),
);
const result = runSweep(protocol, grid);
const record = sweepRecord(
  result,
  contracts,
  protocol.dataset.sha256,
  "deermem-eval test",
  await sweepJsonlSha256(result),
);
const rows = sweepJsonl(result);

Deno.test("sweep report: best and worst grid points, totals as the rows add up", () => {
  const { lines } = sweepReport(record, rows, "/tmp/s");
  assertEquals(lines[0], "sweep of deermem-fixture-v1 by deermem-eval test: 60 grid points, 300 rows");
  // Totals recomputed from the rows here: the best line shows the largest, the worst the smallest.
  const totals = new Map<string, number>();
  for (const line of rows.trimEnd().split("\n")) {
    const row = JSON.parse(line);
    const key = JSON.stringify([row.parameters, row.capacity]);
    totals.set(key, (totals.get(key) ?? 0) + row.difference);
  }
  const values = [...totals.values()];
  const max = Math.max(...values);
  const min = Math.min(...values);
  assertEquals(
    lines[1],
    "best 5 grid points (hybrid-v1 minus confidence, supports kept over all scenarios):",
  );
  assert(lines[3].trimStart().startsWith(max > 0 ? `+${max} ` : `${max} `), lines[3]);
  const worstTitle = lines.indexOf("worst 5 grid points:");
  assert(lines[worstTitle + 2].trimStart().startsWith(`${min} `), lines[worstTitle + 2]);
  assert(max > min);
});

Deno.test("sweep report: the published point at capacity 7 is +18 (45 vs 27 supports, as run-policy's table says)", async () => {
  const text = sweepJsonl(published);
  const publishedRecord = sweepRecord(
    published,
    contracts,
    protocol.dataset.sha256,
    "t",
    await sweepJsonlSha256(published),
  );
  const { lines, svg } = sweepReport(publishedRecord, text, "/tmp/s");
  assertMatch(lines.at(-1)!, /^published parameters: capacity 5 [+-]\d+, capacity 7 \+18$/);
  assertMatch(svg, /capacity 7, weights 0\.65\/0\.25\/0\.1: \+18 \(45 vs 27 of 45\)/);
});

Deno.test("sweep report: a self-contained SVG, one numbered cell per weight point and capacity", () => {
  const { svg } = sweepReport(record, rows, "/tmp/s");
  assert(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  assert(svg.trimEnd().endsWith("</svg>"));
  // Nothing fetched: the only URL is the SVG namespace.
  assertEquals(svg.match(/https?:\/\/[^"\s]*/g), ["http://www.w3.org/2000/svg"]);
  // 15 weight points × 2 capacities at the published half-lives (90/30 d) and reserve.
  assertEquals(svg.match(/<circle /g)?.length, 30);
  assertMatch(svg, /half-lives 90\/30 d, reserve 0\.1 up to 10/);
  assertEquals(svg.match(/<text class="cell-label" [^>]*font-size="12"[^>]*>[+-]?\d+<\/text>/g)?.length, 30);
});

Deno.test("sweep report: a row that does not add up is refused, naming the file, line and field", () => {
  const broken = rows.replace('"difference": ', '"difference": 9').split("\n");
  const error = assertThrows(() => sweepReport(record, broken.join("\n"), "/tmp/s"), InputError);
  assertEquals(
    error.message,
    "/tmp/s/sweep.jsonl: difference: line 1: must equal hybrid_v1_retained - confidence_retained",
  );
  const short = rows.split("\n").slice(1).join("\n");
  assertThrows(() => sweepReport(record, short, "/tmp/s"), InputError, "holds 299 rows; sweep.json says 300");
  assertThrows(() => sweepReport("{", rows, "/tmp/s"), InputError, "/tmp/s/sweep.json: not valid JSON");
});

Deno.test("readSweepReport: verified first, then the same lines, tables and heat map as the files' text gives", async () => {
  const directory = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${directory}/sweep.json`, record);
    await Deno.writeTextFile(`${directory}/sweep.jsonl`, rows);
    const fromText = sweepReport(record, rows, directory);
    const verified = await readSweepReport(directory, contracts);
    // The count line, then the verdict sweep prints (its own section), then the files' lines.
    const verdict = verified.sections[0];
    assertEquals(verdict.id, "verdict");
    assertMatch(verdict.lines[0], /^published hybrid-v1: weights /);
    assertEquals(verified.lines.slice(0, 3 + verdict.lines.length + 1), [
      fromText.lines[0],
      "",
      "VERDICT: THE PUBLISHED PARAMETERS ON THE GRID",
      ...verdict.lines,
      "",
    ]);
    assertEquals(verified.lines.slice(4 + verdict.lines.length, -1), fromText.lines.slice(1));
    assertMatch(verified.lines.at(-1)!, /^verified: sweep\.jsonl is the file sweep\.json records/);
    assertEquals(verified.sections.slice(2), fromText.sections);
    assertEquals(verified.sections[1].id, "verification");
    assertEquals(verified.svg, fromText.svg);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("readSweepReport: invalid UTF-8 in sweep.jsonl names the file, line and byte offset", async () => {
  const directory = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${directory}/sweep.json`, "{}\n");
    const bytes = new Uint8Array([...new TextEncoder().encode('{"a": 1}\n{"b": "'), 0xff, 0x22, 0x7d, 0x0a]);
    await Deno.writeFile(`${directory}/sweep.jsonl`, bytes);
    const error = await assertRejects(() => readSweepReport(directory, contracts), InputError);
    assertEquals(error.message, `${directory}/sweep.jsonl: not valid UTF-8: line 2, byte offset 16`);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});
