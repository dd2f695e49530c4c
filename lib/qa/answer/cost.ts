/**
 * What a run will cost before it starts. There is no tokenizer for the configured model (DeepSeek's) in this
 * program, so prompt tokens are estimated by DeepSeek's documented rule (its API docs, "Token & Token Usage"):
 * 0.3 token a character, 0.6 a CJK ideograph, rounded up per message. A call's worst case adds the whole `max_tokens` as completion tokens.
 *
 * @module
 */

import type { ChatMessage } from "../run/prompt.ts";
import type { AnswerTask } from "../run/tasks.ts";

/** The rule, as help and the dry run state it. */
export const TOKEN_RULE =
  "DeepSeek's documented 0.3 token a character (0.6 a CJK ideograph), rounded up per message";

/** Prices in USD per million tokens. */
export interface UsdPerMillion {
  /** Prompt tokens. */
  input: number;
  /** Completion tokens. */
  output: number;
}

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{3134f}]/u;

/**
 * The estimated prompt tokens of `messages` by {@linkcode TOKEN_RULE}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { estimatePromptTokens } from "./cost.ts";
 * strictEqual(estimatePromptTokens([{ role: "user", content: "abcdefghij" }]), 3);
 * ```
 */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const message of messages) {
    let tenths = 0; // integer tenths of a token: no float drift over long prompts
    for (const character of message.content) tenths += CJK.test(character) ? 6 : 3;
    total += Math.ceil(tenths / 10);
  }
  return total;
}

/** The estimate of every task and their total. */
export interface TaskEstimate {
  perTask: number[];
  total: number;
}

/**
 * Estimates every task's prompt tokens.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { estimateTasks } from "./cost.ts";
 * import type { AnswerTask } from "../run/tasks.ts";
 * const task = { messages: [{ role: "user", content: "abcdefghij" }] } as unknown as AnswerTask;
 * deepStrictEqual(estimateTasks([task, task]), { perTask: [3, 3], total: 6 });
 * ```
 */
export function estimateTasks(tasks: readonly AnswerTask[]): TaskEstimate {
  const perTask = tasks.map((task) => estimatePromptTokens(task.messages));
  return { perTask, total: perTask.reduce((sum, tokens) => sum + tokens, 0) };
}

/**
 * A call's worst-case cost in USD: its prompt estimate and `maxTokens` completion tokens.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { callCostUsd } from "./cost.ts";
 * strictEqual(callCostUsd(1_000_000, 0, { input: 0.5, output: 2 }), 0.5);
 * ```
 */
export function callCostUsd(promptTokens: number, maxTokens: number, prices: UsdPerMillion): number {
  return (promptTokens * prices.input + maxTokens * prices.output) / 1_000_000;
}

/**
 * How many of the calls, taken in order, fit in `maxCostUsd` by their summed worst case.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { affordableCalls } from "./cost.ts";
 * strictEqual(affordableCalls([1_000_000, 1_000_000], 0, { input: 1, output: 0 }, 1.5), 1);
 * ```
 */
export function affordableCalls(
  promptTokens: readonly number[],
  maxTokens: number,
  prices: UsdPerMillion,
  maxCostUsd: number,
): number {
  let spent = 0;
  for (const [index, tokens] of promptTokens.entries()) {
    spent += callCostUsd(tokens, maxTokens, prices);
    // A relative epsilon: a budget equal to the sum must not be lost to rounding.
    if (spent > maxCostUsd * (1 + 1e-12)) return index;
  }
  return promptTokens.length;
}

/** A budget for a run: calls stop before the summed worst case would pass `maxCostUsd`. */
export interface CostBudget {
  maxCostUsd: number;
  prices: UsdPerMillion;
  maxTokens: number;
}

/**
 * The dry run's estimate lines for the tasks still to call (`spentUsd`: what the run's ledger already holds).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { costLines } from "./cost.ts";
 * import type { AnswerTask } from "../run/tasks.ts";
 * const task = { messages: [{ role: "user", content: "abcdefghij" }] } as unknown as AnswerTask;
 * deepStrictEqual(costLines([task], 10), [
 *   "estimate: 3 prompt tokens for 1 call(s), at most 10 completion tokens",
 *   "  (by DeepSeek's documented 0.3 token a character (0.6 a CJK ideograph), rounded up per message)",
 * ]);
 * ```
 */
export function costLines(
  toCall: readonly AnswerTask[],
  maxTokens: number,
  prices?: UsdPerMillion,
  maxCostUsd?: number,
  spentUsd = 0,
): string[] {
  const { perTask, total } = estimateTasks(toCall);
  const completion = maxTokens * toCall.length;
  const lines = [
    `estimate: ${total} prompt tokens for ${toCall.length} call(s), at most ${completion} completion tokens`,
    `  (by ${TOKEN_RULE})`,
  ];
  if (prices !== undefined) {
    const prompt = total * prices.input / 1_000_000;
    const worst = prompt + completion * prices.output / 1_000_000;
    lines.push(
      `estimated cost: $${prompt.toFixed(4)} of prompt tokens, at most $${worst.toFixed(4)} with every ` +
        `completion at max_tokens (at $${prices.input} and $${prices.output} per million tokens)`,
    );
    if (maxCostUsd !== undefined) {
      const fits = affordableCalls(perTask, maxTokens, prices, Math.max(0, maxCostUsd - spentUsd));
      const spent = spentUsd > 0 ? ` (the run's total: $${spentUsd.toFixed(4)} of it already spent)` : "";
      lines.push(
        `--max-cost $${maxCostUsd}: ${fits} of ${toCall.length} call(s) fit by their worst case${spent}`,
      );
    }
  }
  return lines;
}
