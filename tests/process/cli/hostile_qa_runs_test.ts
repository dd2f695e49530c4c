/**
 * run-qa and grade-qa as a reviewer tries to break them, through the CLI with the tasks' permission flags
 * against an OpenAI-compatible server on 127.0.0.1: a table of cases, each with its exit code, a fragment of its
 * one-line message, the files that must exist afterwards and those that must not.
 */

import { acquireDirectoryLock, type DirectoryLock, LOCK_FILE } from "../../../lib/base/lock.ts";
import { requestFingerprint } from "../../../lib/qa/mod.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import {
  type AnswerServer,
  completion,
  errorResponse,
  type Handler,
  type ReceivedRequest,
  startAnswerServer,
} from "../../helpers/answer_server.ts";
import {
  type CliResult,
  fixtureProtocolFlags,
  ROOT,
  runCli,
  taskFlags,
  unwrap,
  withTempDir,
} from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, FIXTURE_PROTOCOL, REFERENCE_QA } from "../../helpers/fixture.ts";

const KEY = "sk-trust-qa-5e0c7d1b93";
const RUN_QA = taskFlags("run-qa");
const OFFLINE = taskFlags("cli");
/** A case whose two rows (both policies) the server treats specially. */
const TARGET = "05fdf179";

function qaEnv(url: string, key = KEY): Record<string, string> {
  return { DEERMEM_EVAL_ANSWER_API_KEY: key, DEERMEM_EVAL_ANSWER_BASE_URL: url };
}

function isTarget(request: ReceivedRequest): boolean {
  return request.body.messages[1].content.includes(`[gold_${TARGET}]`);
}

async function fingerprintOf(request: ReceivedRequest): Promise<string> {
  const body = request.body;
  return await requestFingerprint(
    { model: body.model, temperature: body.temperature, maxTokens: body.max_tokens, stream: body.stream },
    body.messages,
  );
}

/** Answers every request as the reference's server did (by the fingerprint of what was received). */
async function replay(): Promise<(request: ReceivedRequest) => Promise<Response>> {
  const rows = new Map<
    string,
    { prediction: string; response_model: string; usage: Record<string, number> }
  >();
  for await (const entry of Deno.readDir(`${REFERENCE_QA}/responses`)) {
    const row = JSON.parse(await Deno.readTextFile(`${REFERENCE_QA}/responses/${entry.name}`));
    rows.set(row.request_fingerprint, row);
  }
  return async (request) => {
    const row = rows.get(await fingerprintOf(request));
    if (row === undefined) return errorResponse(400, "unknown request");
    return completion(row.prediction, { model: row.response_model, usage: row.usage });
  };
}

/** A 200 streaming `megabytes` MB of one answer, lazily, as long as the client reads. */
function hugeAnswer(megabytes: number): Response {
  const encoder = new TextEncoder();
  const chunk = encoder.encode("z".repeat(1 << 20));
  let sent = -1;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === -1) controller.enqueue(encoder.encode('{"model":"m","choices":[{"message":{"content":"'));
      else if (sent < megabytes) controller.enqueue(chunk);
      else {
        controller.enqueue(encoder.encode('"}}]}'));
        controller.close();
      }
      sent++;
    },
  }, { highWaterMark: 0 });
  return new Response(body, { headers: { "content-type": "application/json" } });
}

async function prependBom(path: string): Promise<void> {
  await Deno.writeFile(path, new Uint8Array([0xef, 0xbb, 0xbf, ...await Deno.readFile(path)]));
}

async function pathExists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function filesUnder(directory: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(directory)) {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory) files.push(...await filesUnder(path));
    else files.push(path);
  }
  return files;
}

interface Context {
  /** The run directory (`DIR/run`, absent unless `setup` makes it). */
  run: string;
  /** The temporary directory holding it. */
  scratch: string;
  server: AnswerServer;
  /** Released after the case. */
  locks: DirectoryLock[];
}

