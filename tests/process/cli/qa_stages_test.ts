/**
 * End to end: `run-qa` and `grade-qa` as the binary runs them (the `run-qa` task's permission flags), against an
 * OpenAI-compatible server started here on 127.0.0.1, and on copies of the reference's own run directory.
 */

import { requestFingerprint } from "../../../lib/qa/mod.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import {
  completion,
  errorResponse,
  never,
  type ReceivedRequest,
  startAnswerServer,
} from "../../helpers/answer_server.ts";
import {
  fixtureProtocolFlags,
  GOLDEN,
  ROOT,
  runCli,
  taskFlags,
  withFlags,
  withTempDir,
} from "../../helpers/cli.ts";
import {
  copyReferenceRun,
  FIXTURE_DATASET,
  FIXTURE_PROTOCOL,
  REFERENCE_QA,
  runOnFixture,
} from "../../helpers/fixture.ts";

const RUN_QA_FLAGS = taskFlags("run-qa");
const KEY = "sk-deermem-test-7f3a91c2e4";
const QA_FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"];

function qaEnv(baseUrl: string, key = KEY): Record<string, string> {
  return { DEERMEM_EVAL_ANSWER_API_KEY: key, DEERMEM_EVAL_ANSWER_BASE_URL: baseUrl };
}

function runQa(directory: string, env: Record<string, string>, extra: string[] = []) {
  return runCli(
    [
      "run-qa",
      ...withFlags(
        ["--dataset", FIXTURE_DATASET, "--output-dir", directory, ...fixtureProtocolFlags()],
        extra,
      ),
    ],
    { flags: RUN_QA_FLAGS, env },
  );
}

interface ReferenceRow {
  prediction: string;
  response_model: string;
  usage: Record<string, number>;
  request_fingerprint: string;
  row_id: string;
}

async function referenceRows(): Promise<ReferenceRow[]> {
  const rows: ReferenceRow[] = [];
  for await (const entry of Deno.readDir(`${REFERENCE_QA}/responses`)) {
    rows.push(JSON.parse(await Deno.readTextFile(`${REFERENCE_QA}/responses/${entry.name}`)));
  }
  return rows;
}

async function fingerprintOf(request: ReceivedRequest): Promise<string> {
  const body = request.body;
  return await requestFingerprint(
    { model: body.model, temperature: body.temperature, maxTokens: body.max_tokens, stream: body.stream },
    body.messages,
  );
}

/** Answers as the reference's server did, looked up by the fingerprint of the request actually received. */
async function replayReference(): Promise<(request: ReceivedRequest) => Promise<Response>> {
  const byFingerprint = new Map((await referenceRows()).map((row) => [row.request_fingerprint, row]));
  return async (request) => {
    const row = byFingerprint.get(await fingerprintOf(request));
    if (row === undefined) return errorResponse(400, "unknown request");
    return completion(row.prediction, { model: row.response_model, usage: row.usage });
  };
}

/** JSON with keys sorted at every level, to compare request bodies whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${
      Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(",")
    }}`;
  }
  return JSON.stringify(value);
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

async function assertKeyAbsent(directory: string, ...outputs: string[]) {
  for (const path of await filesUnder(directory)) {
    assert(!(await Deno.readTextFile(path)).includes(KEY), `the API key leaked into ${path}`);
  }
  for (const output of outputs) assert(!output.includes(KEY), "the API key leaked into the output");
}

/** A row file with the fields a replay cannot reproduce (time, attempts) set to the reference's values. */
function normalise(text: string, reference: string): string {
  const row = JSON.parse(reference);
  return text.replace(/"created_at": "[^"]*"/, `"created_at": "${row.created_at}"`)
    .replace(/"attempts": \d+/, `"attempts": ${row.attempts}`);
}

