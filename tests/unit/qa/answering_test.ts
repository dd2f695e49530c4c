import { DirectoryLockedError } from "../../../lib/base/errors.ts";
import { CallAbortedError, ProviderError } from "../../../lib/qa/answer/errors.ts";
import { IoError } from "../../../lib/base/mod.ts";
import { faultHook } from "../../helpers/faults.ts";
import { acquireDirectoryLock, LOCK_FILE } from "../../../lib/base/lock.ts";
import { responsePath } from "../../../lib/qa/run/run_dir.ts";
import type { AnswerProvider } from "../../../lib/qa/answer/provider.ts";
import { parseAnswerRow } from "../../../lib/qa/run/answer_rows.ts";
import { answerTasks, type RunEvent, type RunQaOptions } from "../../../lib/qa/answer/answering.ts";
import { checkRunDirectory } from "../../../lib/qa/answer/resume.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, fixtureContracts, fixtureTasks } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const tasks = await fixtureTasks(contracts);
/**
 * Fewer tasks where their number is not what a test is about: every row is published (and synced) for real,
 * and 90 of them a test is most of this file's time.
 */
const few = tasks.slice(0, 12);
const SOURCE = { dirty: null, head: null, tool: "test" };

function fakeProvider(
  options: { delayMs?: number; fail?: (user: string) => ProviderError | undefined } = {},
) {
  const state = { calls: 0, inFlight: 0, maxInFlight: 0, users: [] as string[] };
  const provider: AnswerProvider = async (messages, signal) => {
    state.calls++;
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    state.users.push(messages[1].content);
    try {
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 1));
      if (signal?.aborted) throw new CallAbortedError();
      const failure = options.fail?.(messages[1].content);
      if (failure !== undefined) throw failure;
      return { prediction: "INSUFFICIENT", responseModel: "fake", usage: { total_tokens: 10 } };
    } finally {
      state.inFlight--;
    }
  };
  return { provider, state };
}

function options(provider: AnswerProvider, extra: Partial<RunQaOptions> = {}): RunQaOptions {
  return { provider, retry: { maxAttempts: 3, backoffMs: () => 1 }, workers: 3, source: SOURCE, ...extra };
}

Deno.test("a fresh run writes the marker and one valid row per task, at most `workers` calls in flight", async () => {
  await withTempDir(async (directory) => {
    const { provider, state } = fakeProvider({ delayMs: 5 });
    const events: RunEvent[] = [];
    const summary = await answerTasks(
      contracts,
      few,
      `${directory}/run`,
      options(provider, { onEvent: (e) => events.push(e) }),
    );
    assertEquals(
      { ...summary, failed: summary.failed.length, responseModels: { ...summary.responseModels } },
      {
        reused: 0,
        called: 12,
        failed: 0,
        notAttempted: 0,
        interrupted: false,
        tokens: 120,
        credentialsRejected: null,
        responseModels: { fake: 12 },
        leftForLater: 0,
      },
    );
    assertEquals(state.maxInFlight, 3);
    assertEquals(events.filter((event) => event.kind === "answered").length, 12);
    assertEquals([...Deno.readDirSync(`${directory}/run/responses`)].length, 12);
    await checkRunDirectory(`${directory}/run`, contracts);
    for (const task of few) {
      const path = responsePath(`${directory}/run`, task.rowId);
      const row = parseAnswerRow(await Deno.readTextFile(path), path);
      assertEquals(row.request_fingerprint, task.requestFingerprint);
      assertEquals(row.attempts, 1);
    }
    const again = fakeProvider();
    const resumed = await answerTasks(contracts, few, `${directory}/run`, options(again.provider));
    assertEquals([resumed.reused, resumed.called, again.state.calls], [12, 0, 0]);
  });
});

