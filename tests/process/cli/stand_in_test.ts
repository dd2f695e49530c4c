/**
 * `run-qa --stand-in`: the built-in stand-in answerer, served on 127.0.0.1 by the program itself, through the
 * real run-qa path (the SDK, the rows, the marker, resume), with no key and no endpoint variable read.
 */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";
import { completion, startAnswerServer } from "../../helpers/answer_server.ts";

const RUN_QA = taskFlags("run-qa");

async function rowFiles(directory: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${directory}/responses`)) if (entry.isFile) names.push(entry.name);
  return names.sort();
}

/** Starts run-qa --stand-in, sends SIGINT once `rows` answer rows exist, and returns its exit code. */
async function interruptedRun(args: string[], directory: string, rows: number): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RUN_QA, `${ROOT}cli.ts`, ...args],
    env: { NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const count = await rowFiles(directory).then((names) => names.length, () => 0);
    if (count >= rows) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill("SIGINT");
  return (await child.status).code;
}

Deno.test("run-qa --stand-in answers every task through the real path; interrupted and resumed, it ends as an uninterrupted run", async () => {
  await withTempDir(async (directory) => {
    const protocol = `${directory}/protocol`;
    await writeDemoProtocol(protocol, await buildDemoProtocol());
    const whole = await runCli([
      "run-qa",
      "--stand-in",
      "--protocol",
      protocol,
      "--output-dir",
      `${directory}/a`,
    ], {
      flags: RUN_QA,
      // A real endpoint's variables are not read with --stand-in: nothing is sent there.
      env: {
        DEERMEM_EVAL_ANSWER_BASE_URL: "http://192.0.2.1/v1",
        DEERMEM_EVAL_ANSWER_API_KEY: "sk-not-used-at-all",
      },
    });
    assertEquals(whole.code, 0, whole.stderr);
    assertMatch(whole.stdout, /^answer rows: 0 reused, 90 called, 0 failed$/m);
    assertMatch(
      whole.stderr,
      /^run-qa: the stand-in answerer deermem-stand-in-v1 \(not a language model\) at 127\.0\.0\.1:\d+/m,
    );
    const args = ["run-qa", "--stand-in", "--protocol", protocol, "--output-dir", `${directory}/b`];
    const code = await interruptedRun(args, `${directory}/b`, 5);
    assertEquals(code, 130);
    const kept = (await rowFiles(`${directory}/b`)).length;
    assert(kept >= 1 && kept < 90, `${kept} rows after the interrupt`);
    const resumed = await runCli(args, { flags: RUN_QA });
    assertEquals(resumed.code, 0, resumed.stderr);
    assertMatch(
      resumed.stdout,
      new RegExp(`^answer rows: ${kept} reused, ${90 - kept} called, 0 failed$`, "m"),
    );
    // Row by row the same answers, usage and model; the statistics byte for byte.
    const names = await rowFiles(`${directory}/a`);
    assertEquals(await rowFiles(`${directory}/b`), names);
    for (const name of names) {
      const [a, b] = await Promise.all(
        ["a", "b"].map(async (run) =>
          JSON.parse(await Deno.readTextFile(`${directory}/${run}/responses/${name}`))
        ),
      );
      assertEquals(
        [b.prediction, b.usage, b.response_model],
        [a.prediction, a.usage, a.response_model],
        name,
      );
      assertEquals(a.response_model, "deermem-stand-in-v1");
    }
    for (const run of ["a", "b"]) {
      const graded = await runCli([
        "grade-qa",
        "--protocol",
        protocol,
        "--output-dir",
        `${directory}/${run}`,
      ]);
      assertEquals(graded.code, 0, graded.stderr);
    }
    for (const file of ["qa.summary.json", "qa.stats.json"]) {
      assertEquals(
        await Deno.readTextFile(`${directory}/b/${file}`),
        await Deno.readTextFile(`${directory}/a/${file}`),
        file,
      );
    }
  });
});

Deno.test("run-qa --stand-in is refused in one line with --dry-run, and without leave to listen on 127.0.0.1", async () => {
  await withTempDir(async (directory) => {
    const dry = await runCli(["run-qa", "--stand-in", "--dry-run", "--output-dir", directory], {
      flags: RUN_QA,
    });
    assertEquals(dry.code, 2, dry.stderr);
    assertEquals(dry.stderr.trim().split("\n").length, 1, dry.stderr);
    assertMatch(dry.stderr, /--stand-in answers the tasks; --dry-run calls none/);
    const offline = await runCli(["run-qa", "--stand-in", "--output-dir", `${directory}/qa`]);
    assertEquals(offline.code, 2, offline.stderr);
    assertEquals(offline.stderr.trim().split("\n").length, 1, offline.stderr);
    assertMatch(
      offline.stderr,
      /the stand-in answerer listens on 127\.0\.0\.1, which this invocation may not/,
    );
  });
});

Deno.test("stand-in answers and a real endpoint's never mix in one run directory: either way it is refused before any call", async () => {
  await withTempDir(async (directory) => {
    const protocol = `${directory}/protocol`;
    await writeDemoProtocol(protocol, await buildDemoProtocol());
    const server = startAnswerServer(() => completion("42 dollars", { model: "real-model-1" }));
    try {
      const env = {
        DEERMEM_EVAL_ANSWER_BASE_URL: server.url,
        DEERMEM_EVAL_ANSWER_API_KEY: "sk-test-0123456789abcdef",
      };
      const standIn = ["run-qa", "--stand-in", "--protocol", protocol, "--output-dir", `${directory}/s`];
      assertEquals((await runCli(standIn, { flags: RUN_QA })).code, 0);
      const real = await runCli(["run-qa", "--protocol", protocol, "--output-dir", `${directory}/s`], {
        flags: RUN_QA,
        env,
      });
      assertEquals(real.code, 2, real.stderr);
      assertEquals(real.stderr.trim().split("\n").length, 1, real.stderr);
      assertMatch(real.stderr, /holds 90 answer\(s\) from the stand-in deermem-stand-in-v1/);
      assertEquals(server.requests.length, 0);
      const realRun = await runCli([
        "run-qa",
        "--protocol",
        protocol,
        "--output-dir",
        `${directory}/r`,
        "--limit",
        "2",
      ], {
        flags: RUN_QA,
        env,
      });
      assertEquals(realRun.code, 0, realRun.stderr);
      const mixed = await runCli([
        "run-qa",
        "--stand-in",
        "--protocol",
        protocol,
        "--output-dir",
        `${directory}/r`,
      ], {
        flags: RUN_QA,
      });
      assertEquals(mixed.code, 2, mixed.stderr);
      assertEquals(mixed.stderr.trim().split("\n").length, 1, mixed.stderr);
      assertMatch(mixed.stderr, /holds 2 answer\(s\) from real-model-1, not the stand-in/);
    } finally {
      await server.close();
    }
  });
});

Deno.test("a policy module goes through run-qa --stand-in, grade-qa, verify and report with no key", async () => {
  await withTempDir(async (directory) => {
    const protocol = ["--protocol", `${directory}/protocol`];
    await writeDemoProtocol(`${directory}/protocol`, await buildDemoProtocol());
    const module = ["--policy-module", `${ROOT}tests/fixtures/policies/recency.ts`];
    const run = `${directory}/m`;
    const answered = await runCli(["run-qa", "--stand-in", ...protocol, ...module, "--output-dir", run], {
      flags: RUN_QA,
    });
    assertEquals(answered.code, 0, answered.stderr);
    const cli = { flags: taskFlags("cli") };
    const graded = await runCli(["grade-qa", ...protocol, ...module, "--output-dir", run], cli);
    assertEquals(graded.code, 0, graded.stderr);
    assertMatch(graded.stdout, /^overall: confidence \d+\/45, recency \d+\/45, exact McNemar p=/m);
    for (const args of [["verify", run], ["report", run]]) {
      const result = await runCli([...args, ...protocol, ...module], cli);
      assertEquals(result.code, 0, `${args.join(" ")}\n${result.stderr}`);
    }
  });
});
