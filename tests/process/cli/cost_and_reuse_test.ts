/**
 * run-qa's cost before the run (`--dry-run` estimate, `--price-input/--price-output`, `--max-cost`) and its
 * answers reused by request fingerprint from earlier runs (`--reuse DIR`), on the fixture protocol answered by
 * a server started here on 127.0.0.1.
 */

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { answerServer, runQa } from "../../helpers/qa_runs.ts";
import { fixtureProtocolFlags, ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, FIXTURE_PROTOCOL, REFERENCE_QA } from "../../helpers/fixture.ts";

const RECENCY = `${ROOT}tests/fixtures/policies/recency.ts`;

Deno.test("run-qa --dry-run estimates prompt tokens by the stated rule and, with prices, the cost", async () => {
  const dry = await runCli([
    "run-qa",
    "--dry-run",
    "--dataset",
    FIXTURE_DATASET,
    ...fixtureProtocolFlags(),
    "--price-input",
    "0.5",
    "--price-output",
    "2",
    "--max-cost",
    "0.1",
  ], { flags: taskFlags("run-qa") });
  assertEquals(dry.code, 0, dry.stderr);
  const tokens = Number(
    dry.stdout.match(/estimate: (\d+) prompt tokens for 90 call\(s\), at most 184320/)?.[1],
  );
  assert(tokens > 0, dry.stdout);
  assertStringIncludes(dry.stdout, "0.3 token a character");
  const expected = (tokens * 0.5 + 184320 * 2) / 1e6;
  assertStringIncludes(dry.stdout, `at most $${expected.toFixed(4)} with every completion at max_tokens`);
  assertMatch(dry.stdout, /--max-cost \$0\.1: \d+ of 90 call\(s\) fit by their worst case/);
});

Deno.test("run-qa --max-cost stops before a call would pass it (exit 3), and the same command with more resumes", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      // max_tokens is 2048: at $1 per million completion tokens a call's worst case is just over $0.002048.
      const prices = ["--price-input", "0", "--price-output", "1"];
      const stopped = await runQa(directory, server.url, [...prices, "--max-cost", "0.0205"]);
      assertEquals(stopped.code, 3, stopped.stdout + stopped.stderr);
      assertEquals(server.requests.length, 10);
      assertStringIncludes(
        stopped.stdout.replace(/\s+/g, " "),
        "stopped by --max-cost $0.0205 (the run's total; $0.0000 spent before this invocation): 80 task(s) left",
      );
      assertEquals([...Deno.readDirSync(`${directory}/responses`)].length, 10);
      // The budget is the run's: the same command again calls nothing more, and says what was spent.
      const again = await runQa(directory, server.url, [...prices, "--max-cost", "0.0205"]);
      assertEquals(again.code, 3, again.stdout + again.stderr);
      assertEquals(server.requests.length, 10);
      assertStringIncludes(
        again.stdout.replace(/\s+/g, " "),
        "(the run's total; $0.0205 spent before this invocation): 80 task(s) left",
      );
      const dry = await runQa(directory, server.url, [...prices, "--max-cost", "0.0205", "--dry-run"]);
      assertStringIncludes(
        dry.stdout.replace(/\s+/g, " "),
        "--max-cost $0.0205: 0 of 80 call(s) fit by their worst case",
      );
      const resumed = await runQa(directory, server.url, [...prices, "--max-cost", "1"]);
      assertEquals(resumed.code, 0, resumed.stderr);
      assertStringIncludes(resumed.stdout, "answer rows: 10 reused, 80 called, 0 failed");
      const graded = await runCli(
        ["grade-qa", "--dataset", FIXTURE_DATASET, "--output-dir", directory, ...fixtureProtocolFlags()],
        { flags: taskFlags("cli") },
      );
      assertEquals(graded.code, 0, graded.stderr);
    });
  } finally {
    await server.close();
  }
});

Deno.test("run-qa refuses --max-cost without prices, in one line, before any call", async () => {
  const refused = await runQa("/nonexistent-never-written", "http://127.0.0.1:9/v1", ["--max-cost", "1"]);
  assertEquals(refused.code, 2);
  assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assertStringIncludes(refused.stderr, "--max-cost needs --price-input and --price-output");
});

const OLDEST = `${ROOT}tests/fixtures/policies/oldest.ts`;

/** Each task's request fingerprint, as `run-qa --dry-run` prints it (row id → fingerprint). */
async function fingerprints(
  extra: string[],
  protocol = fixtureProtocolFlags(),
): Promise<Map<string, string>> {
  const dry = await runCli(
    ["run-qa", "--dry-run", "--dataset", FIXTURE_DATASET, ...protocol, ...extra],
    { flags: taskFlags("run-qa") },
  );
  assertEquals(dry.code, 0, dry.stderr);
  const lines = dry.stdout.split("\n").filter((line) => /^\S+__\S+ {2}[0-9a-f]{64} {2}/.test(line));
  return new Map(lines.map((line) => line.split("  ") as [string, string]));
}

