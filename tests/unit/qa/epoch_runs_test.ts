import type { AnswerProvider } from "../../../lib/qa/answer/provider.ts";
import { answerTasks, type RunQaOptions } from "../../../lib/qa/answer/answering.ts";
import type { RunEvent } from "../../../lib/qa/answer/answer_types.ts";
import { answerEpochs, type EpochRunOptions } from "../../../lib/qa/answer/epoch_runs.ts";
import { acquireDirectoryLock } from "../../../lib/base/lock.ts";
import { DirectoryLockedError } from "../../../lib/base/errors.ts";
import { callCostUsd, estimatePromptTokens } from "../../../lib/qa/answer/cost.ts";
import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts, fixtureTasks } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
/**
 * Eight of the fixture's 90 tasks: what these tests count is runs and calls across them, not tasks, and every
 * row is published (and synced) for real, K times.
 */
const tasks = (await fixtureTasks(contracts)).slice(0, 8);
const SOURCE = { dirty: null, head: null, tool: "test" };
const NOW = () => new Date("2026-12-06T12:00:00Z");

/** Answers with the run number it was made for, counting calls per run. */
function providers() {
  const calls = new Map<number, number>();
  const providerFor = (run: number): AnswerProvider => () => {
    calls.set(run, (calls.get(run) ?? 0) + 1);
    return Promise.resolve({ prediction: `run ${run}`, responseModel: "fake", usage: { total_tokens: 1 } });
  };
  return { providerFor, calls };
}

function epochOptions(extra: Partial<EpochRunOptions> = {}): EpochRunOptions {
  return {
    providerFor: providers().providerFor,
    retry: { maxAttempts: 1 },
    workers: 2,
    source: SOURCE,
    now: NOW,
    ...extra,
  };
}

async function tree(directory: string, prefix = ""): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(`${directory}/${prefix}`)) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory) {
      for (const [key, value] of await tree(directory, `${name}/`)) files.set(key, value);
    } else files.set(name, await Deno.readTextFile(`${directory}/${name}`));
  }
  return files;
}

Deno.test("--epochs 1 writes the same bytes as a plain run", async () => {
  await withTempDir(async (directory) => {
    const plain: RunQaOptions = {
      provider: providers().providerFor(1),
      retry: { maxAttempts: 1 },
      workers: 2,
      source: SOURCE,
      now: NOW,
    };
    await answerTasks(contracts, tasks, `${directory}/plain`, plain);
    await answerEpochs(contracts, tasks, `${directory}/one`, 1, epochOptions());
    const [a, b] = [await tree(`${directory}/plain`), await tree(`${directory}/one`)];
    assertEquals(a.size, 10); // the marker, 8 rows and the spend ledger
    // Two workers append to the ledger in the order their calls start: the same attempts, in any order.
    const ledger = (files: Map<string, string>) => files.get("spend.jsonl")!.split("\n").sort();
    assertEquals(ledger(b), ledger(a));
    a.delete("spend.jsonl");
    b.delete("spend.jsonl");
    assertEquals(b, a);
  });
});

Deno.test("K runs: run 1 in DIR, run r in DIR/epoch-r, each complete; resumed, nothing is called", async () => {
  await withTempDir(async (directory) => {
    const { providerFor, calls } = providers();
    const summary = await answerEpochs(contracts, tasks, directory, 3, epochOptions({ providerFor }));
    assertEquals([summary.called, summary.reused], [24, 0]);
    assertEquals([...calls.entries()].sort(), [[1, 8], [2, 8], [3, 8]]);
    const files = await tree(directory);
    for (const run of ["", "epoch-2/", "epoch-3/"]) {
      assert(files.has(`${run}qa_run.json`), run);
      assertEquals([...files.keys()].filter((name) => name.startsWith(`${run}responses/`)).length, 8);
    }
    const row = JSON.parse(files.get("epoch-3/responses/" + tasks[0].rowId + ".json")!);
    assertEquals(row.prediction, "run 3");
    const again = await answerEpochs(contracts, tasks, directory, 3, epochOptions());
    assertEquals([again.called, again.reused], [0, 24]);
    await assertRejects(
      () => answerEpochs(contracts, tasks, directory, 2, epochOptions()),
      Error,
      "holds 3 runs",
    );
  });
});