Deno.test("run-qa then grade-qa on the fixture: the reference's requests, rows and graded files", async () => {
  const replay = await replayReference();
  const requests = (await Deno.readTextFile(`${GOLDEN}/fixture-run/requests.jsonl`)).trim().split("\n");
  // One request whose fingerprint no other task shares gets 429, then 500, then its answer.
  const flaky =
    (await referenceRows()).filter((row, _, all) =>
      all.filter((other) => other.request_fingerprint === row.request_fingerprint).length === 1
    )[0];
  let flakyCalls = 0;
  const server = startAnswerServer(async (request) => {
    if (flakyCalls < 2 && await fingerprintOf(request) === flaky.request_fingerprint) {
      return errorResponse(flakyCalls++ === 0 ? 429 : 500);
    }
    return await replay(request);
  });
  try {
    await withTempDir(async (directory) => {
      const run = await runQa(directory, qaEnv(server.url));
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(run.stdout, "answer rows: 0 reused, 90 called, 0 failed");
      assertEquals(run.stderr.match(/^\[\d+\/90\] \S+: answered/gm)?.length, 90, run.stderr);
      // Each call's line ends with the time since the calls began and the calls a second.
      assertEquals(
        run.stderr.match(
          /^\[\d+\/90\] \S+: answered \(\d attempts?, \d+ tokens\) · \d+\.\d s · [\d.,]+ calls\/s$/gm,
        )
          ?.length,
        90,
        run.stderr,
      );
      assertEquals(server.requests.length, 92);
      assert(server.maxInFlight <= 3, `at most workers=3 calls in flight, saw ${server.maxInFlight}`);
      assert(server.requests.every((request) => request.authorization === `Bearer ${KEY}`));
      assert(server.requests.every((request) => request.path === "/v1/chat/completions"));
      const distinct = [...new Set(server.requests.map((request) => canonical(request.body)))].sort();
      assertEquals(distinct, [...new Set(requests.map((line) => canonical(JSON.parse(line))))].sort());

      const reference = await Deno.readTextFile(`${REFERENCE_QA}/qa_run.json`);
      const marker = await Deno.readTextFile(`${directory}/qa_run.json`);
      const strip = (text: string) =>
        text.replace(/"created_at": "[^"]*"/, "").replace(/"git": \{[^}]*\}/, "");
      assertEquals(strip(marker), strip(reference));

      for await (const entry of Deno.readDir(`${REFERENCE_QA}/responses`)) {
        const ours = await Deno.readTextFile(`${directory}/responses/${entry.name}`);
        const theirs = await Deno.readTextFile(`${REFERENCE_QA}/responses/${entry.name}`);
        assertEquals(normalise(ours, theirs), theirs, entry.name);
        const attempts = JSON.parse(ours).attempts;
        assertEquals(attempts, entry.name === `${flaky.row_id}.json` ? 3 : 1, entry.name);
      }

      const graded = await runOnFixture("grade-qa", directory);
      assertEquals(graded.code, 0, graded.stderr);
      assertStringIncludes(
        graded.stdout,
        "official: confidence 20/40, hybrid-v1 30/40, exact McNemar p=0.0213",
      );
      for (const name of ["qa.summary.json", "qa.stats.json"]) {
        assertEquals(
          await Deno.readTextFile(`${directory}/${name}`),
          await Deno.readTextFile(`${REFERENCE_QA}/${name}`),
        );
      }
      const ourRows = (await Deno.readTextFile(`${directory}/qa.rows.jsonl`)).split("\n");
      const theirRows = (await Deno.readTextFile(`${REFERENCE_QA}/qa.rows.jsonl`)).split("\n");
      assertEquals(ourRows.map((line, index) => normalise(line, theirRows[index] || "{}")), theirRows);
      await assertKeyAbsent(directory, run.stdout, run.stderr);

      const again = await runQa(directory, qaEnv(server.url));
      assertEquals(again.code, 0, again.stderr);
      assertStringIncludes(again.stdout, "answer rows: 90 reused, 0 called, 0 failed");
      assertEquals(server.requests.length, 92, "a resumed complete run calls nothing");
      const regrade = await runOnFixture("grade-qa", directory);
      assertEquals(regrade.code, 2);
      assertMatch(regrade.stderr, /qa\.rows\.jsonl: refusing to overwrite an existing file/);
    });
  } finally {
    await server.close();
  }
});

Deno.test("grade-qa on a copy of the reference's run directory writes the reference's three files byte for byte", async () => {
  await withTempDir(async (directory) => {
    await copyReferenceRun(directory);
    const result = await runOnFixture("grade-qa", directory);
    assertEquals(result.code, 0, result.stderr);
    for (const name of QA_FILES) {
      assertEquals(
        await Deno.readFile(`${directory}/${name}`),
        await Deno.readFile(`${REFERENCE_QA}/${name}`),
        name,
      );
    }
  });
});

Deno.test("run-qa resumes the reference's own run directory without a call", async () => {
  const server = startAnswerServer(() => completion("x"));
  try {
    await withTempDir(async (directory) => {
      await copyReferenceRun(directory);
      const result = await runQa(directory, qaEnv(server.url));
      assertEquals(result.code, 0, result.stderr);
      assertStringIncludes(result.stdout, "answer rows: 90 reused, 0 called, 0 failed");
      assertEquals(server.requests.length, 0);
      assertEquals(
        await Deno.readTextFile(`${directory}/qa_run.json`),
        await Deno.readTextFile(`${REFERENCE_QA}/qa_run.json`),
        "an existing marker is never rewritten",
      );
    });
  } finally {
    await server.close();
  }
});