Deno.test("an interrupted run keeps its rows valid and the next run calls only what is missing", async () => {
  await withTempDir(async (directory) => {
    const controller = new AbortController();
    const first = fakeProvider({ delayMs: 5 });
    const some = tasks.slice(0, 30);
    let answered = 0;
    const summary = await answerTasks(
      contracts,
      some,
      directory,
      options(first.provider, {
        signal: controller.signal,
        onEvent: (event) => {
          if (event.kind === "answered" && ++answered === 10) controller.abort();
        },
      }),
    );
    assert(summary.interrupted);
    // Answers that had already arrived when the abort came are kept: they were paid for.
    assert(summary.called >= 10 && summary.called < 20, String(summary.called));
    assertEquals(summary.called + summary.notAttempted, 30);
    const written = new Set([...Deno.readDirSync(`${directory}/responses`)].map((entry) => entry.name));
    assertEquals(written.size, summary.called);
    const second = fakeProvider();
    const calledAgain: string[] = [];
    const resumed = await answerTasks(
      contracts,
      some,
      directory,
      options(second.provider, {
        onEvent: (event) => event.kind === "answered" && calledAgain.push(`${event.rowId}.json`),
      }),
    );
    const left = 30 - summary.called;
    assertEquals([resumed.reused, resumed.called, second.state.calls], [summary.called, left, left]);
    assertEquals(calledAgain.filter((name) => written.has(name)), []);
  });
});

Deno.test("a stale row is moved aside, never overwritten, and called again", async () => {
  await withTempDir(async (directory) => {
    await copyReferenceRun(directory);
    const path = responsePath(directory, tasks[0].rowId);
    const original = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, original.replace(/"capacity": 7/, '"capacity": 5'));
    const { provider, state } = fakeProvider();
    const summary = await answerTasks(contracts, tasks, directory, options(provider));
    assertEquals([summary.reused, summary.called, state.calls], [89, 1, 1]);
    const aside = [...Deno.readDirSync(`${directory}/responses/superseded`)].map((entry) => entry.name);
    assertEquals(aside.length, 1);
    assertMatch(aside[0], new RegExp(`^${tasks[0].rowId}\\.\\d+\\.json$`));
    assertMatch(await Deno.readTextFile(`${directory}/responses/superseded/${aside[0]}`), /"capacity": 5/);
    assertEquals(parseAnswerRow(await Deno.readTextFile(path), path).prediction, "INSUFFICIENT");
  });
});

Deno.test("failed calls are reported with row id and reason; other rows are still written", async () => {
  await withTempDir(async (directory) => {
    const failing = few.slice(0, 3).map((task) => task.messages[1].content);
    const { provider } = fakeProvider({
      fail: (user) =>
        failing.includes(user)
          ? new ProviderError("HTTP 400: no", { retryable: false, status: 400 })
          : undefined,
    });
    const summary = await answerTasks(contracts, few, directory, options(provider));
    assertEquals(summary.failed.length >= 3, true);
    assert(summary.failed.every((failure) => /HTTP 400: no \(1 attempt\)/.test(failure.reason)));
    assertEquals(summary.called + summary.failed.length, 12);
    for (const failure of summary.failed) {
      await assertRejects(() => Deno.stat(responsePath(directory, failure.rowId)), Deno.errors.NotFound);
    }
  });
});

Deno.test("an answer holding a lone surrogate fails its row, naming the field; the other rows are written", async () => {
  await withTempDir(async (directory) => {
    const odd = few[0].messages[1].content;
    const provider: AnswerProvider = (messages) =>
      Promise.resolve({
        prediction: messages[1].content === odd ? "7 weeks\ud800" : "INSUFFICIENT",
        responseModel: "fake",
        usage: { total_tokens: 10 },
      });
    const summary = await answerTasks(contracts, few, directory, options(provider));
    const failing = few.filter((task) => task.messages[1].content === odd).map((task) => task.rowId);
    assertEquals(summary.failed.map((failure) => failure.rowId), failing);
    for (const failure of summary.failed) {
      assertEquals(
        failure.reason,
        "the answer's prediction holds a lone surrogate (1 attempt)",
      );
      await assertRejects(() => Deno.stat(responsePath(directory, failure.rowId)), Deno.errors.NotFound);
    }
    assertEquals(summary.called, 12 - failing.length);
  });
});

