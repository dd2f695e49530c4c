/**
 * `run-qa`: the resumable answer run. Credentials come only from the two environment variables the config
 * names; the output directory is bound to the protocol by `qa_run.json`; a stored row is reused only when it
 * matches its recomputed task field for field; every success is written at once, atomically, to
 * `responses/<row_id>.json`; at most `workers` calls are in flight; an abort signal stops cleanly. The directory
 * is locked (`run-qa.lock`) for the whole run; a 401 or 403 stops it at once; the key never reaches a row or a
 * message.
 *
 * @module
 */

import type { Contracts } from "../../protocol/mod.ts";
import {
  acquireDirectoryLock,
  compareCodePoints,
  ensureDir,
  type LockHolder,
  moveAside,
  settleJournals,
  writeFileAtomic,
} from "../../base/mod.ts";
import { answerQueue } from "./_answer_pool.ts";
import { checkRunDirectory, planRows, type RowPlan } from "./resume.ts";
import { qaRunMarker } from "../run/run_marker.ts";
import { markerPath, responsesDir, supersededDir, supersededName } from "../run/run_dir.ts";
import type { AnswerTask } from "../run/tasks.ts";
import { readSpend, SpendLedger } from "./spend.ts";
import { reuseAnswers } from "./answer_reuse.ts";

export type { RunEvent, RunQaOptions, RunQaSummary } from "./answer_types.ts";
import type { RunQaOptions, RunQaSummary } from "./answer_types.ts";

/**
 * Runs (or resumes) the answer run in `directory` holding its lock (refusing with a `DirectoryLockedError`
 * naming the holder when another run holds it; taking over a stale one with a warning): writes `qa_run.json` if
 * new, moves stale rows aside to `responses/superseded/`, calls the provider for every task without a reusable
 * row, and writes each answer the moment it arrives. Aborting `signal` stops new calls and cancels those in
 * flight; rows already written stay valid for the next run. A 401 or 403 stops the run the same way and is
 * reported in `credentialsRejected`. The lock is released however the run ends.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { answerTasks } from "./answering.ts";
 * import { buildAnswerTasks } from "../run/tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const tasks = await buildAnswerTasks(contracts, cases.slice(0, 1)); // one case, both policies
 * const provider = () => Promise.resolve({ prediction: "Seven weeks.", responseModel: "m", usage: { total_tokens: 5 } });
 * const options = { provider, retry: { maxAttempts: 1 }, workers: 1, source: { dirty: null, head: null } };
 * const dir = await Deno.makeTempDir();
 * strictEqual((await answerTasks(contracts, tasks, dir, options)).tokens, 10); // an offline provider, called twice
 * strictEqual((await answerTasks(contracts, tasks, dir, options)).reused, 2); // resumed: nothing called
 * ```
 */
export async function answerTasks(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  options: RunQaOptions,
): Promise<RunQaSummary> {
  await checkRunDirectory(directory, contracts, options.candidate);
  await ensureDir(directory, options.publish);
  const lock = await acquireDirectoryLock(directory, "run-qa", LOCKED_ACTION, options.now);
  try {
    if (lock.tookOver !== null) {
      options.onEvent?.({ kind: "warning", message: `${lock.path}: ${takeoverText(lock.tookOver)}` });
    }
    return await runLocked(contracts, tasks, directory, options);
  } finally {
    lock.release();
  }
}

/**
 * {@linkcode answerTasks} for a caller that already holds `directory`'s lock (run 1 of a K-run directory,
 * whose lock is held across the K runs).
 */
export async function answerTasksLocked(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  options: RunQaOptions,
): Promise<RunQaSummary> {
  await checkRunDirectory(directory, contracts, options.candidate);
  await ensureDir(directory, options.publish);
  return await runLocked(contracts, tasks, directory, options);
}

/** What a refusal on a locked directory tells the user to do. */
export const LOCKED_ACTION = "another run-qa is answering into this directory; wait for it to finish";

/** The warning when a stale lock is taken over. */
export function takeoverText(holder: LockHolder): string {
  if (holder.pid === 0) return "taking over a stale lock whose file was unreadable (no process held it)";
  return `taking over a stale lock of ${holder.command} (pid ${holder.pid}, started ${holder.started_at}), which is no longer running`;
}

async function runLocked(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  options: RunQaOptions,
): Promise<RunQaSummary> {
  const now = options.now ?? (() => new Date());
  const { plans, copied } = await prepareDirectory(contracts, tasks, directory, options, now);
  const pending = plans.filter((plan) => plan.state !== "reuse");
  const queue = pending.slice(0, options.limit ?? pending.length);
  // Every attempt is recorded before it is sent; with a budget, the recorded spend of earlier invocations counts.
  const ledger = new SpendLedger(directory, await readSpend(directory), options.budget, options.publish);
  const summary: RunQaSummary = {
    ...emptySummary(),
    reused: plans.length - pending.length,
    leftForLater: pending.length - queue.length,
    ...(options.budget === undefined ? {} : { leftByBudget: 0, spentBefore: ledger.spentBefore }),
    ...(options.reuse === undefined ? {} : { copiedFromRuns: copied }),
  };
  options.onEvent?.({
    kind: "planned",
    total: plans.length,
    reuse: summary.reused,
    toCall: queue.length,
    stale: plans.filter((plan) => plan.state === "stale"),
  });
  await answerQueue(queue, summary, options, now, ledger);
  summary.failed.sort((a, b) => compareCodePoints(a.rowId, b.rowId));
  return summary;
}

/** Writes the marker of a new run, plans every task's row and moves the stale ones aside. */
async function prepareDirectory(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  { source, publish, candidate, reuse, record }: Pick<
    RunQaOptions,
    "source" | "publish" | "candidate" | "reuse" | "record"
  >,
  now: () => Date,
): Promise<{ plans: RowPlan[]; copied: number }> {
  // Checked again under the lock: a run that held it may have just written the marker.
  const state = await checkRunDirectory(directory, contracts, candidate);
  // The marker first: responses/ without it is a directory no run can resume (or a concurrent run refuses).
  if (state === "new") {
    await writeFileAtomic(markerPath(directory), qaRunMarker(contracts, now(), source, candidate), publish);
    if (record !== undefined) await writeFileAtomic(`${directory}/${record.name}`, record.text, publish);
  }
  await ensureDir(responsesDir(directory), publish);
  // A row a SIGKILL stopped mid-publish is settled before planning: completed, it is reused, not called again.
  await settleJournals([], publish, [responsesDir(directory)]);
  const plans = await planRows(directory, tasks);
  const stale = plans.filter((plan) => plan.state === "stale");
  if (stale.length > 0) {
    // Nothing is overwritten: a row that cannot be reused is kept aside, not replaced in place.
    const stamp = now().getTime();
    for (const plan of stale) {
      await moveAside(plan.path, supersededDir(directory), supersededName(plan.task.rowId, stamp), publish);
    }
  }
  if (reuse === undefined) return { plans, copied: 0 };
  return await reuseAnswers(directory, plans, { ...reuse, isNew: state === "new", publish, now });
}

/** A run's summary before anything is planned or called: every count 0, nothing failed or stopped. */
export function emptySummary(): RunQaSummary {
  return {
    reused: 0,
    called: 0,
    failed: [],
    notAttempted: 0,
    interrupted: false,
    tokens: 0,
    credentialsRejected: null,
    responseModels: Object.create(null),
    leftForLater: 0,
  };
}
