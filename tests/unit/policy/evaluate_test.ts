import { assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { GOLDEN } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { PolicyModuleError } from "../../../lib/policy/mod.ts";
import { builtinPolicies } from "../../../lib/policy/builtins.ts";
import type { Policy, PolicyDecision } from "../../../lib/policy/contract.ts";
import { evaluatePolicy } from "../../../lib/policy/evaluate.ts";
import { buildPool } from "../../../lib/protocol/pool.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { dumps } from "../../../lib/py/json.ts";

const REFERENCE_ROWS = (await Deno.readTextFile(`${GOLDEN}/fixture-run/policy/policy.raw.jsonl`))
  .trimEnd().split("\n");
const contracts = await fixtureContracts();
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
const firstCase = protocol.cases[0];
const firstIds = buildPool(firstCase, contracts.config.evaluation_time).facts.map((fact) => fact.id);
const FIRST_CASE = `case ${firstCase.caseId} at capacity ${contracts.config.pool.capacities[0]}`;

Deno.test("the published policies are instances of the contract: evaluatePolicy writes the reference's rows", async () => {
  for (const policy of builtinPolicies(contracts.config)) {
    const ours = (await evaluatePolicy(policy, protocol)).map((result) => dumps(result.row));
    const reference = REFERENCE_ROWS.filter((line) => JSON.parse(line).policy === policy.name);
    assertEquals(reference.length, 135);
    assertEquals(ours, reference, policy.name);
  }
});

/** A policy keeping the first `capacity` facts in input order, its decision passed through `change`. */
function firstFacts(change: (decision: PolicyDecision, call: number) => unknown): Policy {
  let call = 0;
  return {
    name: "first",
    select: ({ facts, capacity }) => {
      const ids = facts.map((fact) => fact.id);
      return change({
        kept: ids.slice(0, capacity),
        evicted: ids.slice(capacity).reverse(),
        scores: Object.fromEntries(ids.map((id) => [id, 0.5])),
      }, call++) as PolicyDecision;
    },
  };
}

async function refusal(policy: Policy): Promise<string> {
  return (await assertRejects(
    () => evaluatePolicy(policy, protocol, { origin: "mine.ts" }),
    PolicyModuleError,
  ))
    .message;
}

Deno.test("evaluatePolicy accepts a well-formed policy and runs every case at every capacity", async () => {
  const results = await evaluatePolicy(firstFacts((decision) => decision), protocol);
  assertEquals(results.length, 45 * 3);
  assertEquals(results[0].row.kept_fact_ids, firstIds.slice(0, 5));
});

Deno.test("evaluatePolicy refuses, naming the origin and the case: a policy that throws", async () => {
  const message = await refusal(firstFacts(() => {
    throw new RangeError("bad pool\nwith a second line");
  }));
  assertEquals(message, `mine.ts: ${FIRST_CASE}: the policy threw RangeError: bad pool`);
});

Deno.test("evaluatePolicy refuses unknown, repeated or missing ids", async () => {
  assertEquals(
    await refusal(firstFacts((decision) => ({ ...decision, kept: [...decision.kept.slice(1), "made_up"] }))),
    `mine.ts: ${FIRST_CASE}: returns unknown fact id "made_up"`,
  );
  assertEquals(
    await refusal(firstFacts((decision) => ({ ...decision, scores: { ...decision.scores, made_up: 1 } }))),
    `mine.ts: ${FIRST_CASE}: scores unknown fact id "made_up"`,
  );
  assertEquals(
    await refusal(
      firstFacts((decision) => ({ ...decision, evicted: [...decision.evicted, decision.kept[0]] })),
    ),
    `mine.ts: ${FIRST_CASE}: returns fact id "${firstIds[0]}" twice`,
  );
  assertEquals(
    await refusal(firstFacts((decision) => ({ ...decision, evicted: decision.evicted.slice(0, -1) }))),
    `mine.ts: ${FIRST_CASE}: neither keeps nor evicts fact "${firstIds[5]}"`,
  );
});

Deno.test("evaluatePolicy refuses a policy keeping more than the capacity", async () => {
  assertEquals(
    await refusal(firstFacts((decision) => ({
      ...decision,
      kept: [...decision.kept, decision.evicted.at(-1)!],
      evicted: decision.evicted.slice(0, -1),
    }))),
    `mine.ts: ${FIRST_CASE}: keeps 6 facts, more than the capacity 5`,
  );
});

Deno.test("evaluatePolicy refuses a policy that decides the same case differently twice", async () => {
  assertEquals(
    await refusal(
      firstFacts((decision, call) =>
        call === 1 ? { ...decision, kept: [...decision.kept].reverse() } : decision
      ),
    ),
    `mine.ts: ${FIRST_CASE}: not deterministic: two runs of the same case differ`,
  );
  // Scores count too: the same ids with another score are a different decision.
  assertEquals(
    await refusal(
      firstFacts((decision, call) => ({ ...decision, scores: { ...decision.scores, [firstIds[0]]: call } })),
    ),
    `mine.ts: ${FIRST_CASE}: not deterministic: two runs of the same case differ`,
  );
});

Deno.test("evaluatePolicy refuses a malformed decision and cannot be changed through its input", async () => {
  assertEquals(
    await refusal(firstFacts((decision) => ({ ...decision, kept: "all" }))),
    `mine.ts: ${FIRST_CASE}: malformed decision: kept: Invalid input: expected array, received string`,
  );
  assertMatch(await refusal(firstFacts(() => Promise.resolve({}))), /malformed decision/);
  const mutating: Policy = {
    name: "mutating",
    select: (input) => {
      (input.facts[0] as { confidence: number }).confidence = 0;
      return { kept: [], evicted: [], scores: {} };
    },
  };
  assertMatch(await refusal(mutating), /the policy threw TypeError: Cannot assign to read only property/);
});
