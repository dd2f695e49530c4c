/**
 * The token-bill section: rows, attempts and tokens (prompt, completion, cache hit and miss) per policy and in
 * total, and the cost when prices are given.
 *
 * @module
 */

import { type GradedRow, type PolicyPair, PUBLISHED_PAIR } from "../../qa/mod.ts";
import { formatCount } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import type { Prices, TokenBill, TokenTotals } from "./run_report.ts";

/**
 * Token and attempt totals of `rows`, with the cost in USD when `prices` are given.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import type { GradedRow } from "../../qa/mod.ts";
 * import { tokenTotals } from "./tokens.ts";
 * const row = { attempts: 1, usage: { prompt_tokens: 1_000_000, completion_tokens: 500_000 } } as unknown as GradedRow;
 * strictEqual(tokenTotals([row, row], { input: 0.27, output: 1.1 }).cost!.toFixed(2), "1.64"); // 2M × 0.27 + 1M × 1.1
 * ```
 */
export function tokenTotals(rows: readonly GradedRow[], prices?: Prices): TokenTotals {
  const sum = (key: string) => rows.reduce((total, row) => total + (row.usage[key] ?? 0), 0);
  const reported = (key: string) => rows.some((row) => row.usage[key] !== undefined) ? sum(key) : undefined;
  const totals: TokenTotals = {
    rows: rows.length,
    attempts: rows.reduce((total, row) => total + row.attempts, 0),
    prompt: sum("prompt_tokens"),
    completion: sum("completion_tokens"),
    cacheHit: reported("prompt_cache_hit_tokens"),
    cacheMiss: reported("prompt_cache_miss_tokens"),
  };
  if (prices !== undefined) {
    totals.cost = (totals.prompt * prices.input + totals.completion * prices.output) / 1_000_000;
  }
  return totals;
}

/** The bill: totals per policy and over all rows. */
export function tokenBill(
  rows: readonly GradedRow[],
  prices?: Prices,
  pair: PolicyPair = PUBLISHED_PAIR,
): TokenBill {
  return {
    byPolicy: Object.fromEntries(
      pair.map((policy) => [policy, tokenTotals(rows.filter((row) => row.policy === policy), prices)]),
    ),
    total: tokenTotals(rows, prices),
    prices,
  };
}

/** The bill as a section: one row per policy and the total, with a cost column when priced. */
export function billSection(bill: TokenBill): Section {
  const priced = bill.prices !== undefined;
  const billRow = (label: string, totals: TokenTotals) => [
    label,
    String(totals.rows),
    formatCount(totals.attempts),
    formatCount(totals.prompt),
    formatCount(totals.completion),
    totals.cacheHit === undefined ? "–" : formatCount(totals.cacheHit),
    totals.cacheMiss === undefined ? "–" : formatCount(totals.cacheMiss),
    ...(priced ? [`$${(totals.cost ?? 0).toFixed(4)}`] : []),
  ];
  return {
    id: "bill",
    title: "Token bill",
    lines: [
      priced
        ? `cost at $${bill.prices!.input} per million prompt tokens and $${
          bill.prices!.output
        } per million completion tokens`
        : "pass --price-input USD --price-output USD (per million tokens) for the cost",
    ],
    tables: [table(
      [
        "policy",
        "rows",
        "attempts",
        "prompt",
        "completion",
        "cache hit",
        "cache miss",
        ...(priced ? ["cost"] : []),
      ],
      [
        ...Object.entries(bill.byPolicy).map(([policy, totals]) => billRow(policy, totals)),
        billRow("total", bill.total),
      ],
      [false, true, true, true, true, true, true, ...(priced ? [true] : [])],
    )],
  };
}
