/** The demo's directory is one a user can keep working with: its protocol and dataset are kept in it. */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { ROOT, runCli, withTempDir } from "../../helpers/cli.ts";
import { writeSmallGrid } from "../../helpers/grids.ts";

const DEMO_FLAGS = ["--no-prompt", "--allow-read", "--allow-write", "--allow-net=127.0.0.1", "--ignore-env"];

Deno.test("demo --output-dir keeps its protocol as a protocol directory, its dataset, a policy run and a QA run", async () => {
  await withTempDir(async (directory) => {
    const demo = await runCli(["demo", "--output-dir", `${directory}/demo`], { flags: DEMO_FLAGS });
    assertEquals(demo.code, 0, demo.stderr);
    for (
      const name of [
        "protocol/configs/demo-synthetic-v1.yaml",
        "protocol/manifests/demo-official-v1.json",
        "protocol/manifests/synthetic-corrections-demo-v1.json",
        "protocol/prompts/answer-v1.txt",
        "protocol/dataset/demo-longmemeval-shaped.json",
        "policy/run.json",
        "qa_run.json",
        "qa.rows.jsonl",
      ]
    ) {
      assert((await Deno.stat(`${directory}/demo/${name}`)).isFile, name);
    }
    const sweep = await runCli([
      "sweep",
      "--protocol",
      `${directory}/demo/protocol`,
      "--output-dir",
      `${directory}/demo/sweep`,
      "--grid", // a small grid: what is tested is the kept protocol, not the default grid's size
      await writeSmallGrid(`${directory}/grid.yaml`),
    ]);
    assertEquals(sweep.code, 0, sweep.stderr);
    const report = await runCli([
      "report",
      `${directory}/demo/sweep`,
      "--protocol",
      `${directory}/demo/protocol`,
    ]);
    assertEquals(report.code, 0, report.stderr);
    const verified = await runCli([
      "verify",
      `${directory}/demo/policy`,
      "--protocol",
      `${directory}/demo/protocol`,
    ]);
    assertMatch(verified.stdout, /^every row recomputed from the pinned dataset byte for byte/m);
  });
});

Deno.test("demo --output-dir refuses a directory that is not empty before writing anything", async () => {
  await withTempDir(async (directory) => {
    await Deno.mkdir(`${directory}/demo`);
    await Deno.writeTextFile(`${directory}/demo/mine.txt`, "mine\n");
    await Deno.writeTextFile(`${directory}/file`, "mine\n");
    for (const target of [`${directory}/demo`, `${directory}/file`]) {
      const demo = await runCli(["demo", "--output-dir", target], { flags: DEMO_FLAGS });
      assertEquals([demo.code, demo.stdout], [2, ""], demo.stderr);
      assertEquals(
        demo.stderr,
        `deermem-eval demo: ${target}: refusing to write the demo into anything but a new or empty directory\n`,
      );
    }
    assertEquals([...Deno.readDirSync(`${directory}/demo`)].map((entry) => entry.name), ["mine.txt"]);
    assertEquals(await Deno.readTextFile(`${directory}/file`), "mine\n");
  });
});

/** Starts the demo into `target`, sends `signal` once standard output shows a line starting `after`. */
async function interruptedDemo(target: string, signal: "SIGINT" | "SIGTERM", after: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...DEMO_FLAGS, `${ROOT}cli.ts`, "demo", "--output-dir", target],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let seen = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    seen += decoder.decode(chunk, { stream: true });
    if (seen.split("\n").some((line) => line.startsWith(after))) break;
  }
  child.kill(signal);
  return { status: await child.status, stderr: await stderr };
}

for (const [signal, after, code] of [["SIGINT", "run-policy:", 130], ["SIGTERM", "demo:", 143]] as const) {
  Deno.test(`demo: ${signal} ends it (${code}) removing what it wrote, and the same command runs again`, async () => {
    await withTempDir(async (directory) => {
      const target = `${directory}/demo`;
      const stopped = await interruptedDemo(target, signal, after);
      assertEquals(stopped.status.code, code, stopped.stderr);
      assertEquals(stopped.stderr, `interrupted: removed ${target}; run the same command again\n`);
      assertEquals([...Deno.readDirSync(directory)], []);
      const again = await runCli(["demo", "--output-dir", target], { flags: DEMO_FLAGS });
      assertEquals(again.code, 0, again.stderr);
    });
  });
}