const IDENTITY_EDITS: [string, (row: Record<string, unknown>) => void][] = [
  ["row_id", (row) => row.row_id = "0631cb30__confidence"],
  ["case_id", (row) => row.case_id = "0631cb30"],
  ["source", (row) => row.source = "synthetic"],
  ["scenario", (row) => row.scenario = "correction"],
  ["policy", (row) => row.policy = "hybrid-v1"],
  ["capacity", (row) => row.capacity = 9],
  ["kept_fact_ids", (row) => (row.kept_fact_ids as string[]).reverse()],
  ["request_fingerprint", (row) => row.request_fingerprint = "f".repeat(64)],
];

async function editRow(directory: string, rowId: string, edit: (row: Record<string, unknown>) => void) {
  const path = `${directory}/responses/${rowId}.json`;
  const row = JSON.parse(await Deno.readTextFile(path));
  edit(row);
  await Deno.writeTextFile(path, JSON.stringify(row, null, 2) + "\n");
}

for (const [field, edit] of IDENTITY_EDITS) {
  Deno.test(`grade-qa refuses a row whose ${field} was altered, naming the row and the field, and writes nothing`, async () => {
    await withTempDir(async (directory) => {
      await copyReferenceRun(directory);
      await editRow(directory, "05fdf179__confidence", edit);
      const result = await runOnFixture("grade-qa", directory);
      assertEquals(result.code, 2, result.stderr);
      assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
      assertStringIncludes(
        result.stderr,
        `responses/05fdf179__confidence.json: ${field}: differs from the recomputed task`,
      );
      for (const name of QA_FILES) {
        assertEquals(await Deno.stat(`${directory}/${name}`).catch(() => null), null);
      }
    });
  });
}

Deno.test("run-qa calls again every row with an altered identity field or a corrupt file, keeping the old ones aside", async () => {
  const server = startAnswerServer(await replayReference());
  try {
    await withTempDir(async (directory) => {
      await copyReferenceRun(directory);
      const rowIds = [...Deno.readDirSync(`${directory}/responses`)].map((entry) =>
        entry.name.replace(/\.json$/, "")
      )
        .sort();
      for (const [index, [, edit]] of IDENTITY_EDITS.entries()) await editRow(directory, rowIds[index], edit);
      await Deno.writeTextFile(`${directory}/responses/${rowIds[8]}.json`, '{"attempts": 1,');
      const result = await runQa(directory, qaEnv(server.url));
      assertEquals(result.code, 0, result.stderr);
      assertStringIncludes(result.stdout, "answer rows: 81 reused, 9 called, 0 failed");
      assertEquals(server.requests.length, 9);
      for (const [index, [field]] of IDENTITY_EDITS.entries()) {
        assertMatch(
          result.stderr,
          new RegExp(`${rowIds[index]}: stored row not reusable \\(${field} differ`),
        );
      }
      assertEquals([...Deno.readDirSync(`${directory}/responses/superseded`)].length, 9);
      const graded = await runOnFixture("grade-qa", directory);
      assertEquals(graded.code, 0, graded.stderr);
      for (const name of ["qa.summary.json", "qa.stats.json"]) {
        assertEquals(
          await Deno.readTextFile(`${directory}/${name}`),
          await Deno.readTextFile(`${REFERENCE_QA}/${name}`),
        );
      }
    });
  } finally {
    await server.close();
  }
});