Deno.test("failed rows are listed by code point, as Python sorts them: U+FF5E before an astral character", async () => {
  await withTempDir(async (directory) => {
    // UTF-16 order would put U+1F600 (surrogates D83D DE00) before U+FF5E.
    const astral = { ...tasks[0], rowId: "\u{1F600}__confidence" };
    const high = { ...tasks[1], rowId: "\uFF5E__hybrid-v1" };
    const { provider } = fakeProvider({
      fail: () => new ProviderError("HTTP 400: no", { retryable: false, status: 400 }),
    });
    const summary = await answerTasks(
      contracts,
      [astral, high],
      directory,
      options(provider, { workers: 1 }),
    );
    assertEquals(summary.failed.map((failure) => failure.rowId), [high.rowId, astral.rowId]);
  });
});

for (const status of [401, 403]) {
  Deno.test(`a ${status} stops the whole run: nothing more is sent, no row is listed as failed`, async () => {
    await withTempDir(async (directory) => {
      let answered = 0;
      const { provider, state } = fakeProvider({
        delayMs: 2,
        fail: () =>
          answered++ < 10
            ? undefined
            : new ProviderError(`HTTP ${status}: bad key`, { retryable: false, status }),
      });
      const events: RunEvent[] = [];
      const some = tasks.slice(0, 30);
      const summary = await answerTasks(
        contracts,
        some,
        directory,
        options(provider, { onEvent: (e) => events.push(e) }),
      );
      assertEquals(summary.credentialsRejected?.reason, `HTTP ${status}: bad key`);
      assert(some.some((task) => task.rowId === summary.credentialsRejected?.rowId));
      assertEquals(summary.failed, []);
      assert(summary.called >= 7 && summary.called <= 10, String(summary.called));
      assert(
        state.calls <= 10 + 3,
        `${state.calls} calls: only those already in flight may follow the first ${status}`,
      );
      assertEquals(summary.called + summary.notAttempted, 30);
      assertEquals(summary.interrupted, false);
      assertEquals(events.filter((event) => event.kind === "failed"), []);
      const rows = [...Deno.readDirSync(`${directory}/responses`)].length;
      assertEquals(rows, summary.called);
    });
  });
}

Deno.test("the key in an answer or a failure is stored and reported as [redacted], with a warning naming the row", async () => {
  await withTempDir(async (directory) => {
    const secret = "sk-runner-secret-99";
    // Three tasks whose prompts no other task shares, so the provider can tell them apart.
    const chosen = tasks.filter((task) =>
      tasks.filter((other) => other.messages[1].content === task.messages[1].content).length === 1
    ).slice(0, 3);
    const leaky = chosen[0].messages[1].content;
    const failing = chosen[1].messages[1].content;
    const provider: AnswerProvider = (messages) => {
      if (messages[1].content === failing) {
        return Promise.reject(
          new ProviderError(`HTTP 400: bad ${secret}`, { retryable: false, status: 400 }),
        );
      }
      const prediction = messages[1].content === leaky ? `it is ${secret}` : "7";
      return Promise.resolve({ prediction, responseModel: `m-${secret}`, usage: { total_tokens: 1 } });
    };
    const events: RunEvent[] = [];
    const summary = await answerTasks(
      contracts,
      chosen,
      directory,
      options(provider, { secret, onEvent: (e) => events.push(e) }),
    );
    assertEquals(summary.failed, [{
      rowId: chosen[1].rowId,
      reason: "HTTP 400: bad [redacted] (1 attempt)",
    }]);
    const text = await Deno.readTextFile(responsePath(directory, chosen[0].rowId));
    assert(!text.includes(secret), text);
    assertEquals(parseAnswerRow(text, "row").prediction, "it is [redacted]");
    const warnings = events.filter((event) => event.kind === "warning").map((event) => event.message).sort();
    assertEquals(
      warnings,
      [
        `${
          chosen[0].rowId
        }: the answer contained the API key; stored with [redacted] in its place (prediction, response_model)`,
        `${chosen[1].rowId}: the failure reason contained the API key; reported with [redacted] in its place`,
        `${
          chosen[2].rowId
        }: the answer contained the API key; stored with [redacted] in its place (response_model)`,
      ].sort(),
    );
    for await (const entry of Deno.readDir(`${directory}/responses`)) {
      assert(!(await Deno.readTextFile(`${directory}/responses/${entry.name}`)).includes(secret), entry.name);
    }
  });
});

