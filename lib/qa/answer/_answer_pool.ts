/**
 * The answer run's worker pool: at most `workers` calls in flight, each success written at once, each failure
 * told apart (interrupted, given up, credentials refused, or a bug that stops the run).
 *
 * @module
 */

import { RowIntegrityError, writeFileAtomic } from "../../base/mod.ts";
import { AnswerFailedError, BudgetExceededError, CallAbortedError, ProviderError } from "./errors.ts";
import { createdAtStamp } from "../../py/mod.ts";
import { type AnswerRow, answerRow, answerRowJson } from "../run/answer_rows.ts";
import type { RunQaOptions, RunQaSummary } from "./answer_types.ts";
import { redact, redactAnswer, usageHoldsSecret } from "./redact.ts";
import type { RowPlan } from "./resume.ts";
import { answerWithRetries } from "./retry.ts";
import { estimatePromptTokens } from "./cost.ts";
import type { SpendLedger } from "./spend.ts";
import type { AnswerTask } from "../run/tasks.ts";

/** What the workers share: the queue and how far it has gone, the stop switch, and the summary they fill. */
interface Pool {
  queue: readonly RowPlan[];
  next: number;
  done: number;
  fatal: unknown;
  stop: AbortController;
  summary: RunQaSummary;
  options: RunQaOptions;
  now: () => Date;
  secret: string;
  /** Every attempt is recorded here before it is sent (and refused when it would pass the budget). */
  ledger?: SpendLedger;
  /** An attempt did not fit the budget: no new task is started. */
  budgetReached: boolean;
}

/**
 * Calls the provider for every planned row in `queue` and fills `summary`. Aborting `options.signal` stops new
 * calls and cancels those in flight; an unexpected error stops the run the same way and is rethrown. With a
 * `ledger`, an attempt that would pass the budget is not made: its task and every task not started are left
 * for the next run (`leftByBudget`).
 */
export async function answerQueue(
  queue: readonly RowPlan[],
  summary: RunQaSummary,
  options: RunQaOptions,
  now: () => Date,
  ledger?: SpendLedger,
): Promise<void> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) stop.abort();
  const pool: Pool = {
    queue,
    next: 0,
    done: 0,
    fatal: undefined,
    stop,
    summary,
    options,
    now,
    secret: options.secret ?? "",
    ledger,
    budgetReached: false,
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.workers, queue.length) }, () => worker(pool)));
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  if (pool.fatal !== undefined) throw pool.fatal;
  if (pool.budgetReached) summary.leftByBudget = (summary.leftByBudget ?? 0) + queue.length - pool.next;
  else summary.notAttempted += queue.length - pool.next;
  summary.interrupted = options.signal?.aborted ?? false;
}

async function worker(pool: Pool): Promise<void> {
  while (!pool.stop.signal.aborted && !pool.budgetReached && pool.next < pool.queue.length) {
    const { task, path } = pool.queue[pool.next++];
    try {
      await answerOne(pool, task, path);
    } catch (error) {
      recordFailure(pool, task, error);
    }
  }
}

function totalTokens(usage: Record<string, number>): number {
  return usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
}

/** One task called (with retries), its answer redacted and written to its row file. */
async function answerOne(pool: Pool, task: AnswerTask, path: string): Promise<void> {
  const { options, summary } = pool;
  const ledger = pool.ledger;
  const promptTokens = ledger === undefined ? 0 : estimatePromptTokens(task.messages);
  const { answer: received, attempts } = await answerWithRetries(
    options.provider,
    task.messages,
    options.retry,
    pool.stop.signal,
    ledger === undefined
      ? undefined
      : () => pool.budgetReached ? Promise.resolve(false) : ledger.reserve(promptTokens),
  );
  if (usageHoldsSecret(received.usage, pool.secret)) {
    const cause = new ProviderError(
      "the usage field names contain the API key, so the answer is not stored",
      {
        retryable: false,
      },
    );
    throw new AnswerFailedError(cause, attempts);
  }
  const { answer, fields } = redactAnswer(received, pool.secret);
  if (fields.length > 0) {
    options.onEvent?.({
      kind: "warning",
      rowId: task.rowId,
      message: `${task.rowId}: the answer contained the API key; stored with [redacted] in its place (${
        fields.join(", ")
      })`,
    });
  }
  const row = rowText(answerRow(task, answer, attempts, createdAtStamp(pool.now())), attempts);
  await writeFileAtomic(path, row, pool.options.publish);
  summary.called++;
  if (answer.responseModel !== null) {
    summary.responseModels[answer.responseModel] = (summary.responseModels[answer.responseModel] ?? 0) + 1;
  }
  const tokens = totalTokens(answer.usage);
  summary.tokens += tokens;
  options.onEvent?.({
    kind: "answered",
    rowId: task.rowId,
    attempts,
    tokens,
    done: ++pool.done,
    toCall: pool.queue.length,
  });
}

/** The row's file text; an answer no UTF-8 file can hold (a lone surrogate) fails this row alone. */
function rowText(row: AnswerRow, attempts: number): string {
  try {
    return answerRowJson(row);
  } catch (error) {
    if (!(error instanceof RowIntegrityError)) throw error;
    const cause = new ProviderError(
      `the answer's ${error.field} holds a lone surrogate`,
      { retryable: false },
    );
    throw new AnswerFailedError(cause, attempts);
  }
}

/** A task that did not get its row: counted, reported, or (not a provider's failure) the end of the run. */
function recordFailure(pool: Pool, task: AnswerTask, error: unknown): void {
  const { options, summary } = pool;
  if (error instanceof CallAbortedError) {
    summary.notAttempted++;
    return;
  }
  if (error instanceof BudgetExceededError) {
    pool.budgetReached = true;
    summary.leftByBudget = (summary.leftByBudget ?? 0) + 1;
    return;
  }
  if (!(error instanceof AnswerFailedError)) {
    pool.fatal ??= error;
    pool.stop.abort();
    return;
  }
  const reason = redact(error.message, pool.secret);
  if (reason !== error.message) {
    options.onEvent?.({
      kind: "warning",
      rowId: task.rowId,
      message:
        `${task.rowId}: the failure reason contained the API key; reported with [redacted] in its place`,
    });
  }
  const status = (error.cause as ProviderError | undefined)?.status;
  if (status === 401 || status === 403) {
    // The key is refused for one call, so for every call: sending the rest would only repeat it.
    const cause = redact((error.cause as ProviderError).message, pool.secret);
    summary.credentialsRejected ??= { rowId: task.rowId, reason: cause };
    summary.notAttempted++;
    pool.stop.abort();
    return;
  }
  if ((error.cause as ProviderError | undefined)?.unreachable === true && summary.called === 0) {
    // Every attempt of the first calls found no server: the rest would only wait out the same retries.
    summary.unreachable ??= { rowId: task.rowId, reason };
    summary.notAttempted++;
    pool.stop.abort();
    return;
  }
  summary.failed.push({ rowId: task.rowId, reason });
  options.onEvent?.({
    kind: "failed",
    rowId: task.rowId,
    reason,
    done: ++pool.done,
    toCall: pool.queue.length,
  });
}