Deno.test("--limit counts the K runs' calls in run order; the same command resumes the rest", async () => {
  await withTempDir(async (directory) => {
    // All of run 1 and the first 2 of run 2.
    const first = await answerEpochs(contracts, tasks, directory, 3, epochOptions({ limit: 10 }));
    assertEquals([first.called, first.leftForLater], [10, 14]);
    assertEquals((await tree(`${directory}/epoch-2`)).size, 4); // marker + 2 rows + spend ledger
    const rest = await answerEpochs(contracts, tasks, directory, 3, epochOptions());
    assertEquals([rest.called, rest.reused], [14, 10]);
  });
});

Deno.test("--max-cost counts the K runs' worst cases together", async () => {
  await withTempDir(async (directory) => {
    const prices = { input: 1, output: 0 };
    const worst = tasks.map((task) => callCostUsd(estimatePromptTokens(task.messages), 0, prices));
    // Enough for all of run 1 and the first 5 of run 2.
    const maxCostUsd = worst.reduce((a, b) => a + b, 0) + worst.slice(0, 5).reduce((a, b) => a + b, 0);
    const budget = { maxCostUsd, prices, maxTokens: 0 };
    const stopped = await answerEpochs(contracts, tasks, directory, 3, epochOptions({ budget }));
    assertEquals([stopped.called, stopped.leftByBudget], [13, 11]);
  });
});

Deno.test("the lock on DIR is held across the K runs; a stop ends them all", async () => {
  await withTempDir(async (directory) => {
    const lock = await acquireDirectoryLock(directory, "run-qa", "wait");
    try {
      await assertRejects(
        () => answerEpochs(contracts, tasks, directory, 2, epochOptions()),
        DirectoryLockedError,
      );
    } finally {
      lock.release();
    }
    const interrupt = new AbortController();
    interrupt.abort();
    const stopped = await answerEpochs(
      contracts,
      tasks,
      directory,
      3,
      epochOptions({ signal: interrupt.signal }),
    );
    assertEquals([stopped.interrupted, stopped.called, stopped.notAttempted], [true, 0, 24]);
  });
});

Deno.test("Ctrl-C in run 2 stops it and run 3 is not started; the same command resumes all three", async () => {
  await withTempDir(async (directory) => {
    const interrupt = new AbortController();
    let calls = 0;
    const providerFor = (run: number): AnswerProvider => () => {
      if (run === 2 && ++calls === 4) interrupt.abort();
      return Promise.resolve({ prediction: `run ${run}`, responseModel: "fake", usage: {} });
    };
    const stopped = await answerEpochs(
      contracts,
      tasks,
      directory,
      3,
      epochOptions({ providerFor, workers: 1, signal: interrupt.signal }),
    );
    assert(stopped.interrupted);
    assert(stopped.called >= 8 + 3 && stopped.called < 16, `${stopped.called} called`);
    assertEquals(stopped.called + stopped.notAttempted, 24);
    assertEquals(await Deno.stat(`${directory}/epoch-3`).then(() => true, () => false), false);
    const resumed = await answerEpochs(contracts, tasks, directory, 3, epochOptions());
    assertEquals([resumed.reused, resumed.called], [stopped.called, 24 - stopped.called]);
  });
});

Deno.test("with K > 1 each run's events name their run (r of K); K = 1's carry no run", async () => {
  await withTempDir(async (directory) => {
    const few = tasks.slice(0, 4); // fewer still: the events, not the rows, are the point
    const seen: RunEvent[] = [];
    const onEvent = (event: RunEvent) => seen.push(event);
    await answerEpochs(contracts, few, `${directory}/three`, 3, epochOptions({ onEvent, workers: 1 }));
    const planned = seen.filter((event) => event.kind === "planned");
    assertEquals(planned.map((event) => event.epoch), [{ run: 1, of: 3 }, { run: 2, of: 3 }, {
      run: 3,
      of: 3,
    }]);
    const answered = seen.filter((event) => event.kind === "answered");
    assertEquals(answered.map((event) => event.epoch?.run), [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    seen.length = 0;
    await answerEpochs(contracts, few, `${directory}/one`, 1, epochOptions({ onEvent }));
    assertEquals(seen.length, 5); // planned, then four answered
    assertEquals(seen.filter((event) => "epoch" in event), []);
  });
});
