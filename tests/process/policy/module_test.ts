import { assert, assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, runCli, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";
import { PolicyModuleError } from "../../../lib/policy/mod.ts";
import { checkPolicyName, loadPolicyModule } from "../../../lib/policy/module.ts";

const POLICIES_DIR = `${ROOT}tests/fixtures/policies`;
const REFERENCE_ROWS = (await Deno.readTextFile(`${GOLDEN}/fixture-run/policy/policy.raw.jsonl`))
  .trimEnd().split("\n");

Deno.test("loadPolicyModule hashes the source and refuses a module without a policy", async () => {
  const path = `${POLICIES_DIR}/recency.ts`;
  const loaded = await loadPolicyModule(path);
  assertEquals(loaded.policy.name, "recency");
  assertEquals(loaded.moduleName, "recency.ts");
  assertEquals(loaded.sha256, await sha256Hex(await Deno.readFile(path)));
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

Deno.test("a module's syntax error and load-time throw name the module's file, line and column", async () => {
  await withTempDir(async (directory) => {
    const broken = `${directory}/broken.ts`;
    await Deno.writeTextFile(broken, 'export default {\n  name: "x"\n  scores: 1,\n};\n');
    await assertRejects(
      () => loadPolicyModule(broken),
      PolicyModuleError,
      `${broken}: cannot load the module: SyntaxError: Expected ',', got 'scores' at ${broken}:3:3`,
    );
    const throws = `${directory}/throws.ts`;
    await Deno.writeTextFile(throws, '\nconst x = 1;\nthrow new Error("at import");\n');
    await assertRejects(
      () => loadPolicyModule(throws),
      PolicyModuleError,
      `${throws}: cannot load the module: Error: at import at ${throws}:3:7`,
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
        "--allow-run=/usr/bin/prlimit",
        "--cached-only",
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
    const sha256 = await sha256Hex(source);
    const all = (await Deno.readTextFile(`${directory}/policy.raw.jsonl`)).trimEnd().split("\n");
    // The published pair's rows first, as the reference wrote them; then the module's.
    assertEquals(all.length, REFERENCE_ROWS.length + 45 * 3);
    const rows = all.slice(REFERENCE_ROWS.length).map((line) => JSON.parse(line));
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
        group.policy === "recency" && group.scenario === scenario && group.capacity === capacity
      ).support_all_retained;
    assertEquals([kept("confirmation_help", 5), kept("access_help", 5), kept("confidence_control", 5)], [
      10,
      10,
      10,
    ]);
    assertEquals([kept("noisy_signal_control", 9), kept("correction_reserve", 9)], [0, 0]);
    const run = JSON.parse(await Deno.readTextFile(`${directory}/run.json`));
    assertEquals([run.policies, run.policy_module], [
      ["confidence", "hybrid-v1", "recency"],
      { file: "recency.ts", name: "recency", sha256 },
    ]);
    assertMatch(result.stdout, /support retained\s+confidence\s+hybrid-v1\s+recency\n/);
  });
});

Deno.test("run-policy --policy-module: the module cannot read the environment the CLI read the dataset path from", async () => {
  await withTempDir(async (directory) => {
    const result = await runPolicyModule(directory, "reads_env.ts", {
      LONGMEMEVAL_ORACLE_PATH: FIXTURE_DATASET,
    });
    assertEquals(result.code, 0, result.stderr);
    const rows = (await Deno.readTextFile(`${directory}/policy.raw.jsonl`)).trimEnd().split("\n")
      .filter((line) => JSON.parse(line).policy === "reads-env");
    assertEquals(rows.length, 45 * 3);
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
      /: case fixture_correction_diet at capacity 5: the policy threw Error: no corrections here at \S+\/throws\.ts:8:13$/,
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

Deno.test("checkPolicyName compares names after NFKC and refuses invisible and space-like characters", () => {
  const refusals: [string, RegExp][] = [
    [
      "hybrid-v1\u00a0",
      /^p\.ts: default\.name: must not hold invisible or space-like characters: "hybrid-v1\\u\{a0\}"$/,
    ],
    ["confidence\u200b", /^p\.ts: default\.name: must be printable text without control characters/],
    [
      "\uff48\uff59\uff42\uff52\uff49\uff44-v1",
      /^p\.ts: default\.name: must not take a published policy's name \(hybrid-v1\)$/,
    ],
    ["confidence\u2028", /^p\.ts: default\.name: must (be printable|not hold invisible)/],
    ["keep\u3000first", /^p\.ts: default\.name: must not hold invisible or space-like characters/],
    ["keep\u115ffirst", /^p\.ts: default\.name: must not hold invisible or space-like characters/],
    ["hybrid-v1 ", /^p\.ts: default\.name: must not start or end with a space, or hold two in a row$/],
    [" recency", /must not start or end with a space/],
    ["Hybrid-V1", /^p\.ts: default\.name: must not take a published policy's name \(hybrid-v1\)$/],
  ];
  for (const [name, expected] of refusals) {
    let thrown: unknown;
    try {
      checkPolicyName(name, "p.ts");
    } catch (error) {
      thrown = error;
    }
    assert(thrown instanceof PolicyModuleError, JSON.stringify(name));
    assertMatch(thrown.message, expected);
  }
  checkPolicyName("recency v2", "p.ts");
  checkPolicyName("récence", "p.ts");
});