function grade(directory: string, extra: string[]) {
  return runCli(
    [
      "grade-qa",
      "--dataset",
      FIXTURE_DATASET,
      "--output-dir",
      directory,
      ...fixtureProtocolFlags(),
      ...extra,
    ],
    { flags: taskFlags("cli") },
  );
}

const GRADED = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"];

Deno.test("run-qa --reuse: a second candidate calls only the tasks whose fingerprints are new; the rows verify and grade", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const first = await runQa(`${directory}/recency`, server.url, ["--policy-module", RECENCY]);
      assertEquals(first.code, 0, first.stderr);
      assertEquals(server.requests.length, 90);
      assertEquals((await grade(`${directory}/recency`, ["--policy-module", RECENCY])).code, 0);
      const known = new Set((await fingerprints(["--policy-module", RECENCY])).values());
      const second = await fingerprints(["--policy-module", OLDEST]);
      const fresh = [...second.values()].filter((fingerprint) => !known.has(fingerprint)).length;
      assert(fresh > 0 && fresh < 90, `${fresh} new fingerprints`);

      const reused = await runQa(`${directory}/oldest`, server.url, [
        "--policy-module",
        OLDEST,
        "--reuse",
        `${directory}/recency`,
      ]);
      assertEquals(reused.code, 0, reused.stderr);
      assertEquals(server.requests.length - 90, fresh, "calls made: only the new fingerprints");
      assertStringIncludes(
        reused.stdout,
        `reused from earlier runs: ${90 - fresh} answer(s), ${90 - fresh} call(s) saved`,
      );
      assertStringIncludes(reused.stdout, `answer rows: ${90 - fresh} reused, ${fresh} called, 0 failed`);

      const sidecar = JSON.parse(await Deno.readTextFile(`${directory}/oldest/reuse.json`));
      assertEquals(Object.keys(sidecar.reused).length, 90 - fresh);
      const [rowId, origin] = Object.entries(sidecar.reused)[0] as [string, { from: string; row_id: string }];
      assertEquals(origin.from, `${directory}/recency`);
      assertEquals(second.get(rowId), (await fingerprints(["--policy-module", RECENCY])).get(origin.row_id));
      // The reference's files keep exactly the reference's keys.
      const marker = (dir: string) =>
        Deno.readTextFile(`${dir}/qa_run.json`).then((t) => Object.keys(JSON.parse(t)));
      assertEquals(await marker(`${directory}/oldest`), await marker(`${directory}/recency`));
      const row = JSON.parse(await Deno.readTextFile(`${directory}/oldest/responses/${rowId}.json`));
      assertEquals(Object.keys(row).sort(), [
        "attempts",
        "capacity",
        "case_id",
        "created_at",
        "kept_fact_ids",
        "policy",
        ...(rowId.endsWith("__oldest") ? ["policy_module", "policy_module_sha256"] : []),
        "prediction",
        "request_fingerprint",
        "response_model",
        "row_id",
        "scenario",
        "schema_version",
        "source",
        "usage",
      ]);

      const graded = await grade(`${directory}/oldest`, ["--policy-module", OLDEST]);
      assertEquals(graded.code, 0, graded.stderr);
      const verified = await runCli(
        [
          "verify",
          `${directory}/oldest`,
          "--dataset",
          FIXTURE_DATASET,
          ...fixtureProtocolFlags(),
          "--policy-module",
          OLDEST,
        ],
        { flags: taskFlags("cli") },
      );
      assertEquals(verified.code, 0, verified.stdout + verified.stderr);
      // Resuming a run with reused rows (and its sidecar) reuses every row and calls nothing.
      const before = server.requests.length;
      const again = await runQa(`${directory}/oldest`, server.url, ["--policy-module", OLDEST]);
      assertEquals(again.code, 0, again.stderr);
      assertEquals(server.requests.length, before);
      assertStringIncludes(again.stdout, "answer rows: 90 reused, 0 called, 0 failed");
    });
  } finally {
    await server.close();
  }
});