interface Case {
  name: string;
  /** Answers the server gives (default: the reference's answers). */
  answer?: (replayed: (request: ReceivedRequest) => Promise<Response>) => Handler;
  setup?: (context: Context) => Promise<void>;
  /** The command line (default: run-qa on the fixture into the run directory). */
  args?: (context: Context) => string[] | Promise<string[]>;
  flags?: string[];
  env?: (context: Context) => Record<string, string>;
  code: number;
  /** A fragment of the one line that says what happened (searched in stdout and stderr). */
  message: RegExp;
  /** Paths relative to the run directory. */
  exist?: string[];
  absent: string[];
  /** The most requests the server may have received. */
  maxCalls?: number;
  /** More checks on the outcome. */
  check?: (result: CliResult, context: Context) => Promise<void> | void;
}

function runQaArgs(context: Context, extra: string[] = []): string[] {
  const defaults = ["--dataset", FIXTURE_DATASET, "--output-dir", context.run, ...fixtureProtocolFlags()];
  // A flag in `extra` stands in for its default: a flag is given once.
  const kept = defaults.flatMap((word, index) =>
    index % 2 === 0 && !extra.includes(word) ? [word, defaults[index + 1]] : []
  );
  return ["run-qa", ...kept, ...extra];
}

async function writeLock(run: string, pid: number) {
  await Deno.mkdir(run, { recursive: true });
  await Deno.writeTextFile(
    `${run}/${LOCK_FILE}`,
    JSON.stringify({ command: "run-qa", pid, started_at: "2026-11-29T23:00:00.000Z" }),
  );
}

/** The fixture config with other QA settings, written beside the run. */
async function configWith(context: Context, replace: Record<string, string>): Promise<string> {
  let text = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
  for (const [key, value] of Object.entries(replace)) {
    const before = text;
    text = text.replace(new RegExp(`^  ${key}: .*$`, "m"), `  ${key}: ${value}`);
    assert(text !== before, `config has no qa.${key}`);
  }
  const path = `${context.scratch}/config.yaml`;
  await Deno.writeTextFile(path, text);
  return path;
}

