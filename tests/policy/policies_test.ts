import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, runCli, withTempDir } from "../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../helpers/fixture.ts";
import { sha256Hex } from "../../lib/base/hash.ts";
import { PolicyModuleError } from "../../lib/base/errors.ts";
import {
  builtinPolicies,
  evaluatePolicy,
  loadPolicyModule,
  type Policy,
  type PolicyDecision,
} from "../../lib/policy/policies.ts";
import { buildPool } from "../../lib/protocol/pool.ts";
import { prepareProtocol } from "../../lib/protocol/prepare.ts";
import { dumps } from "../../lib/py/json.ts";

const POLICIES_DIR = `${ROOT}tests/fixtures/policies`;
const REFERENCE_ROWS = (await Deno.readTextFile(`${GOLDEN}/fixture-run/policy/policy.raw.jsonl`))
  .trimEnd().split("\n");
const contracts = await fixtureContracts();
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
const firstCase = protocol.cases[0];
const firstIds = buildPool(firstCase, contracts.config.evaluation_time).facts.map((fact) => fact.id);
const FIRST_CASE = `case ${firstCase.caseId} at capacity ${contracts.config.pool.capacities[0]}`;

Deno.test("the published policies are instances of the contract: evaluatePolicy writes the reference's rows", () => {
  for (const policy of builtinPolicies(contracts.config)) {
    const ours = evaluatePolicy(policy, protocol).map((result) => dumps(result.row));
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

function refusal(policy: Policy): string {
  return assertThrows(() => evaluatePolicy(policy, protocol, { origin: "mine.ts" }), PolicyModuleError)
    .message;
}

Deno.test("evaluatePolicy accepts a well-formed policy and runs every case at every capacity", () => {
  const results = evaluatePolicy(firstFacts((decision) => decision), protocol);
  assertEquals(results.length, 45 * 3);
  assertEquals(results[0].row.kept_fact_ids, firstIds.slice(0, 5));
});

Deno.test("evaluatePolicy refuses, naming the origin and the case: a policy that throws", () => {
  const message = refusal(firstFacts(() => {
    throw new RangeError("bad pool\nwith a second line");
  }));
  assertEquals(message, `mine.ts: ${FIRST_CASE}: the policy threw RangeError: bad pool`);
});

Deno.test("evaluatePolicy refuses unknown, repeated or missing ids", () => {
  assertEquals(
    refusal(firstFacts((decision) => ({ ...decision, kept: [...decision.kept.slice(1), "made_up"] }))),
    `mine.ts: ${FIRST_CASE}: returns unknown fact id "made_up"`,
  );
  assertEquals(
    refusal(firstFacts((decision) => ({ ...decision, scores: { ...decision.scores, made_up: 1 } }))),
    `mine.ts: ${FIRST_CASE}: scores unknown fact id "made_up"`,
  );
  assertEquals(
    refusal(firstFacts((decision) => ({ ...decision, evicted: [...decision.evicted, decision.kept[0]] }))),
    `mine.ts: ${FIRST_CASE}: returns fact id "${firstIds[0]}" twice`,
  );
  assertEquals(
    refusal(firstFacts((decision) => ({ ...decision, evicted: decision.evicted.slice(0, -1) }))),
    `mine.ts: ${FIRST_CASE}: neither keeps nor evicts fact "${firstIds[5]}"`,
  );
});

Deno.test("evaluatePolicy refuses a policy keeping more than the capacity", () => {
  assertEquals(
    refusal(firstFacts((decision) => ({
      ...decision,
      kept: [...decision.kept, decision.evicted.at(-1)!],
      evicted: decision.evicted.slice(0, -1),
    }))),
    `mine.ts: ${FIRST_CASE}: keeps 6 facts, more than the capacity 5`,
  );
});

Deno.test("evaluatePolicy refuses a policy that decides the same case differently twice", () => {
  assertEquals(
    refusal(
      firstFacts((decision, call) =>
        call === 1 ? { ...decision, kept: [...decision.kept].reverse() } : decision
      ),
    ),
    `mine.ts: ${FIRST_CASE}: not deterministic: two runs of the same case differ`,
  );
  // Scores count too: the same ids with another score are a different decision.
  assertEquals(
    refusal(
      firstFacts((decision, call) => ({ ...decision, scores: { ...decision.scores, [firstIds[0]]: call } })),
    ),
    `mine.ts: ${FIRST_CASE}: not deterministic: two runs of the same case differ`,
  );
});

Deno.test("evaluatePolicy refuses a malformed decision and cannot be changed through its input", () => {
  assertEquals(
    refusal(firstFacts((decision) => ({ ...decision, kept: "all" }))),
    `mine.ts: ${FIRST_CASE}: malformed decision: kept: Invalid input: expected array, received string`,
  );
  assertMatch(refusal(firstFacts(() => Promise.resolve({}))), /malformed decision/);
  const mutating: Policy = {
    name: "mutating",
    select: (input) => {
      (input.facts[0] as { confidence: number }).confidence = 0;
      return { kept: [], evicted: [], scores: {} };
    },
  };
  assertMatch(refusal(mutating), /the policy threw TypeError: Cannot assign to read only property/);
});

Deno.test("loadPolicyModule hashes the source and refuses a module without a policy", async () => {
  const path = `${POLICIES_DIR}/recency.ts`;
  const loaded = await loadPolicyModule(path);
  assertEquals(loaded.policy.name, "recency");
  assertEquals(loaded.moduleName, "recency.ts");
  assertEquals(loaded.sha256, sha256Hex(await Deno.readFile(path)));
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/none.ts`, "export const policy = 1;\n");
    await assertRejects(
      () => loadPolicyModule(`${directory}/none.ts`),
      PolicyModuleError,
      `${directory}/none.ts: default: must export default a policy`,
    );
    await Deno.writeTextFile(`${directory}/broken.ts`, 'throw new Error("at import");\n');
    await assertRejects(
      () => loadPolicyModule(`${directory}/broken.ts`),
      PolicyModuleError,
      `${directory}/broken.ts: cannot load the module: Error: at import`,
    );
    await assertRejects(() => loadPolicyModule(`${directory}/absent.ts`), Error, "not found");
    await Deno.writeTextFile(
      `${directory}/impostor.ts`,
      'export default { name: "hybrid-v1", select: () => ({ kept: [], evicted: [], scores: {} }) };\n',
    );
    await assertRejects(
      () => loadPolicyModule(`${directory}/impostor.ts`),
      PolicyModuleError,
      `${directory}/impostor.ts: default.name: must not take a published policy's name (hybrid-v1)`,
    );
  });
});

