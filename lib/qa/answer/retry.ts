/**
 * Our retry policy around an {@linkcode AnswerProvider}: retry on 429, 5xx, network errors and timeouts with a
 * back-off, fail at once on anything else.
 *
 * @module
 */

import { AnswerFailedError, BudgetExceededError, CallAbortedError, ProviderError } from "./errors.ts";
import type { ChatMessage } from "../run/prompt.ts";
import type { Answer } from "../run/answer_rows.ts";
import type { AnswerProvider } from "./provider.ts";

/** Our retry policy. */
export interface RetryPolicy {
  /** Attempts in all, the first included (the config's `max_attempts`). */
  maxAttempts: number;
  /** The wait before attempt `n + 1` after `n` failed attempts, in milliseconds. */
  backoffMs?: (failedAttempts: number, retryAfterSeconds?: number) => number;
}

/**
 * The default back-off: 0.5 s, 1 s, 2 s … capped at 8 s; a server's `Retry-After` (up to 30 s) wins.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { defaultBackoffMs } from "./retry.ts";
 * deepStrictEqual([defaultBackoffMs(1), defaultBackoffMs(2), defaultBackoffMs(3, 4)], [500, 1000, 4000]);
 * ```
 */
export function defaultBackoffMs(failedAttempts: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds, 30) * 1000;
  return Math.min(500 * 2 ** (failedAttempts - 1), 8000);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CallAbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CallAbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Calls `provider` until it answers, a non-retryable error occurs, or `maxAttempts` are spent. Resolves to the
 * answer and the attempts it took; throws {@linkcode AnswerFailedError} or {@linkcode CallAbortedError}.
 * `beforeAttempt` is awaited before every attempt, the first included; when it says no, the attempt is not made
 * and a `BudgetExceededError` is thrown.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { answerWithRetries } from "./retry.ts";
 * const provider = () => Promise.resolve({ prediction: "7", responseModel: null, usage: {} });
 * const { attempts } = await answerWithRetries(provider, [], { maxAttempts: 3 });
 * deepStrictEqual(attempts, 1);
 * ```
 */
export async function answerWithRetries(
  provider: AnswerProvider,
  messages: readonly ChatMessage[],
  policy: RetryPolicy,
  signal?: AbortSignal,
  beforeAttempt?: () => Promise<boolean>,
): Promise<{ answer: Answer; attempts: number }> {
  const backoff = policy.backoffMs ?? defaultBackoffMs;
  for (let attempt = 1;; attempt++) {
    if (signal?.aborted) throw new CallAbortedError();
    if (beforeAttempt !== undefined && !await beforeAttempt()) {
      throw new BudgetExceededError("the next attempt would pass --max-cost");
    }
    try {
      return { answer: await provider(messages, signal), attempts: attempt };
    } catch (error) {
      if (error instanceof CallAbortedError) throw error;
      if (!(error instanceof ProviderError)) throw error;
      if (!error.retryable || attempt >= policy.maxAttempts) throw new AnswerFailedError(error, attempt);
      await sleep(backoff(attempt, error.retryAfterSeconds), signal);
    }
  }
}
