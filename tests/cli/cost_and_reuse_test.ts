/**
 * run-qa's cost before the run (`--dry-run` estimate, `--price-input/--price-output`, `--max-cost`) and its
 * answers reused by request fingerprint from earlier runs (`--reuse DIR`), on the fixture protocol answered by
 * a server started here on 127.0.0.1.
 */

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { completion, startAnswerServer } from "../helpers/answer_server.ts";
import { fixtureProtocolFlags, ROOT, runCli, taskFlags, withTempDir } from "../helpers/cli.ts";
import { FIXTURE_DATASET } from "../helpers/fixture.ts";

export const RECENCY = `${ROOT}tests/fixtures/policies/recency.ts`;
const KEY = "sk-deermem-test-7f3a91c2e4";

export function runQa(
  directory: string,
  baseUrl: string,
  extra: string[],
  protocol = fixtureProtocolFlags(),
) {
  return runCli(
    ["run-qa", "--dataset", FIXTURE_DATASET, "--output-dir", directory, ...protocol, ...extra],
    {
      flags: taskFlags("run-qa"),
      env: { DEERMEM_EVAL_ANSWER_API_KEY: KEY, DEERMEM_EVAL_ANSWER_BASE_URL: baseUrl },
    },
  );
}

export function answerServer() {
  return startAnswerServer((request) => {
    const text = JSON.stringify(request.body.messages);
    return completion(/week/i.test(text) ? "7 weeks" : "INSUFFICIENT");
  });
}

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
      assertStringIncludes(stopped.stdout, "stopped by --max-cost $0.0205: 80 task(s) left");
      assertEquals([...Deno.readDirSync(`${directory}/responses`)].length, 10);
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
