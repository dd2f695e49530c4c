/**
 * The small lies of issue 22, through the CLI with the tasks' permission flags: a key no header can carry is
 * refused before any call; a `__proto__` usage key is kept from the answer to qa.rows.jsonl; a YAML tag safe_load
 * cannot construct is one line, never a second warning.
 */

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { completion, startAnswerServer } from "../../helpers/answer_server.ts";
import { fixtureProtocolFlags, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, FIXTURE_PROTOCOL } from "../../helpers/fixture.ts";

const RUN_QA = taskFlags("run-qa");
const OFFLINE = taskFlags("cli");
const ROW = "05fdf179__confidence";

function qaArgs(command: "run-qa" | "grade-qa", run: string): string[] {
  return [command, "--dataset", FIXTURE_DATASET, "--output-dir", run, ...fixtureProtocolFlags()];
}

Deno.test("an API key a header cannot carry is refused before any call: one line naming the variable, exit 2", async () => {
  const server = startAnswerServer(() => completion("7"));
  try {
    for (const key of ["sk-line\nbreak", "sk-кириллица", "sk-del\x7f"]) {
      await withTempDir(async (directory) => {
        const result = await runCli(qaArgs("run-qa", `${directory}/run`), {
          flags: RUN_QA,
          env: { DEERMEM_EVAL_ANSWER_API_KEY: key, DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
        });
        assertEquals([result.code, result.stdout], [2, ""], result.stderr);
        assertEquals(
          result.stderr,
          "deermem-eval run-qa: environment variable DEERMEM_EVAL_ANSWER_API_KEY (the config's qa.api_key_env) " +
            "holds a character an HTTP header cannot carry (a control character or one beyond ASCII)\n",
        );
        assert(!(await Deno.lstat(`${directory}/run`).then(() => true, () => false)), "nothing is written");
      });
    }
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("a usage key named __proto__ is kept: in the answer row run-qa writes and in grade-qa's qa.rows.jsonl", async () => {
  // Parsed, not an object literal: a literal `__proto__` key sets the prototype instead of making a key.
  const usage = JSON.parse('{"__proto__": 7, "constructor": 1, "total_tokens": 12}');
  const server = startAnswerServer(() => completion("7", { usage }));
  try {
    await withTempDir(async (directory) => {
      const run = `${directory}/run`;
      const answered = await runCli(qaArgs("run-qa", run), {
        flags: RUN_QA,
        env: { DEERMEM_EVAL_ANSWER_API_KEY: "sk-usage", DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
      });
      assertEquals(answered.code, 0, answered.stderr);
      const row = await Deno.readTextFile(`${run}/responses/${ROW}.json`);
      assertStringIncludes(
        row,
        '"usage": {\n    "__proto__": 7,\n    "constructor": 1,\n    "total_tokens": 12\n  }',
      );
    });
  } finally {
    await server.close();
  }
  await withTempDir(async (directory) => {
    const run = `${directory}/run`;
    await Deno.mkdir(run);
    await copyReferenceRun(run);
    const path = `${run}/responses/${ROW}.json`;
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, text.replace('"usage": {', '"usage": {\n    "__proto__": 7,'));
    const graded = await runCli(qaArgs("grade-qa", run), { flags: OFFLINE });
    assertEquals(graded.code, 0, graded.stderr);
    const line = (await Deno.readTextFile(`${run}/qa.rows.jsonl`)).split("\n").find((line) =>
      line.includes(ROW)
    )!;
    assertMatch(line, /"usage": \{"__proto__": 7, "completion_tokens": /);
    const verified = await runCli(["verify", run, ...fixtureProtocolFlags()], { flags: OFFLINE });
    assertEquals(verified.code, 0, `${verified.stdout}${verified.stderr}`);
  });
});

Deno.test("a YAML python tag is refused in one line, as PyYAML's safe_load refuses it: no second warning line", async () => {
  await withTempDir(async (directory) => {
    const config = `${directory}/config.yaml`;
    const text = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
    await Deno.writeTextFile(
      config,
      text.replace(/^ {2}model: .*$/m, "  model: !!python/object:os.system x"),
    );
    const protocol = fixtureProtocolFlags();
    protocol[protocol.indexOf("--config") + 1] = config;
    const args = ["validate-contracts", ...protocol];
    const result = await runCli(args, { flags: OFFLINE });
    assertEquals([result.code, result.stdout], [2, ""], result.stderr);
    assertMatch(
      result.stderr,
      /^deermem-eval validate-contracts: \S+config\.yaml: not valid YAML: could not determine a constructor for the tag 'tag:yaml\.org,2002:python\/object:os\.system' \(line \d+, column 10\)\n$/,
    );
  });
});
