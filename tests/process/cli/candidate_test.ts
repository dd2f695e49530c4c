/**
 * End to end: a candidate policy module against a baseline through every stage — `run-qa --policy-module` on
 * the fixture (answered by a server started here on 127.0.0.1), `grade-qa`, `verify --dataset`, `report` and
 * `explain` — and the refusals that bind a run to its module and baseline.
 */

import { sha256Hex } from "../../../lib/base/hash.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { completion, startAnswerServer } from "../../helpers/answer_server.ts";
import { fixtureProtocolFlags, ROOT, runCli, taskFlags, withFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";

const RECENCY = `${ROOT}tests/fixtures/policies/recency.ts`;
const KEY = "sk-deermem-test-7f3a91c2e4";

function offline(command: string, directory: string, extra: string[]) {
  const dir = command === "verify" || command === "report" ? [directory] : ["--output-dir", directory];
  return runCli([command, "--dataset", FIXTURE_DATASET, ...dir, ...fixtureProtocolFlags(), ...extra], {
    flags: taskFlags("cli"),
  });
}

function runQa(directory: string, baseUrl: string, extra: string[]) {
  return runCli(
    [
      "run-qa",
      ...withFlags(
        ["--dataset", FIXTURE_DATASET, "--output-dir", directory, ...fixtureProtocolFlags()],
        extra,
      ),
    ],
    {
      flags: taskFlags("run-qa"),
      env: { DEERMEM_EVAL_ANSWER_API_KEY: KEY, DEERMEM_EVAL_ANSWER_BASE_URL: baseUrl },
    },
  );
}

/** Answers "7 weeks" when the memory mentions weeks, else INSUFFICIENT: the two policies then differ. */
function answerServer() {
  return startAnswerServer((request) => {
    const text = JSON.stringify(request.body.messages);
    return completion(/week/i.test(text) ? "7 weeks" : "INSUFFICIENT");
  });
}

Deno.test("run-qa --policy-module recency.ts → grade-qa → verify --dataset → report: the candidate against confidence", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const module = ["--policy-module", RECENCY];
      const ran = await runQa(directory, server.url, module);
      assertEquals(ran.code, 0, ran.stderr);
      assertStringIncludes(ran.stdout, "answer rows: 0 reused, 90 called, 0 failed");
      const sha = await sha256Hex(await Deno.readFile(RECENCY));
      const names = [...Deno.readDirSync(`${directory}/responses`)].map((entry) => entry.name).sort();
      assertEquals(names.filter((name) => name.endsWith("__recency.json")).length, 45);
      assertEquals(names.filter((name) => name.endsWith("__confidence.json")).length, 45);
      const candidateRow = JSON.parse(
        await Deno.readTextFile(
          `${directory}/responses/${names.find((name) => name.endsWith("__recency.json"))}`,
        ),
      );
      assertEquals([candidateRow.policy, candidateRow.policy_module, candidateRow.policy_module_sha256], [
        "recency",
        "recency.ts",
        sha,
      ]);
      const baselineRow = JSON.parse(await Deno.readTextFile(`${directory}/responses/${names[0]}`));
      assertEquals([baselineRow.policy, "policy_module" in baselineRow], ["confidence", false]);
      const marker = JSON.parse(await Deno.readTextFile(`${directory}/qa_run.json`));
      assertEquals(marker.candidate, {
        baseline: "confidence",
        policy: "recency",
        policy_module: "recency.ts",
        policy_module_sha256: sha,
      });

      const graded = await offline("grade-qa", directory, module);
      assertEquals(graded.code, 0, graded.stderr);
      assertMatch(graded.stdout, /^official: confidence \d+\/\d+, recency \d+\/\d+, exact McNemar p=/m);
      const stats = JSON.parse(await Deno.readTextFile(`${directory}/qa.stats.json`));
      assertEquals(stats.policies, ["confidence", "recency"]);

      const verified = await offline("verify", directory, module);
      assertEquals(verified.code, 0, verified.stdout + verified.stderr);
      assert(!verified.stdout.includes("needs --dataset"), verified.stdout);

      const reported = await offline("report", directory, module);
      assertEquals(reported.code, 0, reported.stderr);
      assertStringIncludes(reported.stdout, "recency − confidence: paired bootstrap");
      assertMatch(reported.stdout, /suite\s+cases\s+confidence\s+recency/);

      const structure = await runCli(["verify", directory, ...fixtureProtocolFlags()]);
      assertEquals(structure.code, 0, structure.stdout + structure.stderr);

      // One row edited: verify refuses.
      const rowsPath = `${directory}/qa.rows.jsonl`;
      const rows = await Deno.readTextFile(rowsPath);
      const lines = rows.split("\n");
      const at = lines.findIndex((line) => line.includes('"policy": "recency"'));
      lines[at] = lines[at].replace(/"prediction": "([^"]*)"/, '"prediction": "$1 edited"');
      await Deno.writeTextFile(rowsPath, lines.join("\n"));
      assert(lines.join("\n") !== rows, "the edit must change a row");
      const refused = await offline("verify", directory, module);
      assertEquals(refused.code, 1, refused.stdout);
      assertStringIncludes(refused.stdout, "NOT verified");
    });
  } finally {
    await server.close();
  }
});

