// A module's policy run as a run kind of its own: written beside the published pair, read by verify, report and
// explain.

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";

const POLICIES_DIR = `${ROOT}tests/fixtures/policies`;
const RECENCY = `${POLICIES_DIR}/recency.ts`;
// The cli task's own permissions: the module's sandbox runs under what the task grants.
const MODULE_FLAGS = taskFlags("cli");

/** The CLI with run permission for the module's sandbox, on the fixture's protocol. */
function cli(args: string[]) {
  return runCli([...args, ...fixtureProtocolFlags()], { flags: MODULE_FLAGS });
}

/** A module run of `module` on the fixture into `directory`. */
function moduleRun(directory: string, module = RECENCY) {
  return cli([
    "run-policy",
    "--dataset",
    FIXTURE_DATASET,
    "--output-dir",
    directory,
    "--policy-module",
    module,
  ]);
}

/** The first index where two byte strings differ (-1 when equal). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let index = 0; index < Math.max(a.length, b.length); index++) if (a[index] !== b[index]) return index;
  return -1;
}

async function withModuleRun(body: (directory: string, stdout: string) => Promise<void>): Promise<void> {
  await withTempDir(async (temp) => {
    const directory = `${temp}/m-policy`;
    const result = await moduleRun(directory);
    assertEquals(result.code, 0, result.stderr);
    await body(directory, result.stdout);
  });
}

Deno.test("run-policy --policy-module: the published rows byte for byte a plain run's, then the module's, and a three-column table", async () => {
  await withModuleRun(async (directory, stdout) => {
    const sha256 = await sha256Hex(await Deno.readFile(RECENCY));
    const plain = await Deno.readFile(`${GOLDEN}/fixture-run/policy/policy.raw.jsonl`);
    const rows = await Deno.readFile(`${directory}/policy.raw.jsonl`);
    // Compared as an index: a diff of two 100 kB arrays would take minutes.
    assertEquals(firstDifference(rows.subarray(0, plain.length), plain), -1);
    const own = new TextDecoder().decode(rows.subarray(plain.length)).trimEnd().split("\n").map((line) =>
      JSON.parse(line)
    );
    assertEquals(own.length, 45 * 3);
    assert(own.every((row) => row.policy === "recency" && row.policy_module === "recency.ts"));
    assert(own.every((row) => row.policy_module_sha256 === sha256));
    const module = { file: "recency.ts", name: "recency", sha256 };
    const summary = JSON.parse(await Deno.readTextFile(`${directory}/summary.json`));
    assertEquals(summary.policy_module, module);
    assertEquals(
      new Set(summary.groups.map((group: { policy: string }) => group.policy)),
      new Set(["confidence", "hybrid-v1", "recency"]),
    );
    const run = JSON.parse(await Deno.readTextFile(`${directory}/run.json`));
    assertEquals([run.policies, run.policy_module], [["confidence", "hybrid-v1", "recency"], module]);
    assertMatch(stdout, /^support retained\s+confidence\s+hybrid-v1\s+recency\n/);
    assertMatch(stdout, /\n {2}all 45 cases\s+\d+\/45\s+\d+\/45\s+\d+\/45\n/);
  });
});

Deno.test("verify of a module run: structure without the dataset, every row with it and the module, another module refused", async () => {
  await withModuleRun(async (directory) => {
    const bare = await cli(["verify", directory]);
    assertEquals(bare.code, 0, bare.stdout + bare.stderr);
    const full = await cli(["verify", directory, "--dataset", FIXTURE_DATASET, "--policy-module", RECENCY]);
    assertEquals(full.code, 0, full.stdout + full.stderr);
    assertMatch(
      full.stdout,
      /every row \(recency's through its module\)\s+recomputed\s+from\s+the\s+pinned\s+dataset/,
    );
    const published = await cli(["verify", directory, "--dataset", FIXTURE_DATASET]);
    assertEquals(published.code, 0, published.stdout + published.stderr);
    assertMatch(published.stdout, /recency's\s+need\s+--policy-module\s+recency\.ts/);
    const other = await cli(["verify", directory, "--policy-module", `${POLICIES_DIR}/reads_env.ts`]);
    assertEquals([other.code, other.stdout], [2, ""]);
    const recorded = await sha256Hex(await Deno.readFile(RECENCY));
    const given = await sha256Hex(await Deno.readFile(`${POLICIES_DIR}/reads_env.ts`));
    assertEquals(other.stderr.trimEnd().split("\n").length, 1, other.stderr);
    assert(other.stderr.includes(recorded) && other.stderr.includes(given), other.stderr);
    // A changed module row is caught by the recomputation.
    const text = await Deno.readTextFile(`${directory}/policy.raw.jsonl`);
    const lines = text.trimEnd().split("\n");
    const last = JSON.parse(lines.at(-1)!);
    last.kept_fact_ids.reverse();
    await Deno.writeTextFile(
      `${directory}/policy.raw.jsonl`,
      [...lines.slice(0, -1), JSON.stringify(last)].join("\n") + "\n",
    );
    const changed = await cli([
      "verify",
      directory,
      "--dataset",
      FIXTURE_DATASET,
      "--policy-module",
      RECENCY,
    ]);
    assertEquals(changed.code, 1, changed.stdout + changed.stderr);
  });
});

Deno.test("verify --policy-module of a plain policy run says in one line to leave it out", async () => {
  const result = await cli(["verify", `${GOLDEN}/fixture-run/policy`, "--policy-module", RECENCY]);
  assertEquals([result.code, result.stdout], [2, ""]);
  assertMatch(
    result.stderr,
    /run\.json: policy_module: the run records no policy module .*leave out --policy-module\n$/,
  );
});

Deno.test("report of a module run: text, Markdown, HTML and JSON all show the three policies", async () => {
  await withModuleRun(async (directory) => {
    const text = await cli(["report", directory]);
    assertEquals(text.code, 0, text.stderr);
    assertMatch(text.stdout, /support retained\s+confidence\s+hybrid-v1\s+recency\n/);
    for (const format of ["--markdown", "--html"]) {
      const result = await cli(["report", directory, format, "-"]);
      assertEquals(result.code, 0, result.stderr);
      assertMatch(result.stdout, /confidence[^]*hybrid-v1[^]*recency/);
      assert(!/undefined|NaN/.test(result.stdout), format);
    }
    const json = await cli(["report", directory, "--json"]);
    assertEquals(json.code, 0, json.stderr);
    const policies = new Set(
      JSON.parse(json.stdout).retention.map((group: { policy: string }) => group.policy),
    );
    assertEquals(policies, new Set(["confidence", "hybrid-v1", "recency"]));
    // Where the policies keep different supports, the module counts: every (case, capacity) where the three do
    // not all keep the support, each policy that kept it named, computed here from the raw rows.
    const raw = (await Deno.readTextFile(`${directory}/policy.raw.jsonl`)).trim().split("\n").map((line) =>
      JSON.parse(line) as { case_id: string; capacity: number; policy: string; support_all_retained: boolean }
    );
    const byPair = Map.groupBy(raw, (row) => `${row.case_id} ${row.capacity}`);
    const expected = [...byPair].filter(([, rows]) =>
      new Set(rows.map((row) => row.support_all_retained)).size > 1
    )
      .flatMap(([pair, rows]) =>
        rows.filter((row) => row.support_all_retained).map((row) => `${pair} ${row.policy}`)
      );
    assert(expected.some((item) => item.endsWith(" recency")), "the fixture's recency keeps a support alone");
    const found = JSON.parse(json.stdout).differences.map((
      item: { case_id: string; capacity: number; kept_by: string },
    ) => `${item.case_id} ${item.capacity} ${item.kept_by}`);
    assertEquals(found.toSorted(), expected.toSorted());
    assertMatch(
      text.stdout,
      new RegExp(
        `^  ${new Set(expected.map((item) => item.split(" ")[0])).size} cases, ${
          new Set(expected.map((item) => item.split(" ").slice(0, 2).join(" "))).size
        } case × capacity pairs`,
        "m",
      ),
    );
    // The three columns' headings, fitted on two lines.
    const headings = /\n {2}case +scenario +(kept by[^\n]+)\n([^\n]+)\n/.exec(text.stdout)?.slice(1).join(
      " ",
    );
    assertEquals(
      headings?.replace(/\s+/g, " ").match(/kept by|confidence at|hybrid-v1 at|recency/g)?.length,
      6,
    );
    const held = await cli(["report", directory, "--dataset", FIXTURE_DATASET, "--policy-module", RECENCY]);
    assertEquals(held.code, 0, held.stderr);
    assertMatch(held.stdout, /every\s+row\s+\(recency's\s+through\s+its\s+module\)/);
  });
});

Deno.test("explain CASE --policy-module shows the module beside both published policies", async () => {
  const rows = (await Deno.readTextFile(`${GOLDEN}/fixture-run/policy/policy.raw.jsonl`)).split("\n");
  const caseId = JSON.parse(rows[0]).case_id;
  const result = await cli(["explain", caseId, "--dataset", FIXTURE_DATASET, "--policy-module", RECENCY]);
  assertEquals(result.code, 0, result.stderr);
  assertMatch(result.stdout, /confidence/);
  assertMatch(result.stdout, /hybrid-v1/);
  assertMatch(result.stdout, /recency/);
});

/** The `deermem-eval-sandbox-*` directories in `directory`. */
function sandboxDirectories(directory: string): string[] {
  return [...Deno.readDirSync(directory)].map((entry) => entry.name).filter((name) =>
    name.startsWith("deermem-eval-sandbox-")
  );
}

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  Deno.test(`a module run ended by ${signal} (${code}) leaves no sandbox directory in $TMPDIR`, async () => {
    await withTempDir(async (temp) => {
      const module = `${temp}/slow.ts`;
      await Deno.writeTextFile(
        module,
        (await Deno.readTextFile(`${POLICIES_DIR}/first_ids.ts`))
          .replace('name: "first-ids",', 'name: "slow",')
          .replace(
            "select(input) {",
            "select(input) {\n    for (const end = Date.now() + 40; Date.now() < end;);",
          )
          .replace('from "../../../mod.ts"', `from "${ROOT}mod.ts"`),
      );
      const tmp = `${temp}/tmp`;
      await Deno.mkdir(tmp);
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          ...MODULE_FLAGS,
          `${ROOT}cli.ts`,
          "run-policy",
          "--dataset",
          FIXTURE_DATASET,
          "--output-dir",
          `${temp}/out`,
          "--policy-module",
          module,
          ...fixtureProtocolFlags(),
        ],
        env: { NO_COLOR: "1", TMPDIR: tmp },
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const deadline = Date.now() + 60_000;
      while (sandboxDirectories(tmp).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assertEquals(sandboxDirectories(tmp).length, 1);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the module is deciding cases now
      child.kill(signal);
      const output = await child.output();
      assertEquals(output.code, code, new TextDecoder().decode(output.stderr));
      assertEquals(sandboxDirectories(tmp), []);
    });
  });
}
