/**
 * `authorProtocol` with a seed: each eligible type's cases drawn by the SHA-256 of `seed:question_id`,
 * recomputed here from the raw eligible rows with WebCrypto, recorded in the manifest, prepared as `validate`
 * prepares it, and a drawn case swapped for an undrawn eligible one refused.
 */

import { assert, assertEquals, assertNotEquals, assertRejects } from "../../helpers/assert.ts";
import { authorProtocol, type AuthorSource } from "../../../lib/protocol/author.ts";
import { eligibleRows } from "../../../lib/protocol/eligible.ts";
import { DatasetIntegrityError } from "../../../lib/protocol/errors.ts";
import { buildDemoProtocol, loadDemoDataset, prepareDemoProtocol } from "../../../lib/protocol/demo.ts";

const demo = await buildDemoProtocol();
const { contracts, dataset } = await loadDemoDataset(demo);
const source: AuthorSource = {
  configText: demo.config,
  officialText: demo.official,
  syntheticText: demo.synthetic,
  protocolId: contracts.config.protocol_id,
  official: contracts.official,
  dataset,
  datasetName: "demo.json",
};
const types = contracts.official.selection.eligible_question_types;

/** The draw written out: eligible IDs by the hex SHA-256 of `seed:id`, the first `take`, then sorted. */
async function drawnByHand(type: string, seed: number, take: number): Promise<string[]> {
  const ids = eligibleRows(dataset, contracts.official).get(type)!.map((row) => row.questionId);
  const keyed = await Promise.all(ids.map(async (id) => {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${seed}:${id}`));
    return [[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join(""), id];
  }));
  keyed.sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  return keyed.slice(0, take).map(([, id]) => id).sort();
}

Deno.test("a seeded draw takes each type's first cases by SHA-256 of seed:question_id and records the rule", async () => {
  const authored = await authorProtocol(source, { cases: 81, seed: 7, protocolId: "demo-s7" });
  assertEquals([authored.cases, authored.perType], [80, 40]);
  const manifest = JSON.parse(authored.official);
  assertEquals([manifest.selection.seed, manifest.selection.draw_order], [7, "sha256(seed:question_id)"]);
  const per = manifest.selection.cases_per_type_per_scenario;
  assertEquals(per, 10);
  for (const type of types) {
    const drawn = await drawnByHand(type, 7, 40);
    manifest.scenario_order.forEach((scenario: string, index: number) => {
      const held = manifest.scenarios[scenario].filter((id: string) => drawn.includes(id));
      assertEquals(held, drawn.slice(per * index, per * index + per));
    });
  }
  const first = (await authorProtocol(source, { cases: 81, protocolId: "demo-s7" })).official;
  assertNotEquals(JSON.parse(first).scenarios, manifest.scenarios); // not the first by question_id
});

Deno.test("the same seed gives the same bytes, another seed another selection; no seed, no seed recorded", async () => {
  const request = { cases: 80, seed: 11, protocolId: "demo-seeded" };
  const [one, two] = [await authorProtocol(source, request), await authorProtocol(source, request)];
  assertEquals([one.config, one.official, one.synthetic], [two.config, two.official, two.synthetic]);
  const other = await authorProtocol(source, { ...request, seed: 12 });
  assertNotEquals(JSON.parse(other.official).scenarios, JSON.parse(one.official).scenarios);
  const unseeded = JSON.parse((await authorProtocol(source, { cases: 80, protocolId: "x" })).official);
  assertEquals("seed" in unseeded.selection || "draw_order" in unseeded.selection, false);
});

Deno.test("validate's preparation takes a seeded protocol and refuses a drawn case swapped for an undrawn one", async () => {
  const authored = await authorProtocol(source, { cases: 80, seed: 3, protocolId: "demo-s3" });
  const seeded = {
    ...demo,
    config: authored.config,
    official: authored.official,
    synthetic: authored.synthetic,
  };
  const prepared = await prepareDemoProtocol(seeded);
  assertEquals(prepared.cases.length, 85);
  const manifest = JSON.parse(authored.official);
  const [type] = types;
  const drawn = new Set(await drawnByHand(type, 3, 40));
  const undrawn = eligibleRows(dataset, contracts.official).get(type)!.find((row) =>
    !drawn.has(row.questionId)
  )!;
  const scenario = manifest.scenario_order[1];
  const swapped = manifest.scenarios[scenario][0];
  assert(drawn.has(swapped));
  manifest.scenarios[scenario][0] = undrawn.questionId;
  const refused = await assertRejects(
    () => prepareDemoProtocol({ ...seeded, official: JSON.stringify(manifest) }),
    DatasetIntegrityError,
  );
  assert(
    refused.message.startsWith(`demo:official.json: scenarios.${scenario}: pinned IDs do not match`),
    refused.message,
  );
  assert(refused.message.includes(`expected ${swapped},`), refused.message);
  delete manifest.selection.draw_order;
  manifest.scenarios[scenario][0] = swapped;
  await assertRejects(() => prepareDemoProtocol({ ...seeded, official: JSON.stringify(manifest) }));
});