const CASES: Case[] = [
  {
    name: "run-qa on a directory another live run-qa holds refuses at once, naming its pid and start time",
    setup: async (context) => {
      await Deno.mkdir(context.run);
      context.locks.push(await acquireDirectoryLock(context.run, "run-qa", "x"));
    },
    // At once: before the dataset is read (this one does not exist).
    args: (context) => runQaArgs(context, ["--dataset", `${context.scratch}/absent.json`]),
    code: 2,
    message: new RegExp(
      `^deermem-eval run-qa: .*/run/run-qa\\.lock: locked by run-qa \\(pid ${Deno.pid}, started \\d{4}-[^)]+\\): another run-qa`,
      "m",
    ),
    exist: [LOCK_FILE],
    absent: ["qa_run.json", "responses"],
    maxCalls: 0,
  },
  {
    name: "grade-qa on a directory a live run-qa holds refuses, naming the holder, and writes nothing",
    setup: async (context) => {
      await Deno.mkdir(context.run);
      await copyReferenceRun(context.run);
      context.locks.push(await acquireDirectoryLock(context.run, "run-qa", "x"));
    },
    args: (
      context,
    ) => ["grade-qa", "--dataset", FIXTURE_DATASET, "--output-dir", context.run, ...fixtureProtocolFlags()],
    flags: OFFLINE,
    code: 2,
    message: new RegExp(
      `locked by run-qa \\(pid ${Deno.pid}, started [^)]+\\): grade the run after it has finished`,
    ),
    exist: [LOCK_FILE, "qa_run.json"],
    absent: ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"],
  },
  {
    name:
      "a stale lock (its run killed) is taken over with a message; the run completes and removes the lock",
    setup: (context) => writeLock(context.run, 424242),
    code: 0,
    message:
      /^warning: .*run-qa\.lock: taking over a stale lock of run-qa \(pid 424242, started 2026-11-29T23:00:00\.000Z\)/m,
    exist: ["qa_run.json", `responses/${TARGET}__confidence.json`],
    absent: [LOCK_FILE],
    maxCalls: 90,
  },
  {
    name: "a 401 stops the run after the first: one clear message, not a line per row",
    answer: () => () => errorResponse(401, `Incorrect API key provided: ${KEY}`),
    code: 1,
    message:
      /^stopped: the endpoint rejected the API key \(HTTP 401 from 127\.0\.0\.1:\d+: Incorrect API key provided: \[redacted\]/m,
    exist: ["qa_run.json"],
    absent: [LOCK_FILE, `responses/${TARGET}__confidence.json`],
    maxCalls: 3,
    check: (result) => {
      const lines = `${unwrap(result.stdout)}${result.stderr}`.trim().split("\n");
      assert(lines.length <= 5, `a few lines, not one per row:\n${lines.join("\n")}`);
      assert(!lines.some((line) => line.includes("FAILED")), lines.join("\n"));
    },
  },
  {
    name: "a 403 stops the run the same way",
    answer: () => () => errorResponse(403, "forbidden"),
    code: 1,
    message: /^stopped: the endpoint rejected the API key \(HTTP 403 from 127\.0\.0\.1:\d+: forbidden/m,
    absent: [LOCK_FILE, `responses/${TARGET}__confidence.json`],
    maxCalls: 3,
  },
  {
    name: "a 50 MB answer fails its row as 'response too large'; the other rows are written",
    answer: (replayed) => (request) => isTarget(request) ? hugeAnswer(50) : replayed(request),
    code: 1,
    message: new RegExp(`failed ${TARGET}__confidence: response too large \\(over 4 MiB\\) \\(1 attempt\\)`),
    exist: [`responses/${TARGET}__hybrid-v1.json`.replace(TARGET, "0631cb30")],
    absent: [LOCK_FILE, `responses/${TARGET}__confidence.json`, `responses/${TARGET}__hybrid-v1.json`],
  },
  {
    name: "an answer holding the API key is stored with [redacted] in its place and a warning names the row",
    answer: (replayed) => (request) =>
      isTarget(request) ? completion(`the key: ${KEY}`, { model: `echo-${KEY}` }) : replayed(request),
    code: 0,
    message: new RegExp(
      `^warning: ${TARGET}__confidence: the answer contained the API key; stored with \\[redacted\\] in its place \\(prediction, response_model\\)`,
      "m",
    ),
    exist: [`responses/${TARGET}__confidence.json`],
    absent: [LOCK_FILE],
    check: async (result, context) => {
      const row = JSON.parse(await Deno.readTextFile(`${context.run}/responses/${TARGET}__confidence.json`));
      assertEquals([row.prediction, row.response_model], ["the key: [redacted]", "echo-[redacted]"]);
      for (const path of await filesUnder(context.run)) {
        assert(!(await Deno.readTextFile(path)).includes(KEY), `the key leaked into ${path}`);
      }
      assert(!result.stdout.includes(KEY) && !result.stderr.includes(KEY), "the key leaked into the output");
    },
  },
  {
    name: "`deno task cli run-qa` (no network, no environment) says to use `deno task run-qa`",
    flags: OFFLINE,
    code: 2,
    message:
      /^deermem-eval run-qa: run-qa calls the answer model: run it with `deno task run-qa …` \(network access and the variables DEERMEM_EVAL_ANSWER_API_KEY and DEERMEM_EVAL_ANSWER_BASE_URL\); `deno task cli` runs the offline commands$/m,
    absent: [""],
    maxCalls: 0,
  },
  {
    name: "both variables unset: both are named in one line",
    env: () => qaEnv("", ""),
    code: 2,
    message:
      /^deermem-eval run-qa: environment variables DEERMEM_EVAL_ANSWER_API_KEY \(the config's qa\.api_key_env\) and DEERMEM_EVAL_ANSWER_BASE_URL \(the config's qa\.base_url_env\) are not set$/m,
    absent: [""],
    maxCalls: 0,
  },
  {
    name: "the config's qa.timeout_seconds reaches the client: an answer later than it times out",
    answer: (replayed) => async (request) => {
      if (isTarget(request)) await new Promise((resolve) => setTimeout(resolve, 3000));
      return await replayed(request);
    },
    args: async (context) =>
      runQaArgs(context, [
        "--config",
        await configWith(context, { timeout_seconds: "1", max_attempts: "1" }),
      ]),
    code: 1,
    message: new RegExp(`failed ${TARGET}__confidence: timed out after 1 s \\(1 attempt\\)`),
    exist: ["qa_run.json", "responses/0631cb30__confidence.json"],
    absent: [LOCK_FILE, `responses/${TARGET}__confidence.json`],
  },
  {
    name:
      "run-qa calls again a stored row that begins with a UTF-8 BOM, as the reference's json.load refuses it",
    setup: async (context) => {
      await Deno.mkdir(context.run);
      await copyReferenceRun(context.run);
      await prependBom(`${context.run}/responses/${TARGET}__confidence.json`);
    },
    code: 0,
    message: new RegExp(`^${TARGET}__confidence: stored row not reusable \\(.*BOM.*\\); calling again$`, "m"),
    exist: [`responses/${TARGET}__confidence.json`, "responses/superseded"],
    absent: [LOCK_FILE],
    maxCalls: 1,
    check: async (result, context) => {
      assertMatch(result.stdout, /answer rows: 89 reused, 1 called, 0 failed/);
      const bytes = await Deno.readFile(`${context.run}/responses/${TARGET}__confidence.json`);
      assertEquals(bytes[0], "{".charCodeAt(0)); // written anew, without the BOM
    },
  },
  {
    name: "grade-qa refuses a row file that begins with a UTF-8 BOM, naming the file, and writes nothing",
    setup: async (context) => {
      await Deno.mkdir(context.run);
      await copyReferenceRun(context.run);
      await prependBom(`${context.run}/responses/${TARGET}__hybrid-v1.json`);
    },
    args: (
      context,
    ) => ["grade-qa", "--dataset", FIXTURE_DATASET, "--output-dir", context.run, ...fixtureProtocolFlags()],
    flags: OFFLINE,
    code: 2,
    message: new RegExp(`responses/${TARGET}__hybrid-v1\\.json.*BOM`),
    absent: ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"],
  },
  {
    name: "grade-qa refuses a run marker that begins with a UTF-8 BOM and writes nothing",
    setup: async (context) => {
      await Deno.mkdir(context.run);
      await copyReferenceRun(context.run);
      await prependBom(`${context.run}/qa_run.json`);
    },
    args: (
      context,
    ) => ["grade-qa", "--dataset", FIXTURE_DATASET, "--output-dir", context.run, ...fixtureProtocolFlags()],
    flags: OFFLINE,
    code: 2,
    message: /qa_run\.json.*BOM/,
    absent: ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"],
  },
  {
    name:
      "a key shorter than 8 characters is not treated as a secret: rows and lines stay intact, one notice says so",
    env: (context) => qaEnv(context.server.url, "k"),
    code: 0,
    message: /^notice: the API key is shorter than 8 characters, so it is not treated as a secret/m,
    exist: ["qa_run.json", `responses/${TARGET}__confidence.json`],
    absent: [LOCK_FILE],
    check: async (result, context) => {
      assertMatch(result.stdout, /^answer rows: 0 reused, 90 called, 0 failed$/m);
      assert(!`${result.stdout}${result.stderr}`.includes("[redacted]"), "nothing is redacted");
      const row = JSON.parse(await Deno.readTextFile(`${context.run}/responses/${TARGET}__confidence.json`));
      assert(Object.keys(row.usage).includes("prompt_tokens"), JSON.stringify(row.usage));
    },
  },
  {
    name:
      "run-qa's start line names the endpoint, model, workers and attempts; another model is warned about once",
    answer: (replayed) => async (request) =>
      isTarget(request) ? completion("7", { model: "other-model" }) : await replayed(request),
    code: 0,
    message: /^run-qa: \S+ at 127\.0\.0\.1:\d+, \d+ worker\(s\), up to \d+ attempt\(s\) a call$/m,
    exist: ["qa_run.json"],
    absent: [LOCK_FILE],
    check: (result) => {
      const warnings = result.stderr.split("\n").filter((line) =>
        line.includes("a model other than qa.model")
      );
      assertEquals(warnings.length, 1, result.stderr);
      assertMatch(
        warnings[0],
        /^warning: \d+ answer\(s\) came from a model other than qa\.model \S+: .*"other-model" \(2\)/,
      );
    },
  },
  {
    name: "run-qa --limit 3 answers only the first three tasks; the same command resumes the rest",
    args: (context) => runQaArgs(context, ["--limit", "3"]),
    code: 0,
    message: /^limited by --limit: 87 task\(s\) left; run the same command without it to answer them$/m,
    exist: ["qa_run.json"],
    absent: [LOCK_FILE],
    maxCalls: 3,
    check: async (result, context) => {
      assertMatch(result.stdout, /^answer rows: 0 reused, 3 called, 0 failed$/m);
      const rows = (await filesUnder(`${context.run}/responses`)).length;
      assertEquals(rows, 3);
      const resumed = await runCli(runQaArgs(context), { flags: RUN_QA, env: qaEnv(context.server.url) });
      assertMatch(resumed.stdout, /^answer rows: 3 reused, 87 called, 0 failed$/m);
    },
  },
];

for (const testCase of CASES) {
  Deno.test(testCase.name, async () => {
    const replayed = await replay();
    const server = startAnswerServer(testCase.answer?.(replayed) ?? replayed);
    const context: Context = { run: "", scratch: "", server, locks: [] };
    try {
      await withTempDir(async (scratch) => {
        context.scratch = scratch;
        context.run = `${scratch}/run`;
        await testCase.setup?.(context);
        const args = await (testCase.args?.(context) ?? runQaArgs(context));
        const result = await runCli(args, {
          flags: testCase.flags ?? RUN_QA,
          env: testCase.env?.(context) ?? qaEnv(server.url),
        });
        const output = `${unwrap(result.stdout)}${result.stderr}`;
        assertEquals(result.code, testCase.code, output);
        assertMatch(output, testCase.message);
        if (testCase.code === 2) assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
        assert(!output.includes("    at "), `a stack trace:\n${output}`);
        for (const path of testCase.exist ?? []) {
          assert(await pathExists(`${context.run}/${path}`), `${path} should exist`);
        }
        for (const path of testCase.absent) {
          assert(
            !(await pathExists(`${context.run}/${path}`)),
            `${path || "the run directory"} should not exist`,
          );
        }
        if (testCase.maxCalls !== undefined) {
          assert(
            server.requests.length <= testCase.maxCalls,
            `${server.requests.length} calls, at most ${testCase.maxCalls} allowed`,
          );
        }
        await testCase.check?.(result, context);
      });
    } finally {
      for (const lock of context.locks) lock.release();
      await server.close();
    }
  });
}

function spawnRunQa(run: string, url: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...RUN_QA, `${ROOT}cli.ts`, ...runQaArgs({ run } as Context)],
    env: { NO_COLOR: "1", ...qaEnv(url) },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function outputOf(child: Deno.ChildProcess): Promise<CliResult> {
  const output = await child.output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

Deno.test("two run-qa at once on one directory: one refuses naming the other, and 90 rows take 90 calls", async () => {
  const replayed = await replay();
  // Slow answers keep the first run busy while the second starts.
  const server = startAnswerServer(async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return await replayed(request);
  });
  try {
    await withTempDir(async (scratch) => {
      const run = `${scratch}/run`;
      const results = await Promise.all(
        [spawnRunQa(run, server.url), spawnRunQa(run, server.url)].map(outputOf),
      );
      const codes = results.map((result) => result.code).sort();
      assertEquals(codes, [0, 2], results.map((result) => result.stderr).join("\n---\n"));
      const refused = results.find((result) => result.code === 2)!;
      assertMatch(
        refused.stderr,
        /run-qa\.lock: locked by run-qa \(pid \d+, started [^)]+\): another run-qa/,
      );
      assertEquals(server.requests.length, 90);
      assert(!(await pathExists(`${run}/${LOCK_FILE}`)));
    });
  } finally {
    await server.close();
  }
});

Deno.test("Ctrl-C to `deno task run-qa`'s process group (the program sees it twice) stops gracefully: summary, resume hint, 130", async () => {
  const replayed = await replay();
  let served = 0;
  const held: (() => void)[] = [];
  const server = startAnswerServer((request) =>
    served++ < 10 ? replayed(request) : new Promise<Response>((resolve) => {
      held.push(() => resolve(new Response("gone", { status: 503 })));
    })
  );
  try {
    // Twice, since the second copy of the signal only sometimes lands while the first is being handled.
    for (let attempt = 0; attempt < 2; attempt++) {
      await withTempDir(async (scratch) => {
        const run = `${scratch}/run`;
        const before = server.requests.length;
        // setsid: a process group of its own, as a terminal gives a foreground job.
        const child = new Deno.Command("setsid", {
          args: [Deno.execPath(), "task", "-q", "run-qa", ...runQaArgs({ run } as Context).slice(1)],
          cwd: ROOT,
          env: { NO_COLOR: "1", ...qaEnv(server.url) },
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const deadline = Date.now() + 60_000;
        while (server.requests.length < before + 13 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        Deno.kill(-child.pid, "SIGINT"); // what Ctrl-C does: the whole group, deno task and the program
        const result = await outputOf(child);
        assertEquals(result.code, 130, result.stderr);
        assertMatch(result.stdout, /^answer rows: 0 reused, \d+ called, 0 failed$/m);
        assertMatch(
          result.stdout,
          /^interrupted: \d+ row\(s\) not attempted; run the same command to resume$/m,
        );
        assert(!(await pathExists(`${run}/${LOCK_FILE}`)), "the lock is released on Ctrl-C");
      });
      for (const release of held.splice(0)) release();
      served = 0;
    }
  } finally {
    for (const release of held) release();
    await server.close();
  }
});

Deno.test("a closed port as base URL stops run-qa at the first calls: one line naming the host and cause, resumable", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close(); // nothing listens there now: every connection is refused
  await withTempDir(async (scratch) => {
    const run = `${scratch}/run`;
    const started = performance.now();
    const result = await runCli(runQaArgs({ run } as Context), {
      flags: RUN_QA,
      env: qaEnv(`http://127.0.0.1:${port}/v1`),
    });
    const elapsed = performance.now() - started;
    const lines = `${result.stdout}${result.stderr}`.trim().split("\n");
    assertEquals(result.code, 1, lines.join("\n"));
    assert(lines.length <= 5, lines.join("\n"));
    assert(elapsed < 10_000, `${elapsed} ms`);
    assertMatch(
      result.stdout,
      new RegExp(
        `^stopped: cannot reach 127\\.0\\.0\\.1:${port}: .*refused.*, so no further call was sent`,
        "m",
      ),
    );
    assert(await pathExists(`${run}/qa_run.json`), "the run directory stays resumable");
  });
});
