/**
 * What `verify` says: each check with its verdict, what a passing set of checks proves, and the text of it.
 *
 * @module
 */

import { visible } from "../base/mod.ts";
import { reusedLine, type ReusedRows } from "../qa/mod.ts";

/** A check's verdict: held, did not hold, or not run because it needs the dataset. */
export type Verdict = "pass" | "fail" | "needs-dataset";

/** One check's outcome. */
export interface Check {
  /** What the check proves when it passes. */
  name: string;
  verdict: Verdict;
  /** Why it failed (or what it needs). */
  detail?: string;
}

/**
 * What a passing `verify` proved: `structure-and-statistics` without the dataset (rows' form, summary,
 * statistics, marker), `every-derivable-field` with it.
 */
export type VerifyScope = "structure-and-statistics" | "every-derivable-field";

/** The outcome of {@linkcode verifyResults}: every check, whether all that ran held, and what that proves. */
export interface VerifyResult {
  checks: Check[];
  /** No check failed (checks that need the dataset, when it was not given, are not failures). */
  ok: boolean;
  /** What the checks cover: without the dataset, predictions and grades are not re-derived. */
  scope: VerifyScope;
  /** Row fields that are recorded but that no offline check can prove. */
  notRederivable: readonly string[];
  /** The closing line: exactly what was proved, or how many checks failed. */
  conclusion: string;
  /** The rows taken from earlier runs (`reuse.json`), by source; absent when none was. */
  reused?: ReusedRows;
}

/** Row fields no offline check can prove: they are what the model and its API returned. */
export const NOT_REDERIVABLE: readonly string[] = [
  "prediction (as the model's text)",
  "usage",
  "attempts",
  "response_model",
];

/**
 * Where two byte strings first differ, or `undefined` when they are identical: what every "byte for byte" check
 * compares (a file's bytes against the canonical serialisation's UTF-8), never decoded text.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { firstByteDifference } from "./checks.ts";
 * const utf8 = (text: string) => new TextEncoder().encode(text);
 * strictEqual(firstByteDifference(utf8("{}\n"), utf8("{}\n")), undefined);
 * strictEqual(firstByteDifference(utf8("\ufeff{}\n"), utf8("{}\n")), 0); // a BOM is a difference
 * strictEqual(firstByteDifference(utf8("{}"), utf8("{}\n")), 2); // so is a missing last byte
 * ```
 */
export function firstByteDifference(actual: Uint8Array, expected: Uint8Array): number | undefined {
  const length = Math.min(actual.length, expected.length);
  for (let index = 0; index < length; index++) if (actual[index] !== expected[index]) return index;
  return actual.length === expected.length ? undefined : length;
}

/** A list of checks being built: each step passes, fails or records its problems under one check's name. */
export class CheckList {
  /** The checks so far, in order. */
  readonly checks: Check[] = [];

  /** The check held. */
  pass(name: string): void {
    this.checks.push({ name, verdict: "pass" });
  }

  /** The check did not hold, for the reason given. */
  fail(name: string, detail: string): void {
    this.checks.push({ name, verdict: "fail", detail });
  }

  /** The check needs the dataset, which was not given. */
  needsDataset(name: string): void {
    this.checks.push({ name, verdict: "needs-dataset", detail: "needs --dataset" });
  }

  /** Passes with no problems, else fails showing the first three. */
  record(name: string, problems: readonly string[]): void {
    if (problems.length === 0) return this.pass(name);
    const shown = problems.slice(0, 3).join("; ");
    this.fail(name, problems.length > 3 ? `${problems.length} problems: ${shown}; …` : shown);
  }

  /** The outcome: every check, whether none failed, and the closing line for `scope`. */
  result(scope: VerifyScope): VerifyResult {
    const failed = this.checks.filter((check) => check.verdict === "fail").length;
    const conclusion = failed > 0
      ? `NOT verified: ${failed} of ${this.checks.length} checks failed`
      : scope === "structure-and-statistics"
      ? "structure and statistics verified; predictions and grades need --dataset"
      : `verified: every derivable field re-derived from the dataset; ${
        NOT_REDERIVABLE.join(", ")
      } are recorded, not re-derivable`;
    return { checks: this.checks, ok: failed === 0, scope, notRederivable: NOT_REDERIVABLE, conclusion };
  }
}

/**
 * One check as a line: ✓ held, ✗ failed, – needs the dataset, then its name and why.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { checkLine } from "./checks.ts";
 * strictEqual(checkLine({ name: "rows parse", verdict: "fail", detail: "line 3" }), "✗ rows parse — line 3");
 * ```
 */
export function checkLine(check: Check): string {
  const mark: Record<Verdict, string> = { pass: "✓", fail: "✗", "needs-dataset": "–" };
  // A detail may quote a file's text: one line, its controls escaped, so it cannot forge a check of its own.
  return `${mark[check.verdict]} ${visible(check.name)}${check.detail ? ` — ${visible(check.detail)}` : ""}`;
}

/**
 * The report: one line per check (✓ held, ✗ failed, – needs the dataset), the fields that are recorded but not
 * re-derivable, and the closing line saying exactly what was proved.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { CheckList, formatVerifyResult } from "./checks.ts";
 * const list = new CheckList();
 * list.pass("rows parse");
 * list.needsDataset("grades re-derived");
 * const text = formatVerifyResult(list.result("structure-and-statistics"));
 * strictEqual(text.split("\n")[1], "– grades re-derived — needs --dataset");
 * strictEqual(text.split("\n").at(-1), "structure and statistics verified; predictions and grades need --dataset");
 * ```
 */
export function formatVerifyResult(result: VerifyResult): string {
  const lines = result.checks.map(checkLine);
  lines.push(`· recorded, not re-derivable: ${result.notRederivable.join(", ")}`);
  if (result.reused !== undefined) lines.push(`· ${visible(reusedLine(result.reused))}`);
  lines.push(result.conclusion);
  return lines.join("\n");
}
