/**
 * The selection rule over the whole dataset: every eligible case, counted against a filter written here from
 * the raw rows, and `validate`'s preparation refusing a manifest missing an eligible case or holding an
 * ineligible one.
 */

import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";
import { ContractError } from "../../../lib/base/errors.ts";
import { DatasetIntegrityError } from "../../../lib/protocol/errors.ts";
import {
  eligibleCount,
  eligibleLine,
  eligibleRows,
  pinnedEligibleBound,
} from "../../../lib/protocol/eligible.ts";
import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { buildDemoProtocol, loadDemoDataset, prepareDemoProtocol } from "../../../lib/protocol/demo.ts";

const demo = await buildDemoProtocol();
const { contracts, dataset } = await loadDemoDataset(demo);
const rule = contracts.official.selection;

/** The rule from the raw JSON: type, no pilot, no `_abs`, the answer's bounds and words; evidence as parsed. */
function eligibleByHand(type: string): string[] {
  const raw = JSON.parse(new TextDecoder().decode(demo.dataset)) as Record<string, unknown>[];
  return raw.filter((row) => {
    const id = String(row.question_id);
    const answer = String(row.answer).trim();
    const evidence = dataset.byId.get(id)!.evidenceLength;
    return row.question_type === type && !rule.excluded_pilot_ids.includes(id) && !id.endsWith("_abs") &&
      [...answer].length >= rule.answer_min_chars && [...answer].length <= rule.answer_max_chars &&
      !rule.answer_excluded_substrings.some((text) => answer.toLowerCase().includes(text)) &&
      evidence >= rule.evidence_min_chars && evidence <= rule.evidence_max_chars;
  }).map((row) => String(row.question_id)).sort();
}

Deno.test("every eligible row per type, by question_id, as the rule written out from the raw rows finds them", () => {
  const byType = eligibleRows(dataset, contracts.official);
  assertEquals([...byType.keys()], rule.eligible_question_types);
  let total = 0;
  for (const type of rule.eligible_question_types) {
    const ids = byType.get(type)!.map((row) => row.questionId);
    assertEquals(ids, eligibleByHand(type));
    total += ids.length;
  }
  const count = eligibleCount(dataset, contracts.official);
  assertEquals(count.total, total);
  assert(count.total > 40, `${count.total}`);
});

Deno.test("validate's preparation counts the eligible cases and refuses a manifest missing one or holding an ineligible one", async () => {
  assertEquals((await prepareDemoProtocol(demo)).eligible, eligibleCount(dataset, contracts.official));
  const official = JSON.parse(demo.official);
  const [scenario] = official.scenario_order;
  // Ten IDs still, but one eligible case the rule takes swapped for an eligible one it does not take.
  const [type] = rule.eligible_question_types;
  const untaken =
    eligibleRows(dataset, contracts.official).get(type)![rule.take_per_question_type].questionId;
  const missing = structuredClone(official);
  const dropped = missing.scenarios[scenario][0];
  missing.scenarios[scenario][0] = untaken;
  const refusedMissing = await assertRejects(
    () => prepareDemoProtocol({ ...demo, official: JSON.stringify(missing) }),
    DatasetIntegrityError,
  );
  assert(
    refusedMissing.message.startsWith(`demo:official.json: scenarios.${scenario}: pinned IDs do not match`),
  );
  assert(refusedMissing.message.includes(`expected ${dropped},`), refusedMissing.message);
  // One fewer ID is refused by the manifest's own shape.
  const shorter = structuredClone(official);
  shorter.scenarios[scenario].pop();
  await assertRejects(
    () => prepareDemoProtocol({ ...demo, official: JSON.stringify(shorter) }),
    ContractError,
  );
  const ineligible = dataset.rows.find((row) => row.questionId.endsWith("_abs"))!.questionId;
  const holding = structuredClone(official);
  holding.scenarios[scenario][0] = ineligible;
  const refusedIneligible = await assertRejects(
    () => prepareDemoProtocol({ ...demo, official: JSON.stringify(holding) }),
    DatasetIntegrityError,
  );
  assert(refusedIneligible.message.includes(`got ${ineligible},`), refusedIneligible.message);
});

Deno.test("validate's eligible line: each type's eligible count by the hand-written rule beside what the manifest takes", () => {
  const take = rule.take_per_question_type;
  const counts = rule.eligible_question_types.map((type) => [type, eligibleByHand(type).length] as const);
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  assertEquals(
    eligibleLine(eligibleCount(dataset, contracts.official), take),
    `eligible by the manifest's selection rule: ${
      counts.map(([type, count]) => `${type} ${count} (takes ${take})`).join(", ")
    }; ${total} in all, ${take * counts.length} taken`,
  );
});

Deno.test("the pinned dataset's public bound: 72 knowledge-update + 127 temporal-reasoning, only for its SHA-256", async () => {
  const pinned = await loadContracts(embeddedSources());
  assertEquals(pinnedEligibleBound(pinned), 72 + 127);
  assertEquals(pinnedEligibleBound(contracts), undefined); // the demo pins another dataset
  const otherTypes = structuredClone(pinned);
  otherTypes.official.selection.eligible_question_types = ["knowledge-update", "multi-session"];
  assertEquals(pinnedEligibleBound(otherTypes), undefined); // no public count for this type
});