Deno.test("a changed manifest or prompt refuses the run directory, naming the artifact; nothing is called", async () => {
  const server = startAnswerServer(() => completion("x"));
  try {
    await withTempDir(async (directory) => {
      const run = `${directory}/run`;
      await Deno.mkdir(run);
      await copyReferenceRun(run);
      const manifest = `${directory}/official.json`;
      await Deno.writeTextFile(
        manifest,
        JSON.stringify(JSON.parse(await Deno.readTextFile(`${FIXTURE_PROTOCOL}/official.json`))),
      );
      const flags = ["--official-manifest", manifest];
      for (
        const result of [
          await runQa(run, qaEnv(server.url), flags),
          await runOnFixture("grade-qa", run, flags),
        ]
      ) {
        assertEquals(result.code, 2, result.stderr);
        assertMatch(
          result.stderr,
          /qa_run\.json: artifacts: this run was made under a different protocol: official_manifest_sha256 differ/,
        );
      }
      const marker = JSON.parse(await Deno.readTextFile(`${run}/qa_run.json`));
      marker.artifacts.answer_prompt_sha256 = "0".repeat(64);
      await Deno.writeTextFile(`${run}/qa_run.json`, JSON.stringify(marker, null, 2) + "\n");
      for (const result of [await runQa(run, qaEnv(server.url)), await runOnFixture("grade-qa", run)]) {
        assertEquals(result.code, 2, result.stderr);
        assertMatch(result.stderr, /answer_prompt_sha256 differ/);
      }
      assertEquals(server.requests.length, 0);
    });
  } finally {
    await server.close();
  }
});

