/**
 * Odd files where a regular file belongs — a FIFO (`mkfifo`), a symlink, a directory, bytes that are not UTF-8
 * — as a table: each case its exit code and a fragment of its one line. A FIFO must never be opened (that waits
 * for a writer), so every case runs under a deadline: a hang is a failure, not a stuck suite.
 */

import { LOCK_FILE } from "../../../lib/base/lock.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, FIXTURE_PROTOCOL } from "../../helpers/fixture.ts";

const ROW = "responses/05fdf179__confidence.json";
const DEADLINE_MS = 60_000;
const QA_ENV = {
  DEERMEM_EVAL_ANSWER_API_KEY: "sk-odd-files",
  DEERMEM_EVAL_ANSWER_BASE_URL: "http://127.0.0.1:9/v1",
};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(task: string, args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...taskFlags(task), `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(DEADLINE_MS),
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

async function mkfifo(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
  assertEquals((await new Deno.Command("mkfifo", { args: [path] }).output()).code, 0);
}

async function qaRun(d: string): Promise<void> {
  await Deno.mkdir(`${d}/run`);
  await copyReferenceRun(`${d}/run`);
}

async function publishedRun(d: string): Promise<void> {
  await Deno.mkdir(`${d}/run`);
  for (const name of ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"]) {
    await Deno.copyFile(`${GOLDEN}/fixture-run/qa/${name}`, `${d}/run/${name}`);
  }
}

const gradeArgs = (d: string) => [
  "grade-qa",
  "--dataset",
  FIXTURE_DATASET,
  "--output-dir",
  `${d}/run`,
  ...fixtureProtocolFlags(),
];
const runQaArgs = (
  d: string,
) => ["run-qa", "--dataset", FIXTURE_DATASET, "--output-dir", `${d}/run`, ...fixtureProtocolFlags()];
const verifyArgs = (d: string) => ["verify", `${d}/run`, ...fixtureProtocolFlags()];

/** The lock's name made into something else: its kind as the refusal names it, and how to make it. */
const ODD_LOCKS: [string, (path: string, d: string) => Promise<void>][] = [
  ["a symbolic link", async (path, d) => {
    await Deno.writeTextFile(`${d}/elsewhere`, "{}\n");
    await Deno.symlink(`${d}/elsewhere`, path);
  }],
  ["a FIFO", mkfifo],
  ["a directory", (path) => Deno.mkdir(path)],
];

interface OddCase {
  name: string;
  task?: string;
  setup: (d: string) => Promise<void>;
  args: (d: string) => string[];
  env?: Record<string, string>;
  code: number;
  message: string;
}

const CASES: OddCase[] = [
  ...ODD_LOCKS.flatMap(([kind, make]): OddCase[] => [
    {
      name: `run-qa where ${LOCK_FILE} is ${kind}`,
      task: "run-qa",
      setup: async (d) => {
        await qaRun(d);
        await make(`${d}/run/${LOCK_FILE}`, d);
      },
      args: runQaArgs,
      env: QA_ENV,
      code: 2,
      message:
        `run/${LOCK_FILE}: is ${kind}, not a lock file run-qa writes: remove it if no run-qa is running`,
    },
    {
      name: `grade-qa where ${LOCK_FILE} is ${kind}`,
      setup: async (d) => {
        await qaRun(d);
        await make(`${d}/run/${LOCK_FILE}`, d);
      },
      args: gradeArgs,
      code: 2,
      message: `run/${LOCK_FILE}: is ${kind}, not a lock file`,
    },
  ]),
  {
    name: `grade-qa where ${LOCK_FILE} holds bytes that are not UTF-8 (no process holds it: stale)`,
    setup: async (d) => {
      await qaRun(d);
      await Deno.writeFile(`${d}/run/${LOCK_FILE}`, new Uint8Array([0xff, 0xfe, 0x00, 0x0a]));
    },
    args: gradeArgs,
    code: 0,
    message: "wrote",
  },
  ...["qa.rows.jsonl", "qa.summary.json", "qa_run.json"].map((file): OddCase => ({
    name: `verify where ${file} is a FIFO`,
    setup: async (d) => {
      await publishedRun(d);
      await mkfifo(`${d}/run/${file}`);
    },
    args: verifyArgs,
    code: 2,
    message: `run/${file}: ${
      file === "qa.rows.jsonl" ? "graded rows" : file === "qa_run.json" ? "run marker" : file
    } is a FIFO, not a regular file`,
  })),
  {
    name: "verify where qa.rows.jsonl is a symlink to a FIFO",
    setup: async (d) => {
      await publishedRun(d);
      await mkfifo(`${d}/fifo`);
      await Deno.remove(`${d}/run/qa.rows.jsonl`);
      await Deno.symlink(`${d}/fifo`, `${d}/run/qa.rows.jsonl`);
    },
    args: verifyArgs,
    code: 2,
    message: "run/qa.rows.jsonl: graded rows is a FIFO, not a regular file",
  },
  {
    name: "grade-qa where an answer row is a FIFO",
    setup: async (d) => {
      await qaRun(d);
      await mkfifo(`${d}/run/${ROW}`);
    },
    args: gradeArgs,
    code: 2,
    message: `run/${ROW}: answer row is a FIFO, not a regular file`,
  },
  {
    name: "report where qa.rows.jsonl is a FIFO",
    setup: async (d) => {
      await publishedRun(d);
      await mkfifo(`${d}/run/qa.rows.jsonl`);
    },
    args: (d) => ["report", `${d}/run`, ...fixtureProtocolFlags()],
    code: 2,
    message: "run/qa.rows.jsonl: graded rows is a FIFO, not a regular file",
  },
  {
    name: "--config a FIFO",
    setup: (d) => mkfifo(`${d}/config.yaml`),
    args: (d) => ["validate-contracts", "--config", `${d}/config.yaml`],
    code: 2,
    message: "config.yaml: config is a FIFO, not a regular file",
  },
  {
    name: "--config /dev/zero",
    setup: () => Promise.resolve(),
    args: () => ["validate-contracts", "--config", "/dev/zero"],
    code: 2,
    message: "deermem-eval validate-contracts: /dev/zero: config is a character device, not a regular file",
  },
  {
    name: "--dataset a FIFO",
    setup: (d) => mkfifo(`${d}/dataset.json`),
    args: (d) => ["validate", "--dataset", `${d}/dataset.json`, ...fixtureProtocolFlags()],
    code: 2,
    message: "dataset.json: dataset is a FIFO, not a regular file",
  },
  {
    name: "--grid a FIFO",
    setup: (d) => mkfifo(`${d}/grid.yaml`),
    args: (
      d,
    ) => [
      "sweep",
      "--dataset",
      FIXTURE_DATASET,
      "--output-dir",
      `${d}/out`,
      "--grid",
      `${d}/grid.yaml`,
      ...fixtureProtocolFlags(),
    ],
    code: 2,
    message: "grid.yaml: grid is a FIFO, not a regular file",
  },
  {
    name: "a dataset with \\xff names its line and byte offset",
    setup: async (d) => {
      const bytes = await Deno.readFile(FIXTURE_DATASET);
      const at = new TextDecoder().decode(bytes).indexOf('"question": "') + 13;
      bytes[at] = 0xff;
      await Deno.writeFile(`${d}/dataset.json`, bytes);
      const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)))
        .map((byte) => byte.toString(16).padStart(2, "0")).join("");
      const config = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
      await Deno.writeTextFile(
        `${d}/config.yaml`,
        config.replace(/sha256: [0-9a-f]{64}\n/, `sha256: ${digest}\n`),
      );
    },
    args: (d) => [
      "validate",
      "--dataset",
      `${d}/dataset.json`,
      "--config",
      `${d}/config.yaml`,
      "--official-manifest",
      `${FIXTURE_PROTOCOL}/official.json`,
      "--synthetic-manifest",
      `${FIXTURE_PROTOCOL}/synthetic.json`,
    ],
    code: 2,
    message: "dataset.json: not valid UTF-8: line 5, byte offset 90",
  },
];

for (const odd of CASES) {
  Deno.test(`odd files: ${odd.name} → exit ${odd.code}, one line`, async () => {
    await withTempDir(async (directory) => {
      await odd.setup(directory);
      const outcome = await run(odd.task ?? "cli", odd.args(directory), odd.env);
      const report = `stdout:\n${outcome.stdout}\nstderr:\n${outcome.stderr}`;
      assertEquals(outcome.code, odd.code, report);
      const errLines = outcome.stderr.split("\n").filter((line) => line !== "");
      assert(errLines.length <= 1, `more than one stderr line:\n${report}`);
      assert(!/^\s+at /m.test(outcome.stderr) && !outcome.stderr.includes("unexpected error"), report);
      assertStringIncludes(errLines.length > 0 ? outcome.stderr : outcome.stdout, odd.message, report);
    });
  });
}

Deno.test("a FIFO in a results directory ends verify at once with one line naming it, exit 2", async () => {
  await withTempDir(async (directory) => {
    for (const name of ["qa.rows.jsonl", "qa.stats.json", "qa_run.json"]) {
      await Deno.copyFile(`${ROOT}results/pr4789-reproduction-v1/${name}`, `${directory}/${name}`);
    }
    assert((await new Deno.Command("mkfifo", { args: [`${directory}/qa.summary.json`] }).output()).success);
    const result = await runCli(["verify", directory]);
    assertEquals(result.code, 2, result.stdout + result.stderr);
    assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
    assertMatch(
      result.stderr,
      /qa\.summary\.json: qa\.summary\.json is a FIFO, not a regular file\n$/,
    );
  });
});
