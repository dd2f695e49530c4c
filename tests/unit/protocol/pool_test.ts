/** The fact pool of a case: metadata rules, IDs, timestamps and usage as the reference writes them. */
import { prepareCases } from "../../../lib/protocol/cases.ts";
import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { parseRows } from "../../../lib/protocol/dataset.ts";
import { parseOfficialManifest } from "../../../lib/protocol/manifest.ts";
import { buildPool } from "../../../lib/protocol/pool.ts";
import { assertEquals } from "../../helpers/assert.ts";

const contracts = await loadContracts(embeddedSources());

// deno-lint-ignore no-explicit-any
function dataset(rows: Record<string, any>[]) {
  return { sha256: "x", ...parseRows(rows, "test.json") };
}

Deno.test("pools: metadata rules, IDs, timestamps and usage as the reference writes them", async () => {
  const demo = await (await import("../../../lib/protocol/demo.ts")).buildDemoProtocol();
  const official = parseOfficialManifest(demo.official, "demo.json");
  const data = dataset(JSON.parse(new TextDecoder().decode(demo.dataset)));
  const cases = await prepareCases(data, {
    ...contracts,
    official: { ...official, protocol_id: contracts.config.protocol_id },
  });
  assertEquals(cases.length, 45);
  assertEquals(cases.map((item) => item.source).filter((source) => source === "synthetic").length, 5);
  const access = cases.find((item) => item.scenario === "access_help" && item.lossRank === 8)!;
  const pool = buildPool(access, contracts.config.evaluation_time);
  assertEquals(pool.facts.map((fact) => fact.id), [...pool.facts.map((fact) => fact.id)].sort());
  const gold = pool.facts.find((fact) => fact.id === `gold_${access.caseId}`)!;
  assertEquals(gold.confidence, 0.70);
  assertEquals(gold.createdAt, "2026-02-14T00:00:00Z");
  assertEquals(gold.source, `deermem-eviction-eval:${access.caseId}`);
  assertEquals(pool.usage[gold.id], {
    accessHeat: 8,
    accessCount: 8,
    lastAccessedAt: "2026-08-13T00:00:00Z",
  });
  const third = pool.facts.find((fact) => fact.id.startsWith(`d_${access.caseId}_3_`))!;
  assertEquals(third.confidence, 0.94 - 0.02 * 3);
  const eighth = pool.facts.find((fact) => fact.id.startsWith(`d_${access.caseId}_7_`))!;
  assertEquals(eighth.confidence, 0.68 - 0.02 * (7 - 7));
  const control = cases.find((item) => item.scenario === "confidence_control")!;
  const controlPool = buildPool(control, contracts.config.evaluation_time);
  const fifth = controlPool.facts.find((fact) => fact.id.startsWith(`d_${control.caseId}_5_`))!;
  assertEquals([fifth.confidence, fifth.lastConfirmedAt, fifth.confirmationCount], [
    0.70,
    "2026-08-06T00:00:00Z",
    1,
  ]);
  const sixth = controlPool.facts.find((fact) => fact.id.startsWith(`d_${control.caseId}_6_`))!;
  assertEquals(controlPool.usage[sixth.id]?.accessHeat, 8);
});
