import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { ROOT, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { PolicyModuleError } from "../../../lib/policy/mod.ts";
import type { Policy } from "../../../lib/policy/contract.ts";
import { evaluatePolicy } from "../../../lib/policy/evaluate.ts";
import { loadPolicyModule } from "../../../lib/policy/module.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { dumps } from "../../../lib/py/json.ts";

const contracts = await fixtureContracts();
const protocol = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);

/** keep_first.ts's policy, in this process: its rank scores start at -0, which JSON alone would make 0. */
const KEEP_FIRST: Policy = {
  name: "keep-first",
  select(input) {
    const ids = input.facts.map((fact) => fact.id);
    return {
      kept: ids.slice(0, input.capacity),
      evicted: ids.slice(input.capacity).reverse(),
      scores: Object.fromEntries(ids.map((id, rank) => [id, -rank])),
    };
  },
};

Deno.test("a module's policy in its sandbox writes byte for byte the rows it writes in this process", async () => {
  const loaded = await loadPolicyModule(`${ROOT}tests/fixtures/policies/hostile/keep_first.ts`);
  const sandboxed = (await evaluatePolicy(loaded.policy, protocol)).map((result) => dumps(result.row));
  const inProcess = (await evaluatePolicy(KEEP_FIRST, protocol)).map((result) => dumps(result.row));
  assertEquals(sandboxed.length, 45 * 3);
  assertEquals(sandboxed, inProcess);
  assertEquals(/"value": -0\.0\b/.test(sandboxed[0]), true, sandboxed[0]); // the first fact's score, -0
});

Deno.test("a decision is judged the same in the sandbox: a NaN score, an undefined id, a thrown error", async () => {
  await withTempDir(async (directory) => {
    const decisions = {
      nan: "({ kept: [], evicted: [], scores: { x: NaN } })",
      undefinedId: "({ kept: [undefined], evicted: [], scores: {} })",
      throws: '(() => { throw new RangeError("bad\\nsecond line"); })()',
    };
    for (const [name, body] of Object.entries(decisions)) {
      const path = `${directory}/${name}.js`;
      await Deno.writeTextFile(path, `export default { name: "${name}", select: () => ${body} };\n`);
      const inProcess: Policy = { name, select: new Function(`return ${body};`) as Policy["select"] };
      const expected = await assertRejects(() => evaluatePolicy(inProcess, protocol, { origin: path }));
      const loaded = await loadPolicyModule(path);
      await assertRejects(
        () => evaluatePolicy(loaded.policy, protocol),
        PolicyModuleError,
        (expected as Error).message,
      );
    }
  });
});

Deno.test("loadPolicyModule refuses a module read past its cap, and a module that is not a policy, naming it", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/big.ts`, `// ${"x".repeat(1 << 20)}\n`);
    await assertRejects(() => loadPolicyModule(`${directory}/big.ts`), Error, "big.ts");
    await Deno.writeTextFile(
      `${directory}/long.ts`,
      `export default { name: "${"n".repeat(129)}", select() {} };\n`,
    );
    await assertRejects(
      () => loadPolicyModule(`${directory}/long.ts`),
      PolicyModuleError,
      `${directory}/long.ts: default.name: must be at most 128 characters, got 129`,
    );
  });
});

/** The pids of this process's sandbox children (prlimit execs the child deno in place, so they are children). */
async function sandboxChildren(): Promise<number[]> {
  const output = await new Deno.Command("pgrep", {
    args: ["-P", String(Deno.pid), "-f", "max-old-space-size"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(output.stdout).split("\n").filter((line) => line !== "").map(Number);
}

/** Waits until a sandbox child other than `seen` runs, and returns it. */
async function nextSandboxChild(seen: readonly number[]): Promise<number> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const fresh = (await sandboxChildren()).filter((pid) => !seen.includes(pid));
    if (fresh.length > 0) return fresh[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no sandbox child started within 30 s");
}

Deno.test("a SIGKILL from outside is not blamed on the module: loading starts once more, then says who ended it", async () => {
  // never_settles.ts waits at its top level, so its sandbox is alive, loading, when the test kills it.
  const loading = loadPolicyModule(`${ROOT}tests/fixtures/policies/hostile/never_settles.ts`, {
    timeLimitSeconds: 120,
  });
  const outcome = loading.then(() => undefined, (error: Error) => error);
  const first = await nextSandboxChild([]);
  Deno.kill(first, "SIGKILL");
  const second = await nextSandboxChild([first]); // started again: the module was not refused
  Deno.kill(second, "SIGKILL");
  const error = await outcome;
  assertEquals(error instanceof PolicyModuleError, true, String(error));
  assertEquals(
    error!.message,
    `${ROOT}tests/fixtures/policies/hostile/never_settles.ts: cannot load the module: its sandbox was ended by a ` +
      "SIGKILL from outside this program, not by a limit of the module's (the system may be short of memory); run " +
      "it again",
  );
});
