/** One case's pool explained under both policies, against the reference's own policy rows. */
import { InputError } from "../../../lib/base/errors.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { explainCase, explainText } from "../../../lib/report/mod.ts";
import { assertEquals, assertStringIncludes, assertThrows } from "../../helpers/assert.ts";
import { GOLDEN } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
const referenceRows: Record<string, unknown>[] =
  (await Deno.readTextFile(`${GOLDEN}/fixture-run/policy/policy.raw.jsonl`))
    .trim().split("\n").map((line) => JSON.parse(line));

Deno.test("explain agrees with the reference's policy rows: kept facts and every score, at every capacity", () => {
  for (const caseId of ["05fdf179", "fixture_correction_deploy", prepared.cases[25].caseId]) {
    const explanation = explainCase(prepared.cases, caseId, contracts.config);
    assertEquals(explanation.facts.length, 10);
    for (const row of referenceRows.filter((item) => item.case_id === caseId)) {
      const policy = row.policy as string;
      const kept = explanation.facts.filter((fact) =>
        fact.policies[policy].keptAt.includes(row.capacity as number)
      )
        .map((fact) => fact.id).sort();
      assertEquals(kept, [...(row.kept_fact_ids as string[])].sort(), `${caseId} ${policy} ${row.capacity}`);
      const scores = row.scores as Record<string, { value: number; components: Record<string, number> }>;
      for (const fact of explanation.facts) {
        assertEquals(fact.policies[policy].score, scores[fact.id].value);
        assertEquals(
          { ...fact.policies[policy].components } as Record<string, number>,
          scores[fact.id].components,
        );
      }
      const support = explanation.facts.filter((fact) => fact.role === "support").map((fact) => fact.id);
      assertEquals(support, row.support_fact_ids);
    }
  }
});

Deno.test("explain ranks by score, ties by pool order, and says where each policy lost the support", () => {
  const explanation = explainCase(prepared.cases, "05fdf179", contracts.config);
  const support = explanation.facts.find((fact) => fact.role === "support")!;
  assertEquals([support.policies.confidence.rank, support.policies["hybrid-v1"].rank], [6, 1]);
  assertEquals(support.policies.confidence.keptAt, [7, 9]);
  assertEquals(support.policies["hybrid-v1"].keptAt, [5, 7, 9]);
  for (const policy of ["confidence", "hybrid-v1"]) {
    const ranks = explanation.facts.map((fact) => fact.policies[policy].rank).sort((a, b) => a - b);
    assertEquals(ranks, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  }
  const text = explainText(explanation, { showText: false });
  assertStringIncludes(text, "support gold_05fdf179 under confidence: rank 6, evicted at capacity 5");
  assertStringIncludes(text, "support gold_05fdf179 under hybrid-v1: rank 1, kept at every capacity");
});

Deno.test("a correction case shows the reserved correction slots", () => {
  const explanation = explainCase(prepared.cases, "fixture_correction_deploy", contracts.config);
  assertEquals(explanation.reservedSlots["hybrid-v1"], { 5: 1, 7: 1, 9: 1 });
  assertEquals(explanation.facts.find((fact) => fact.role === "support")!.category, "correction");
  assertStringIncludes(explainText(explanation, { showText: false }), "hybrid-v1 reserved correction slots");
});

Deno.test("an unknown case id is bad input", () => {
  assertThrows(() => explainCase(prepared.cases, "nope", contracts.config), InputError, 'no case "nope"');
});