Deno.test("missing environment variables are named before the dataset is read; nothing is written", async () => {
  await withTempDir(async (directory) => {
    const run = `${directory}/run`;
    const args = ["run-qa", "--dataset", `${directory}/absent.json`, "--output-dir", run];
    const noKey = await runCli(args, { flags: RUN_QA_FLAGS, env: qaEnv("http://127.0.0.1:9/v1", "") });
    assertEquals(noKey.code, 2);
    assertEquals(
      noKey.stderr,
      "deermem-eval run-qa: environment variable DEERMEM_EVAL_ANSWER_API_KEY (the config's qa.api_key_env) is not set\n",
    );
    const noUrl = await runCli(args, { flags: RUN_QA_FLAGS, env: qaEnv("") });
    assertEquals(noUrl.code, 2);
    assertMatch(noUrl.stderr, /DEERMEM_EVAL_ANSWER_BASE_URL \(the config's qa\.base_url_env\) is not set/);
    const badUrl = await runCli(args, { flags: RUN_QA_FLAGS, env: qaEnv("ftp://127.0.0.1/v1") });
    assertEquals(badUrl.code, 2);
    assertMatch(badUrl.stderr, /DEERMEM_EVAL_ANSWER_BASE_URL must be an http\(s\) URL/);
    const withBoth = await runCli(args, { flags: RUN_QA_FLAGS, env: qaEnv("http://127.0.0.1:9/v1") });
    assertEquals(withBoth.code, 2);
    assertMatch(withBoth.stderr, /absent\.json: cannot read dataset: not found/);
    for (const result of [noKey, noUrl, badUrl, withBoth]) assert(!result.stderr.includes(KEY));
    assertEquals(await Deno.stat(run).catch(() => null), null);
  });
});

Deno.test("a 401 stops the run at the first: exit 1, one message, no row written, the echoed key nowhere", async () => {
  const server = startAnswerServer(() => errorResponse(401, `Incorrect API key provided: ${KEY}`));
  try {
    await withTempDir(async (directory) => {
      const result = await runQa(directory, qaEnv(server.url));
      assertEquals(result.code, 1, result.stderr);
      assertStringIncludes(result.stdout, "answer rows: 0 reused, 0 called, 0 failed");
      assertMatch(
        result.stdout,
        /^stopped: the endpoint rejected the API key \(HTTP 401 from 127\.0\.0\.1:\d+: /m,
      );
      assert(server.requests.length <= 3, `${server.requests.length} requests: only those already in flight`);
      assertEquals([...Deno.readDirSync(`${directory}/responses`)], []);
      await assertKeyAbsent(directory, result.stdout, result.stderr);
    });
  } finally {
    await server.close();
  }
});

Deno.test("Ctrl-C stops run-qa cleanly; the next run resumes without repeating a call", async () => {
  const replay = await replayReference();
  let served = 0;
  const stalling = startAnswerServer((request) => served++ < 10 ? replay(request) : never());
  const server = startAnswerServer(replay);
  try {
    await withTempDir(async (directory) => {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          ...RUN_QA_FLAGS,
          `${ROOT}cli.ts`,
          "run-qa",
          "--dataset",
          FIXTURE_DATASET,
          "--output-dir",
          directory,
          ...fixtureProtocolFlags(),
        ],
        env: { NO_COLOR: "1", ...qaEnv(stalling.url) },
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const rowCount = () => {
        try {
          return [...Deno.readDirSync(`${directory}/responses`)].filter((entry) =>
            entry.name.endsWith(".json")
          ).length;
        } catch {
          return 0;
        }
      };
      const deadline = Date.now() + 30_000;
      while (rowCount() < 10 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // The three workers are now all waiting on answers that never come.
      while (stalling.requests.length < 13 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
      }
      child.kill("SIGINT");
      const output = await child.output();
      const stdout = new TextDecoder().decode(output.stdout);
      assertEquals(output.code, 130, new TextDecoder().decode(output.stderr));
      assertStringIncludes(stdout, "answer rows: 0 reused, 10 called, 0 failed");
      assertStringIncludes(stdout, "interrupted: 80 row(s) not attempted");
      assertEquals(rowCount(), 10);

      const resumed = await runQa(directory, qaEnv(server.url));
      assertEquals(resumed.code, 0, resumed.stderr);
      assertStringIncludes(resumed.stdout, "answer rows: 10 reused, 80 called, 0 failed");
      assertEquals(server.requests.length, 80);
      const graded = await runOnFixture("grade-qa", directory);
      assertEquals(graded.code, 0, graded.stderr);
      assertEquals(
        await Deno.readTextFile(`${directory}/qa.stats.json`),
        await Deno.readTextFile(`${REFERENCE_QA}/qa.stats.json`),
      );
    });
  } finally {
    await stalling.close();
    await server.close();
  }
});

Deno.test("--dry-run prints every row id, fingerprint and size, needs no key, calls and writes nothing", async () => {
  await withTempDir(async (directory) => {
    const args = ["run-qa", "--dry-run", "--dataset", FIXTURE_DATASET, ...fixtureProtocolFlags()];
    const plain = await runCli(args, { flags: RUN_QA_FLAGS, env: qaEnv("", "") });
    assertEquals(plain.code, 0, plain.stderr);
    const lines = plain.stdout.trim().split("\n");
    assertEquals(lines.length, 93); // 90 tasks, the total, and the two lines of the token estimate
    assertMatch(lines[91], /^estimate: \d+ prompt tokens for 90 call\(s\)/);
    const rows = await referenceRows();
    for (const row of rows) {
      assertMatch(plain.stdout, new RegExp(`^${row.row_id}  ${row.request_fingerprint}  \\d+ chars$`, "m"));
    }
    assertMatch(
      lines[90],
      /^dry run: 90 tasks, \d+ characters of messages, 90 call\(s\) needed; nothing called$/,
    );

    await copyReferenceRun(directory);
    await Deno.remove(`${directory}/responses/05fdf179__confidence.json`);
    const before = (await filesUnder(directory)).sort();
    const resume = await runCli([...args, "--output-dir", directory], {
      flags: RUN_QA_FLAGS,
      env: qaEnv("", ""),
    });
    assertEquals(resume.code, 0, resume.stderr);
    assertMatch(resume.stdout, /^05fdf179__confidence {2}[0-9a-f]{64} {2}\d+ chars {2}call$/m);
    assertMatch(resume.stdout, /^05fdf179__hybrid-v1 {2}[0-9a-f]{64} {2}\d+ chars {2}reuse$/m);
    assertStringIncludes(resume.stdout, "1 call(s) needed");
    assertEquals((await filesUnder(directory)).sort(), before);
  });
});

Deno.test("on a terminal run-qa keeps one live progress line: done/total, failures, tokens so far", async () => {
  const { main } = await import("../../../cli.ts");
  const server = startAnswerServer((request) =>
    request.body.messages[1].content.includes("[gold_05fdf179]")
      ? errorResponse(400, "no")
      : completion("7", { usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 } })
  );
  try {
    await withTempDir(async (directory) => {
      const updates: string[] = [];
      const out: string[] = [];
      const err: string[] = [];
      let done = 0;
      const env = qaEnv(server.url);
      const code = await main(
        ["run-qa", "--dataset", FIXTURE_DATASET, "--output-dir", directory, ...fixtureProtocolFlags()],
        {
          out: (line) => out.push(line),
          err: (line) => err.push(line),
          env: (name) => env[name as keyof typeof env],
          live: { update: (text) => updates.push(text), done: () => done++ },
        },
      );
      assertEquals(code, 1, err.join("\n"));
      assertEquals(updates.length, 90);
      assertEquals(done, 1);
      assertMatch(
        updates.at(-1)!,
        /^answered 90\/90 · 2 failed · 880 tokens · \d+\.\d s · [\d.,]+ calls\/s$/,
      );
      assertEquals(err.filter((line) => line.startsWith("[")), [], "no per-call lines on a terminal");
      assertStringIncludes(out.join("\n"), "answer rows: 0 reused, 88 called, 2 failed");
    });
  } finally {
    await server.close();
  }
});