Deno.test("a candidate run refuses another module or baseline, on resume and in every offline stage, in one line", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const ran = await runQa(`${directory}/run`, server.url, ["--policy-module", RECENCY, "--limit", "2"]);
      assertEquals(ran.code, 0, ran.stderr);
      const changed = `${directory}/recency2.ts`;
      await Deno.writeTextFile(changed, (await Deno.readTextFile(RECENCY)) + "// changed\n");
      const [sha, changedSha] = [
        await sha256Hex(await Deno.readFile(RECENCY)),
        await sha256Hex(await Deno.readFile(changed)),
      ];
      const calls = server.requests.length;
      const resumed = await runQa(`${directory}/run`, server.url, ["--policy-module", changed]);
      assertEquals(resumed.code, 2, resumed.stderr);
      assertEquals(resumed.stderr.trim().split("\n").length, 1, resumed.stderr);
      assertStringIncludes(resumed.stderr, "recency2.ts");
      assertStringIncludes(resumed.stderr, `expected ${sha}`);
      assertStringIncludes(resumed.stderr, `got ${changedSha}`);
      const baseline = await runQa(`${directory}/run`, server.url, [
        "--policy-module",
        RECENCY,
        "--baseline",
        "hybrid-v1",
      ]);
      assertEquals(baseline.code, 2, baseline.stderr);
      assertStringIncludes(baseline.stderr, "baseline");
      assertStringIncludes(baseline.stderr, 'expected "confidence", got "hybrid-v1"');
      const without = await runQa(`${directory}/run`, server.url, []);
      assertEquals(without.code, 2, without.stderr);
      assertStringIncludes(without.stderr, "--policy-module");
      assertEquals(server.requests.length, calls, "a refused resume calls nothing");

      const finished = await runQa(`${directory}/run`, server.url, ["--policy-module", RECENCY]);
      assertEquals(finished.code, 0, finished.stderr);
      const wrongGrade = await offline("grade-qa", `${directory}/run`, ["--policy-module", changed]);
      assertEquals(wrongGrade.code, 2, wrongGrade.stderr);
      assertStringIncludes(wrongGrade.stderr, `recency2.ts`);
      assertEquals(wrongGrade.stderr.trim().split("\n").length, 1, wrongGrade.stderr);
      const noModule = await offline("grade-qa", `${directory}/run`, []);
      assertEquals(noModule.code, 2, noModule.stderr);
      assertStringIncludes(noModule.stderr, "--policy-module");
      const graded = await offline("grade-qa", `${directory}/run`, ["--policy-module", RECENCY]);
      assertEquals(graded.code, 0, graded.stderr);
      for (const command of ["verify", "report"]) {
        const wrong = await offline(command, `${directory}/run`, ["--policy-module", changed]);
        assertEquals(wrong.code, 2, `${command}: ${wrong.stdout}${wrong.stderr}`);
        assertStringIncludes(wrong.stderr, `expected ${sha}`);
      }
      const caseId =
        JSON.parse((await Deno.readTextFile(`${directory}/run/qa.rows.jsonl`)).split("\n")[0]).case_id;
      const explain = (module: string) =>
        runCli(
          [
            "explain",
            caseId,
            "--dataset",
            FIXTURE_DATASET,
            "--output-dir",
            `${directory}/run`,
            "--policy-module",
            module,
          ]
            .concat(fixtureProtocolFlags()),
          { flags: taskFlags("cli") },
        );
      const explained = await explain(RECENCY);
      assertEquals(explained.code, 0, explained.stderr);
      assertStringIncludes(explained.stdout, "recency");
      const wrongExplain = await explain(changed);
      assertEquals(wrongExplain.code, 2, wrongExplain.stderr);
    });
  } finally {
    await server.close();
  }
});

Deno.test("run-qa --policy-module: a module refused on a case, or a stray --baseline, calls nothing and writes nothing", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const throwing = await runQa(`${directory}/run`, server.url, [
        "--policy-module",
        `${ROOT}tests/fixtures/policies/throws.ts`,
      ]);
      assertEquals(throwing.code, 2, throwing.stderr);
      assertEquals(throwing.stderr.trim().split("\n").length, 1, throwing.stderr);
      assertMatch(
        throwing.stderr,
        /throws\.ts: case \S+ at capacity 7: the policy threw Error: no corrections here at \S+\/throws\.ts:8:13$/m,
      );
      const stray = await runQa(`${directory}/run`, server.url, ["--baseline", "hybrid-v1"]);
      assertEquals(stray.code, 2, stray.stderr);
      assertStringIncludes(stray.stderr, "--baseline");
      const unknown = await runQa(`${directory}/run`, server.url, [
        "--policy-module",
        RECENCY,
        "--baseline",
        "recency",
      ]);
      assertEquals(unknown.code, 2, unknown.stderr);
      assertStringIncludes(unknown.stderr, 'expected one of confidence, hybrid-v1, got "recency"');
      assertEquals(server.requests.length, 0);
      assertEquals([...Deno.readDirSync(directory)].length, 0, "nothing written");
    });
  } finally {
    await server.close();
  }
});
