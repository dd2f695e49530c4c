// What each command keeps of the permissions its task grants: the network only in run-qa, and a process may
// be started only where a policy module's sandbox needs one.
import { assertEquals } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, taskFlags, withTempDir } from "../../helpers/cli.ts";

const FIXTURE = `${ROOT}tests/fixtures/permissions_cli.ts`;
const DATASET = `${GOLDEN}/fixture/longmemeval-fixture.json`;
const MODULE = `${ROOT}tests/fixtures/policies/recency.ts`;

async function kept(args: string[]): Promise<{ code: number; run: string; net: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...taskFlags("cli"), FIXTURE, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(output.stdout).trimEnd().split("\n");
  return JSON.parse(lines.at(-1)!);
}

Deno.test("offline commands without a policy module give up starting processes; with one, only run stays", async () => {
  await withTempDir(async (directory) => {
    assertEquals(await kept(["validate-contracts"]), { code: 0, run: "prompt", net: "prompt" });
    const plain = [
      "run-policy",
      "--dataset",
      DATASET,
      "--output-dir",
      `${directory}/plain`,
      ...fixtureProtocolFlags(),
    ];
    assertEquals(await kept(plain), { code: 0, run: "prompt", net: "prompt" });
    const withModule = [
      "run-policy",
      "--dataset",
      DATASET,
      "--output-dir",
      `${directory}/module`,
      "--policy-module",
      MODULE,
      ...fixtureProtocolFlags(),
    ];
    assertEquals(await kept(withModule), { code: 0, run: "granted", net: "prompt" });
  });
});
