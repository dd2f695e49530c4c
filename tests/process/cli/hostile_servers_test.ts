/**
 * run-qa against hostile servers on 127.0.0.1, through the CLI with the run-qa task's flags: bodies that never
 * end, gzip bombs, bodies nested 2 million deep, redirects. Every case ends (a hang is killed and fails the
 * test), each failed row in one line, the lock released.
 */

import { gzipSync } from "node:zlib";
import { LOCK_FILE } from "../../../lib/base/lock.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import {
  type AnswerServer,
  completion,
  type Handler,
  startAnswerServer,
} from "../../helpers/answer_server.ts";
import { type CliResult, fixtureProtocolFlags, ROOT, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, FIXTURE_PROTOCOL } from "../../helpers/fixture.ts";

const RUN_QA = taskFlags("run-qa");
/** The fixture's rows: 45 cases × 2 policies. */
const ROWS = 90;
/** Longer than any case needs; a run still going then has hung. */
const HANG_MS = 120_000;

/** The fixture config with other QA settings, written into `directory`. */
async function configWith(directory: string, replace: Record<string, string>): Promise<string> {
  let text = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
  for (const [key, value] of Object.entries(replace)) {
    const before = text;
    text = text.replace(new RegExp(`^  ${key}: .*$`, "m"), `  ${key}: ${value}`);
    assert(text !== before, `config has no qa.${key}`);
  }
  const path = `${directory}/config.yaml`;
  await Deno.writeTextFile(path, text);
  return path;
}

