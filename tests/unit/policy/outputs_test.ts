import { RowIntegrityError } from "../../../lib/base/errors.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";
import type { PolicyResult } from "../../../lib/policy/contract.ts";
import { evaluateAll } from "../../../lib/policy/evaluate.ts";
import {
  parsePolicyRawRows,
  policyRawJsonl,
  policySummary,
  policySummaryOf,
  rawRowEntry,
  retentionTable,
  retentionTableOf,
  runRecord,
} from "../../../lib/policy/outputs.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";
import { GOLDEN } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";

const REFERENCE = `${GOLDEN}/fixture-run/policy`;

async function fixtureResults(): Promise<{ results: PolicyResult[]; protocolId: string }> {
  const contracts = await fixtureContracts();
  const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  return { results: evaluateAll(prepared.cases, contracts.config), protocolId: contracts.config.protocol_id };
}

Deno.test("policyRawJsonl and policySummary give the reference's bytes for the fixture protocol", async () => {
  const { results, protocolId } = await fixtureResults();
  assertEquals(policyRawJsonl(results), await Deno.readTextFile(`${REFERENCE}/policy.raw.jsonl`));
  assertEquals(policySummary(results, protocolId), await Deno.readTextFile(`${REFERENCE}/summary.json`));
});

Deno.test("summary.json rebuilt from the raw rows read back equals the reference's, and so does the table", async () => {
  const { results, protocolId } = await fixtureResults();
  const entries = parsePolicyRawRows(await Deno.readTextFile(`${REFERENCE}/policy.raw.jsonl`), "raw").map(
    rawRowEntry,
  );
  assertEquals(entries.length, 270);
  assertEquals(policySummaryOf(entries, protocolId), await Deno.readTextFile(`${REFERENCE}/summary.json`));
  assertEquals(retentionTableOf(entries), retentionTable(results));
});

Deno.test("runRecord gives the reference's run.json apart from its creation time", async () => {
  const contracts = await fixtureContracts();
  const reference = await Deno.readTextFile(`${REFERENCE}/run.json`);
  const source = { dirty: false, head: "4f08fa634942c71d34818b8d52a20cdae59c5228" };
  const datasetSha256 = await sha256Hex(await Deno.readFile(FIXTURE_DATASET));
  const text = runRecord(contracts, datasetSha256, new Date(0), source);
  assertEquals(
    text,
    reference.replace('"2026-11-29T11:11:43.581470Z"', '"1970-01-01T00:00:00Z"'),
  );
});

Deno.test("the retention table: a header, then per capacity one line per scenario and an all-cases line", async () => {
  const { results } = await fixtureResults();
  const lines = retentionTable(results).split("\n");
  assertMatch(lines[0], /^support retained\s+confidence\s+hybrid-v1$/);
  const scenarios = new Set(results.map((result) => result.prepared.scenario)).size;
  assertEquals(lines.length, 1 + 3 * (scenarios + 2));
  assertEquals(lines.filter((line) => line.startsWith("capacity ")), [
    "capacity 5",
    "capacity 7",
    "capacity 9",
  ]);
  const totals = lines.filter((line) => /^ {2}all \d+ cases/.test(line));
  assertEquals(totals.length, 3);
  for (const line of totals) assertMatch(line, /^ {2}all 45 cases\s+\d+\/45\s+\d+\/45$/);
});

Deno.test("parsePolicyRawRows names the line and field of a bad row", () => {
  assertThrows(() => parsePolicyRawRows("{}\nnot json\n", "p.jsonl"), RowIntegrityError, "line 1: ");
  assertThrows(
    () => parsePolicyRawRows("\nnot json\n", "p.jsonl"),
    RowIntegrityError,
    "line 2: not valid JSON",
  );
});