Deno.test("run-qa --reuse of the reference's fixture run calls nothing and grades to the reference's bytes", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      await Deno.mkdir(`${directory}/source`);
      await copyReferenceRun(`${directory}/source`);
      // The reference records no endpoint: say it was answered here, as this program's runs record it.
      await Deno.writeTextFile(
        `${directory}/source/reuse.json`,
        `{"endpoint": ${JSON.stringify(server.url)}, "reused": {}, "schema_version": 1}\n`,
      );
      // Ungraded, so taken only with the flag that says its answers are unproved.
      const ran = await runQa(`${directory}/run`, server.url, [
        "--reuse",
        `${directory}/source`,
        "--reuse-ungraded",
      ]);
      assertEquals(ran.code, 0, ran.stderr);
      assertEquals(server.requests.length, 0);
      assertStringIncludes(ran.stdout, "reused from earlier runs: 90 answer(s), 90 call(s) saved");
      const graded = await grade(`${directory}/run`, []);
      assertEquals(graded.code, 0, graded.stderr);
      for (const file of GRADED) {
        assertEquals(
          await Deno.readFile(`${directory}/run/${file}`),
          await Deno.readFile(`${REFERENCE_QA}/${file}`),
          file,
        );
      }
    });
  } finally {
    await server.close();
  }
});

Deno.test("run-qa --reuse never crosses a changed setting or endpoint: every task is called", async () => {
  const server = answerServer();
  const other = answerServer();
  try {
    await withTempDir(async (directory) => {
      const first = await runQa(`${directory}/a`, server.url, []);
      assertEquals(first.code, 0, first.stderr);
      const config = (await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`)).replace(
        "temperature: 0\n",
        "temperature: 0.5\n",
      );
      await Deno.writeTextFile(`${directory}/config.yaml`, config);
      const protocol = fixtureProtocolFlags();
      protocol[1] = `${directory}/config.yaml`;
      const warmer = await runQa(`${directory}/b`, server.url, ["--reuse", `${directory}/a`], protocol);
      assertEquals(warmer.code, 0, warmer.stderr);
      assertEquals(server.requests.length, 180);
      assertStringIncludes(warmer.stdout, "answer rows: 0 reused, 90 called, 0 failed");
      assertStringIncludes(
        warmer.stderr,
        `reuse: nothing taken from ${directory}/a: it was made under a different protocol`,
      );

      const elsewhere = await runQa(`${directory}/c`, other.url, ["--reuse", `${directory}/a`]);
      assertEquals(elsewhere.code, 0, elsewhere.stderr);
      assertEquals(other.requests.length, 90);
      assertStringIncludes(
        elsewhere.stderr,
        `reuse: nothing taken from ${directory}/a: its answers came from`,
      );
    });
  } finally {
    await server.close();
    await other.close();
  }
});

Deno.test("run-qa --reuse refuses a tampered source directory in one line, before any call, writing nothing", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const first = await runQa(`${directory}/a`, server.url, ["--limit", "4"]);
      assertEquals(first.code, 0, first.stderr);
      const [name] = [...Deno.readDirSync(`${directory}/a/responses`)].map((entry) => entry.name).sort();
      const path = `${directory}/a/responses/${name}`;
      const text = await Deno.readTextFile(path);
      const forged = text.replace(
        /"request_fingerprint": "[0-9a-f]{64}"/,
        `"request_fingerprint": "${"0".repeat(64)}"`,
      );
      assert(forged !== text);
      await Deno.writeTextFile(path, forged);
      const refused = await runQa(`${directory}/b`, server.url, [
        "--reuse",
        `${directory}/a`,
        "--reuse-ungraded",
      ]);
      assertEquals(refused.code, 2, refused.stdout + refused.stderr);
      assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assertStringIncludes(refused.stderr, path);
      assertStringIncludes(refused.stderr, "request_fingerprint");
      assertEquals(server.requests.length, 4);
      assertEquals(
        await Deno.lstat(`${directory}/b`).then(() => true, () => false),
        false,
        "nothing written",
      );
    });
  } finally {
    await server.close();
  }
});

Deno.test("run-qa --reuse refuses a source whose graded files do not verify, before any call", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      await Deno.mkdir(`${directory}/source`);
      await copyReferenceRun(`${directory}/source`);
      for (const file of GRADED) {
        await Deno.copyFile(`${REFERENCE_QA}/${file}`, `${directory}/source/${file}`);
      }
      await Deno.writeTextFile(
        `${directory}/source/reuse.json`,
        `{"endpoint": ${JSON.stringify(server.url)}, "reused": {}, "schema_version": 1}\n`,
      );
      const rows = await Deno.readTextFile(`${directory}/source/qa.rows.jsonl`);
      await Deno.writeTextFile(
        `${directory}/source/qa.rows.jsonl`,
        rows.replace('"grade_correct": true', '"grade_correct": false'),
      );
      const refused = await runQa(`${directory}/run`, server.url, ["--reuse", `${directory}/source`]);
      assertEquals(refused.code, 2, refused.stdout + refused.stderr);
      assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assertStringIncludes(refused.stderr, `${directory}/source: not reused: NOT verified`);
      assertEquals(server.requests.length, 0);
    });
  } finally {
    await server.close();
  }
});