/** run-qa on the fixture into `<directory>/run` with `qa` settings; killed (and `hung`) after HANG_MS. */
async function runQa(
  server: AnswerServer,
  directory: string,
  qa: Record<string, string>,
): Promise<CliResult & { hung: boolean }> {
  const args = [
    "run-qa",
    "--dataset",
    FIXTURE_DATASET,
    "--output-dir",
    `${directory}/run`,
    ...fixtureProtocolFlags().slice(2),
    "--config",
    await configWith(directory, qa),
  ];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RUN_QA, `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    env: {
      NO_COLOR: "1",
      DEERMEM_EVAL_ANSWER_API_KEY: "sk-hostile",
      DEERMEM_EVAL_ANSWER_BASE_URL: server.url,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    child.kill("SIGKILL");
  }, HANG_MS);
  try {
    const output = await child.output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      hung,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The rows' failure lines, each with its row id replaced by `<row>`, counted. */
function failureLines(output: string): Map<string, number> {
  const lines = new Map<string, number>();
  for (const line of output.split("\n")) {
    const match = /^\s*failed \S+: (.*)$/.exec(line);
    if (match) lines.set(match[1], (lines.get(match[1]) ?? 0) + 1);
  }
  return lines;
}

/**
 * Runs `handler`'s server against run-qa with `qa` settings: the run must end, `failed` rows (default all) failing
 * with `reason`, the others answered.
 */
async function rowsFail(
  handler: Handler,
  qa: Record<string, string>,
  reason: RegExp,
  failed = ROWS,
): Promise<void> {
  const server = startAnswerServer(handler);
  try {
    await withTempDir(async (directory) => {
      const result = await runQa(server, directory, qa);
      const output = `${result.stdout}${result.stderr}`;
      assert(!result.hung, `run-qa hung:\n${output}`);
      assertEquals(result.code, 1, output);
      assertMatch(
        result.stdout,
        new RegExp(`^answer rows: 0 reused, ${ROWS - failed} called, ${failed} failed$`, "m"),
      );
      const lines = failureLines(result.stdout);
      assertEquals([...lines.values()], [failed], output);
      assertMatch([...lines.keys()][0], reason);
      assert(!output.includes("    at "), `a stack trace:\n${output}`);
      assert(!(await Deno.lstat(`${directory}/run/${LOCK_FILE}`).then(() => true, () => false)), "lock held");
    });
  } finally {
    await server.close();
  }
}

const encoder = new TextEncoder();

/** A 200 whose body never ends: even requests stall after a first chunk, odd ones trickle a byte every 50 ms. */
function neverEnding(index: number): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"choices":['));
      if (index % 2 === 1) timer = setInterval(() => controller.enqueue(encoder.encode(" ")), 50);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}

Deno.test("a body that never ends times out in every wave of calls, and the run ends", async () => {
  // 30 workers: three waves of calls, each waiting out the timeout.
  await rowsFail(
    (_request, index) => neverEnding(index),
    { workers: "30", timeout_seconds: "1", max_attempts: "1" },
    /^timed out after 1 s \(1 attempt\)$/,
  );
});

/** `megabytes` MiB of zeros, gzipped (about 1 KiB per MiB). */
function gzipBomb(megabytes: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(gzipSync(new Uint8Array(megabytes * 1024 * 1024)));
}

Deno.test("a gzip bomb fails its row at 4 MiB decoded", async () => {
  // A third of the rows: decoding 4 MiB costs Deno's fetch ~0.1 s of CPU per call.
  const bomb = gzipBomb(16);
  await rowsFail(
    (_request, index) =>
      index % 3 === 0
        ? new Response(bomb, { headers: { "content-type": "application/json", "content-encoding": "gzip" } })
        : completion("7"),
    { workers: "30", max_attempts: "1" },
    /^response too large \(over 4 MiB\) \(1 attempt\)$/,
    ROWS / 3,
  );
});

Deno.test("a 4 MB body of 2 million nested arrays fails every row in one line, before it is parsed", async () => {
  const body = "[".repeat(2e6) + "]".repeat(2e6);
  await rowsFail(
    () => new Response(body, { headers: { "content-type": "application/json" } }),
    { workers: "30" },
    /^response nests deeper than 1000 \(1 attempt\)$/,
  );
});

/** Rows whose case is this one are redirected. */
const TARGET = "05fdf179";

Deno.test("a redirect to another host fails its row; nothing is sent there, the other rows are answered", async () => {
  const elsewhere = startAnswerServer(() => completion("from elsewhere"));
  const server = startAnswerServer((request) =>
    request.body.messages[1].content.includes(`[gold_${TARGET}]`)
      ? new Response(null, { status: 307, headers: { location: `${elsewhere.url}/chat/completions` } })
      : completion("7")
  );
  try {
    await withTempDir(async (directory) => {
      const result = await runQa(server, directory, { workers: "8" });
      const output = `${result.stdout}${result.stderr}`;
      assertEquals(result.code, 1, output);
      assertMatch(result.stdout, /^answer rows: 0 reused, 88 called, 2 failed$/m);
      assertEquals(
        [...failureLines(result.stdout).entries()],
        [[`redirected to another host (${new URL(elsewhere.url).origin}) (1 attempt)`, 2]],
        output,
      );
      assertEquals(elsewhere.requests.length, 0);
    });
  } finally {
    await server.close();
    await elsewhere.close();
  }
});

Deno.test("a redirect within the same host is followed: method, body and key kept", async () => {
  const server = startAnswerServer((request) =>
    request.path === "/v1/chat/completions"
      ? new Response(null, { status: 308, headers: { location: "/v1/moved/chat/completions" } })
      : completion("7")
  );
  try {
    await withTempDir(async (directory) => {
      const result = await runQa(server, directory, { workers: "8" });
      assertEquals(result.code, 0, `${result.stdout}${result.stderr}`);
      assertMatch(result.stdout, /^answer rows: 0 reused, 90 called, 0 failed$/m);
      const moved = server.requests.filter((request) => request.path === "/v1/moved/chat/completions");
      assertEquals([server.requests.length, moved.length], [2 * ROWS, ROWS]);
      const bodies = (requests: typeof moved) =>
        requests.map((request) => JSON.stringify(request.body)).sort();
      assertEquals(bodies(moved), bodies(server.requests.filter((request) => !moved.includes(request))));
      for (const request of moved) {
        assertEquals([request.method, request.authorization], ["POST", "Bearer sk-hostile"]);
      }
    });
  } finally {
    await server.close();
  }
});

Deno.test("a lone surrogate in one answer fails that row alone; the other rows are answered", async () => {
  const server = startAnswerServer((request) =>
    completion(request.body.messages[1].content.includes(`[gold_${TARGET}]`) ? "7 weeks\ud800" : "7")
  );
  try {
    await withTempDir(async (directory) => {
      const result = await runQa(server, directory, { workers: "8" });
      const output = `${result.stdout}${result.stderr}`;
      assertEquals(result.code, 1, output);
      assertMatch(result.stdout, /^answer rows: 0 reused, 88 called, 2 failed$/m);
      assertEquals(
        [...failureLines(result.stdout).entries()],
        [["the answer's prediction holds a lone surrogate (1 attempt)", 2]],
        output,
      );
    });
  } finally {
    await server.close();
  }
});