Deno.test("answerTasks takes the directory's lock: a held lock refuses before any call or write, and it is released after", async () => {
  await withTempDir(async (directory) => {
    const lock = await acquireDirectoryLock(directory, "run-qa", "wait");
    const { provider, state } = fakeProvider();
    try {
      const error = await assertRejects(
        () => answerTasks(contracts, few, directory, options(provider)),
        DirectoryLockedError,
      );
      assertMatch(error.message, new RegExp(`locked by run-qa \\(pid ${Deno.pid}, started `));
    } finally {
      lock.release();
    }
    assertEquals(state.calls, 0);
    assertEquals([...Deno.readDirSync(directory)], [], "no marker, no responses/");
    const fatal: AnswerProvider = () => Promise.reject(new Error("disk on fire"));
    await assertRejects(
      () => answerTasks(contracts, few, directory, options(fatal)),
      Error,
      "disk on fire",
    );
    assertEquals(await Deno.stat(`${directory}/${LOCK_FILE}`).catch(() => null), null, "released on failure");
    await answerTasks(contracts, few, directory, options(provider));
    assertEquals(await Deno.stat(`${directory}/${LOCK_FILE}`).catch(() => null), null, "released at the end");
  });
});

Deno.test("two runs at once on one directory: one refuses, and 30 rows take 30 calls", async () => {
  await withTempDir(async (directory) => {
    // The run outlasts the second run's patience with a held lock (a moment, in case it is being taken over):
    // 30 calls of 60 ms on 3 workers, as long as 90 of 20 ms.
    const { provider, state } = fakeProvider({ delayMs: 60 });
    const some = tasks.slice(0, 30);
    const results = await Promise.allSettled([
      answerTasks(contracts, some, directory, options(provider)),
      answerTasks(contracts, some, directory, options(provider)),
    ]);
    const refused = results.filter((result) => result.status === "rejected");
    assertEquals(refused.length, 1);
    const reason = (refused[0] as PromiseRejectedResult).reason;
    assert(reason instanceof DirectoryLockedError, String(reason?.stack ?? reason));
    assertEquals(state.calls, 30);
    assertEquals([...Deno.readDirSync(`${directory}/responses`)].length, 30);
  });
});

Deno.test("a run that fails writing its marker leaves no responses/ behind, so the rerun just works", async () => {
  // responses/ without qa_run.json is refused as a foreign directory: the marker must come first.
  await withTempDir(async (directory) => {
    const { provider, state } = fakeProvider();
    const publish = { beforeOperation: faultHook([{ operation: "write", nth: 1 }]) };
    await assertRejects(
      () => answerTasks(contracts, few, directory, { ...options(provider), publish }),
      IoError,
    );
    assertEquals(state.calls, 0);
    const summary = await answerTasks(contracts, few, directory, options(provider));
    assertEquals(summary.called, 12);
  });
});

Deno.test("a stale lock is taken over with a warning naming its dead holder", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(
      `${directory}/${LOCK_FILE}`,
      JSON.stringify({ command: "run-qa", pid: 424242, started_at: "2026-11-29T00:00:00.000Z" }),
    );
    const events: RunEvent[] = [];
    const { provider } = fakeProvider();
    const summary = await answerTasks(
      contracts,
      few,
      directory,
      options(provider, { onEvent: (e) => events.push(e) }),
    );
    assertEquals(summary.called, 12);
    const warnings = events.filter((event) => event.kind === "warning").map((event) => event.message);
    assertEquals(warnings, [
      `${directory}/${LOCK_FILE}: taking over a stale lock of run-qa (pid 424242, started 2026-11-29T00:00:00.000Z), which is no longer running`,
    ]);
  });
});
