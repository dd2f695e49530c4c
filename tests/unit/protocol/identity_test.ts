/** The provenance blocks: each record's `artifacts` and `dataset` are exactly what identity.ts builds. */
import { artifactHashes, datasetIdentity } from "../../../lib/protocol/identity.ts";
import { buildDemoProtocol, prepareDemoProtocol } from "../../../lib/protocol/demo.ts";
import { parsePyJson } from "../../../lib/py/json.ts";
import { runRecord } from "../../../lib/policy/mod.ts";
import { qaRunMarker } from "../../../lib/qa/mod.ts";
import { parseGrid, runSweep, sweepRecord } from "../../../lib/sweep/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";

const prepared = await prepareDemoProtocol(await buildDemoProtocol());
const { contracts } = prepared;
const source = { dirty: false, head: null };

/** A block as written, and as built; key order too (the parse keeps the file's order). */
function assertBlock(written: unknown, built: Record<string, string>): void {
  assertEquals(written, built);
  assertEquals(Object.keys(written as object), Object.keys(built));
}

Deno.test("run.json: artifacts and dataset are the builders' (the dataset's digest as verified)", () => {
  const record = parsePyJson(runRecord(contracts, prepared.dataset.sha256, new Date(0), source)) as never;
  assertBlock(record["artifacts"], artifactHashes(contracts));
  assertBlock(record["dataset"], datasetIdentity(contracts, prepared.dataset.sha256));
});

Deno.test("qa_run.json: artifacts (with the dataset's) and dataset are the builders' (the pin)", () => {
  const marker = parsePyJson(qaRunMarker(contracts, new Date(0), source)) as never;
  assertBlock(marker["artifacts"], artifactHashes(contracts, contracts.config.dataset.sha256));
  assertBlock(marker["dataset"], datasetIdentity(contracts));
});

Deno.test("sweep.json: artifacts and dataset are the builders' (the dataset's digest as verified)", () => {
  const grid = "confirmation_half_life_days: [90]\naccess_half_life_days: [30]\ncapacities: [5, 7, 9]\n";
  const result = runSweep(prepared, parseGrid(grid, "grid.yaml", contracts.config));
  const record = parsePyJson(
    sweepRecord(result, contracts, prepared.dataset.sha256, "deermem-eval", "0".repeat(64)),
  ) as never;
  assertBlock(record["artifacts"], artifactHashes(contracts));
  assertBlock(record["dataset"], datasetIdentity(contracts, prepared.dataset.sha256));
});

Deno.test("the verified dataset's digest is the pin, so both spellings of the dataset block agree", () => {
  assertEquals(datasetIdentity(contracts, prepared.dataset.sha256), datasetIdentity(contracts));
});
