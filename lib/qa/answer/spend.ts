/**
 * What a run has spent, kept in its directory (`spend.jsonl`), so `--max-cost` bounds the run, not one
 * invocation: every attempt a run makes (a first call, a retry, one that timed out after the server answered)
 * is appended — its estimated prompt tokens, one line — and synced before it is sent, and every rerun counts
 * what is there. The ledger holds tokens, not dollars: each invocation prices it by its own prices, every
 * attempt at its worst case (`max_tokens` of completion).
 *
 * @module
 */

import { appendLine, ContractError, type PublishOptions, readTextIfExists } from "../../base/mod.ts";
import { callCostUsd, type CostBudget, type UsdPerMillion } from "./cost.ts";

/** The ledger's name in a run directory (no reference tool reads it). */
export const SPEND_FILE = "spend.jsonl";

/** What a ledger holds: the attempts made and their summed prompt estimate. */
export interface Spend {
  attempts: number;
  promptTokens: number;
}

/**
 * A ledger's text read: one line per attempt, its estimated prompt tokens. A last line cut short (a kill while
 * it was appended) still counts as an attempt.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parseSpend } from "./spend.ts";
 * deepStrictEqual(parseSpend("10\n20\n3", "spend.jsonl"), { attempts: 3, promptTokens: 33 });
 * ```
 */
export function parseSpend(text: string, path: string): Spend {
  const lines = text.split("\n");
  const spend: Spend = { attempts: 0, promptTokens: 0 };
  for (const [index, line] of lines.entries()) {
    const last = index === lines.length - 1;
    if (last && line === "") break;
    if (!/^\d{1,15}$/.test(line) && !(last && /^\d*$/.test(line))) {
      throw new ContractError(
        `expected one attempt's estimated prompt tokens (a whole number), got ${
          JSON.stringify(line.slice(0, 40))
        }`,
        { path, field: `line ${index + 1}` },
      );
    }
    spend.attempts++;
    spend.promptTokens += Number(line || "0");
  }
  return spend;
}

/** Reads a directory's ledger: nothing spent when there is none. */
export async function readSpend(directory: string): Promise<Spend> {
  const path = `${directory}/${SPEND_FILE}`;
  const text = await readTextIfExists(path, "spend ledger");
  return text === undefined ? { attempts: 0, promptTokens: 0 } : parseSpend(text, path);
}

/**
 * A ledger's worst case in USD at `prices`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { spentUsd } from "./spend.ts";
 * strictEqual(spentUsd({ attempts: 2, promptTokens: 1_000_000 }, 10, { input: 1, output: 1000 }), 1.02);
 * ```
 */
export function spentUsd(spend: Spend, maxTokens: number, prices: UsdPerMillion): number {
  return callCostUsd(spend.promptTokens, spend.attempts * maxTokens, prices);
}

/**
 * The run's ledger: {@linkcode SpendLedger.reserve} records an attempt before it is sent, refusing one whose
 * worst case would take the run's total past the budget.
 */
export class SpendLedger {
  #spend: Spend;
  /** What the run had spent before this invocation, in USD (0 without a budget). */
  readonly spentBefore: number;

  /**
   * @param directory The run directory.
   * @param spend What its ledger held.
   * @param budget The run's total budget, when one is given.
   * @param publish Whose hook sees each append.
   */
  constructor(
    readonly directory: string,
    spend: Spend,
    readonly budget: CostBudget | undefined,
    readonly publish?: PublishOptions,
  ) {
    this.#spend = { ...spend };
    this.spentBefore = budget === undefined ? 0 : spentUsd(spend, budget.maxTokens, budget.prices);
  }

  /** Records one attempt of `promptTokens` (estimated) on disk; `false`, recording nothing, if it would not fit. */
  async reserve(promptTokens: number): Promise<boolean> {
    const next = {
      attempts: this.#spend.attempts + 1,
      promptTokens: this.#spend.promptTokens + promptTokens,
    };
    const budget = this.budget;
    // A relative epsilon: a budget equal to the sum must not be lost to rounding.
    if (
      budget !== undefined &&
      spentUsd(next, budget.maxTokens, budget.prices) > budget.maxCostUsd * (1 + 1e-12)
    ) {
      return false;
    }
    this.#spend = next; // counted at once, so concurrent workers never reserve the same dollars twice
    await appendLine(`${this.directory}/${SPEND_FILE}`, `${promptTokens}\n`, this.publish);
    return true;
  }
}
