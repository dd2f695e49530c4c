/**
 * `--max-cost` bounds the run, not the invocation: every attempt (a retry, a call that timed out after the
 * server answered) is counted against the budget before it is made, and the spend recorded in the run
 * directory counts on every rerun. Usage a server reports outside sane bounds fails its row, never priced.
 */

import { ProviderError } from "../../../lib/qa/answer/errors.ts";
import type { AnswerProvider } from "../../../lib/qa/answer/provider.ts";
import { answerTasks, type RunQaOptions } from "../../../lib/qa/answer/answering.ts";
import { answerFromBody } from "../../../lib/qa/answer/chat_completions.ts";
import { assertEquals, assertStringIncludes, assertThrows } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts, fixtureTasks } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const tasks = await fixtureTasks(contracts);
const SOURCE = { dirty: null, head: null, tool: "test" };
const MAX_TOKENS = contracts.config.qa.max_tokens;
// Prompt tokens free, completion at $1 a million: a call's worst case is exactly max_tokens millionths.
const PRICES = { input: 0, output: 1 };
const budget = (calls: number) => ({
  maxCostUsd: (calls + 0.5) * MAX_TOKENS / 1e6,
  prices: PRICES,
  maxTokens: MAX_TOKENS,
});

function provider(fail: (attempt: number) => ProviderError | undefined = () => undefined) {
  const state = { calls: 0 };
  const call: AnswerProvider = () => {
    state.calls++;
    const failure = fail(state.calls);
    if (failure !== undefined) return Promise.reject(failure);
    return Promise.resolve({
      prediction: "INSUFFICIENT",
      responseModel: "fake",
      usage: { total_tokens: 10 },
    });
  };
  return { call, state };
}

function options(call: AnswerProvider, extra: Partial<RunQaOptions>): RunQaOptions {
  return {
    provider: call,
    retry: { maxAttempts: 3, backoffMs: () => 1 },
    workers: 3,
    source: SOURCE,
    ...extra,
  };
}

Deno.test("--max-cost is the run's total: a rerun with the same budget calls nothing more", async () => {
  await withTempDir(async (directory) => {
    const { call, state } = provider();
    const first = await answerTasks(contracts, tasks, directory, options(call, { budget: budget(8) }));
    assertEquals([first.called, first.leftByBudget, state.calls], [8, 82, 8]);
    const again = await answerTasks(contracts, tasks, directory, options(call, { budget: budget(8) }));
    assertEquals([again.called, again.leftByBudget, again.reused, state.calls], [0, 82, 8, 8]);
    assertEquals(again.spentBefore, 8 * MAX_TOKENS / 1e6);
    // A larger budget for the run answers as many more as the difference allows.
    const more = await answerTasks(contracts, tasks, directory, options(call, { budget: budget(11) }));
    assertEquals([more.called, state.calls], [3, 11]);
  });
});

Deno.test("--max-cost counts every attempt before it is made: retries after a 500 stay within the budget", async () => {
  await withTempDir(async (directory) => {
    const { call, state } = provider(() => new ProviderError("HTTP 500", { retryable: true, status: 500 }));
    const summary = await answerTasks(contracts, tasks, directory, options(call, { budget: budget(3) }));
    assertEquals(state.calls, 3);
    assertEquals(summary.called, 0);
    assertEquals(summary.leftByBudget, 90);
  });
});

Deno.test("--max-cost counts attempts that failed after the server answered (timeouts) the same way", async () => {
  await withTempDir(async (directory) => {
    const { call, state } = provider((n) =>
      n % 2 === 1 ? new ProviderError("timed out after 60 s", { retryable: true }) : undefined
    );
    const summary = await answerTasks(
      contracts,
      tasks,
      directory,
      options(call, { budget: budget(6), workers: 1 }),
    );
    assertEquals(state.calls, 6);
    assertEquals(summary.called, 3);
  });
});

Deno.test("usage outside sane bounds (negative, 10^12 or more) is bad server output: the row fails, nothing is priced", () => {
  for (const usage of [{ prompt_tokens: -900000000 }, { completion_tokens: 1e15 }, { total_tokens: 1e12 }]) {
    const error = assertThrows(
      () => answerFromBody({ choices: [{ message: { content: "7" } }], usage }),
      ProviderError,
    );
    assertEquals(error.retryable, false);
    assertStringIncludes(error.message, `usage.${Object.keys(usage)[0]}`);
    assertStringIncludes(error.message, "outside 0 to 10^12");
  }
  const kept = answerFromBody({
    choices: [{ message: { content: "7" } }],
    usage: { total_tokens: 999_999_999_999 },
  });
  assertEquals(kept.usage, { total_tokens: 999_999_999_999 });
});