function runPolicyModule(directory: string, module: string, env?: Record<string, string>) {
  const dataset = env === undefined ? ["--dataset", FIXTURE_DATASET] : [];
  return runCli(
    [
      "run-policy",
      ...dataset,
      "--output-dir",
      directory,
      "--policy-module",
      `${POLICIES_DIR}/${module}`,
      ...fixtureProtocolFlags(),
    ],
    {
      flags: [
        "--no-prompt",
        "--allow-read",
        "--allow-write",
        "--allow-env=LONGMEMEVAL_ORACLE_PATH",
        "--ignore-env",
      ],
      env,
    },
  );
}

async function listDir(directory: string): Promise<string[]> {
  const names = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

Deno.test("run-policy --policy-module: the recency example writes run-policy's rows plus the module's name and hash", async () => {
  await withTempDir(async (directory) => {
    const result = await runPolicyModule(directory, "recency.ts");
    assertEquals(result.code, 0, result.stderr);
    const source = await Deno.readFile(`${POLICIES_DIR}/recency.ts`);
    const sha256 = sha256Hex(source);
    const rows = (await Deno.readTextFile(`${directory}/policy.raw.jsonl`)).trimEnd().split("\n").map((
      line,
    ) => JSON.parse(line));
    assertEquals(rows.length, 45 * 3);
    const referenceKeys = Object.keys(JSON.parse(REFERENCE_ROWS[0])).sort();
    for (const row of rows) {
      assertEquals(row.policy, "recency");
      assertEquals(row.policy_module, "recency.ts");
      assertEquals(row.policy_module_sha256, sha256);
      assertEquals(
        Object.keys(row).sort(),
        [...referenceKeys, "policy_module", "policy_module_sha256"].sort(),
      );
    }
    // Same cases and capacities, in the same order, as the published run.
    const reference = REFERENCE_ROWS.map((line) => JSON.parse(line)).filter((row) =>
      row.policy === "confidence"
    );
    assertEquals(
      rows.map((row) => [row.case_id, row.capacity]),
      reference.map((row) => [row.case_id, row.capacity]),
    );
    // Recency alone: a support confirmed a week ago or accessed at the clock outranks distractors made 180 days
    // ago; a 30-day-old support in confidence_control has only four fresher distractors (the signalled ones) ahead
    // of it; a 180-day-old support ties with the unsignalled distractors and loses the tie on its id (gold_ > d_).
    const summary = JSON.parse(await Deno.readTextFile(`${directory}/summary.json`));
    const kept = (scenario: string, capacity: number) =>
      summary.groups.find((group: Record<string, unknown>) =>
        group.scenario === scenario && group.capacity === capacity
      ).support_all_retained;
    assertEquals([kept("confirmation_help", 5), kept("access_help", 5), kept("confidence_control", 5)], [
      10,
      10,
      10,
    ]);
    assertEquals([kept("noisy_signal_control", 9), kept("correction_reserve", 9)], [0, 0]);
    const run = JSON.parse(await Deno.readTextFile(`${directory}/run.json`));
    assertEquals([run.policies, run.policy_module, run.policy_module_sha256], [
      ["recency"],
      "recency.ts",
      sha256,
    ]);
    assertMatch(result.stdout, /support retained\s+recency\n/);
  });
});

Deno.test("run-policy --policy-module: the module cannot read the environment the CLI read the dataset path from", async () => {
  await withTempDir(async (directory) => {
    const result = await runPolicyModule(directory, "reads_env.ts", {
      LONGMEMEVAL_ORACLE_PATH: FIXTURE_DATASET,
    });
    assertEquals(result.code, 0, result.stderr);
    const rows = (await Deno.readTextFile(`${directory}/policy.raw.jsonl`)).trimEnd().split("\n");
    const scores = rows.flatMap((line) =>
      Object.values(JSON.parse(line).scores).map((score) => (score as { value: number }).value)
    );
    assertEquals(new Set(scores), new Set([0]));
  });
});

for (
  const [module, expected] of [
    [
      "throws.ts",
      /: case fixture_correction_diet at capacity 5: the policy threw Error: no corrections here$/,
    ],
    ["unknown_id.ts", /: case \w+ at capacity 5: returns unknown fact id "invented_fact"$/],
    ["over_capacity.ts", /: case \w+ at capacity 5: keeps 6 facts, more than the capacity 5$/],
    ["flaky.ts", /: case \w+ at capacity 5: not deterministic: two runs of the same case differ$/],
  ] as const
) {
  Deno.test(`run-policy --policy-module refuses ${module} in one line, exit 2, writing nothing`, async () => {
    await withTempDir(async (directory) => {
      const result = await runPolicyModule(directory, module);
      assertEquals(result.code, 2, result.stderr);
      const lines = result.stderr.trimEnd().split("\n");
      assertEquals(lines.length, 1, result.stderr);
      assert(lines[0].startsWith(`deermem-eval run-policy: ${POLICIES_DIR}/${module}: case `), lines[0]);
      assertMatch(lines[0], expected);
      assertEquals(await listDir(directory), []);
    });
  });
}
