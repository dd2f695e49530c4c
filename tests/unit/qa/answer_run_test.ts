/**
 * run-qa's work as the qa layer's three concepts: who answers (`answererFor`), what a dry run would do
 * (`dryRunPlan`), and answering the K runs (`answerRun`) with the stand-in served on 127.0.0.1 while it lasts.
 */
import { answererFor, answerRun, dryRunPlan, type RunStart } from "../../../lib/qa/answer/answer_run.ts";
import { costLines } from "../../../lib/qa/answer/cost.ts";
import { epochDryRunLines } from "../../../lib/qa/answer/epoch_runs.ts";
import { InputError } from "../../../lib/base/errors.ts";
import { STAND_IN_MODEL } from "../../../lib/protocol/demo.ts";
import { assert, assertEquals, assertRejects, assertThrows } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts, fixtureTasks } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const tasks = await fixtureTasks(contracts);
const SOURCE = { dirty: null, head: null, tool: "test" };
const PRICES = { input: 0.27, output: 1.1 };
const { api_key_env: KEY, base_url_env: URL_VAR } = contracts.config.qa;

Deno.test("answererFor: the stand-in and a dry run read no variable; an endpoint is the two the config names", () => {
  const untouched = (name: string): string => {
    throw new Error(`read ${name}`);
  };
  assertEquals(answererFor(contracts, { standIn: true, dryRun: false, env: untouched }), {
    kind: "stand-in",
  });
  assertEquals(answererFor(contracts, { standIn: false, dryRun: true, env: untouched }), undefined);
  const env: Record<string, string> = { [KEY]: "sk-test-key-1234", [URL_VAR]: "https://llm.test/v1" };
  assertEquals(answererFor(contracts, { standIn: false, dryRun: false, env: (name) => env[name] }), {
    kind: "endpoint",
    apiKey: "sk-test-key-1234",
    baseUrl: "https://llm.test/v1",
  });
  const refused = assertThrows(
    () => answererFor(contracts, { standIn: false, dryRun: false, env: () => undefined }),
    InputError,
  );
  assertEquals(refused.message.includes(KEY) && refused.message.includes(URL_VAR), true, refused.message);
});

Deno.test("dryRunPlan: each run's task lines and the estimate of every call, counted independently", async () => {
  const refuse = (): string => {
    throw new Error("no source named: the base URL is not read");
  };
  const reuse = { directories: [], ungraded: false, warn: () => {}, prove: refuse as never, baseUrl: refuse };
  for (const epochs of [1, 3]) {
    const plan = await dryRunPlan({ contracts, tasks, epochs }, {
      directory: undefined,
      prices: PRICES,
      maxCostUsd: 0.05,
      reuse,
    });
    const runs = Array.from({ length: epochs }, () => undefined);
    assertEquals(plan.lines, epochDryRunLines(tasks, runs));
    const everyCall = runs.flatMap(() => tasks);
    assertEquals(plan.estimate, costLines(everyCall, contracts.config.qa.max_tokens, PRICES, 0.05, 0));
    assert(
      plan.estimate.some((line) => line.includes(`for ${90 * epochs} call(s)`)),
      plan.estimate.join("\n"),
    );
  }
});

Deno.test("answerRun: the stand-in answers every task, tells its start once, and is refused beside a model's rows", async () => {
  await withTempDir(async (directory) => {
    const few = tasks.slice(0, 4);
    const starts: RunStart[] = [];
    const stage = { contracts, tasks: few, epochs: 1, directory };
    const summary = await answerRun(stage, { kind: "stand-in" }, {
      source: SOURCE,
      onStart: (start) => starts.push(start),
    });
    assertEquals([summary.called, summary.reused], [4, 0]);
    assertEquals(starts.length, 1);
    assertEquals(starts[0].host.startsWith("127.0.0.1:"), true, starts[0].host);
    assertEquals(starts[0].model, `the stand-in answerer ${STAND_IN_MODEL} (not a language model)`);
    for (const task of few) {
      const row = JSON.parse(await Deno.readTextFile(`${directory}/responses/${task.rowId}.json`));
      assertEquals(row.response_model, STAND_IN_MODEL);
    }
    // An endpoint's run into the same directory is refused before anything starts (no call, no onStart).
    const endpoint = {
      kind: "endpoint" as const,
      apiKey: "sk-test-key-1234",
      baseUrl: "http://127.0.0.1:9/v1",
    };
    await assertRejects(
      () => answerRun(stage, endpoint, { source: SOURCE, onStart: (start) => starts.push(start) }),
      InputError,
      `holds 4 answer(s) from the stand-in ${STAND_IN_MODEL}`,
    );
    assertEquals(starts.length, 1);
  });
});
