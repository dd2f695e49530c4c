/**
 * `plan`'s figures from one suite of a graded run: its discordance, the exact McNemar power at its case count for
 * an accuracy difference, the cases a target power needs, the smallest difference its case count detects, and
 * what a run of the needed size costs by run-qa's worst case (every completion at `max_tokens`).
 *
 * @module
 */

import { InputError } from "../../base/mod.ts";
import { callCostUsd, type UsdPerMillion } from "./cost.ts";
import { casesNeeded, exactPower, MAX_PLANNED_CASES, minimumDetectableEffect } from "../grade/power.ts";

/** What a plan is asked. */
export interface PlanQuestion {
  /** The suite's name as reports print it (`longmemeval`). */
  suite: string;
  /** The suite's cases in the run. */
  cases: number;
  /** Its discordant cases (either policy alone right). */
  discordant: number;
  /** The accuracy difference to detect, in (0, 1]. */
  effect: number;
  /** The target power, in (0, 1). */
  power: number;
  /** The significance level, in (0, 1). */
  alpha: number;
  /** Runs of both policies over every case (`--epochs`). */
  epochs: number;
  /** The run's mean recorded prompt tokens per call in the suite. */
  promptTokens: number;
  /** The config's `max_tokens`: a call's worst-case completion. */
  maxTokens: number;
  /** USD per million tokens, when given. */
  prices?: UsdPerMillion;
}

/** What a plan answers (`plan --json`). */
export interface Plan {
  cases: number;
  discordance: number;
  power_at_cases: number;
  /** `null` above the largest case count searched. */
  cases_needed: number | null;
  /** `null` when no difference up to the discordance reaches the target at `cases`. */
  mde: number | null;
  /** Present only with prices. */
  cost_usd?: number;
  /** The official cases the selection rule finds eligible in the dataset, when it was read. */
  eligible?: number;
  /** Without the dataset, the most the pinned dataset can give by its public counts (an upper bound). */
  eligible_upper_bound?: number;
  /** Which run's discordance was used, when the directory holds K runs (run 1: one run's McNemar is planned). */
  discordance_of_run?: { run: number; of: number };
}

/**
 * The plan for `question`; refuses (one line, exit 2) a suite without discordant cases and an effect above the
 * discordance, which no split of the discordant cases can show.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { plan } from "./plan.ts";
 * const question = { suite: "longmemeval", cases: 40, discordant: 14, effect: 0.1, power: 0.8, alpha: 0.05,
 *   epochs: 1, promptTokens: 1000, maxTokens: 2048, prices: { input: 1, output: 1 } };
 * const result = plan(question);
 * strictEqual(result.cases_needed, 289);
 * strictEqual(result.cost_usd, 289 * 2 * 3048 / 1e6);
 * ```
 */
export function plan(question: PlanQuestion): Plan {
  const { suite, cases, discordant, effect } = question;
  if (cases === 0 || discordant === 0) {
    throw new InputError(
      `no discordant cases in ${suite} (${discordant} of ${cases}): power cannot be planned from this run`,
      { field: "--suite" },
    );
  }
  const discordance = discordant / cases;
  if (effect > discordance) {
    throw new InputError(
      `expected at most the run's discordance ${fixed(discordance)} in ${suite}, got ${effect}: ` +
        "a difference cannot exceed the share of cases the policies disagree on",
      { field: "--effect" },
    );
  }
  const setting = { discordance, alpha: question.alpha };
  const needed = casesNeeded(effect, question.power, setting) ?? null;
  const result: Plan = {
    cases,
    discordance,
    power_at_cases: exactPower(cases, effect, setting),
    cases_needed: needed,
    mde: minimumDetectableEffect(cases, question.power, setting) ?? null,
  };
  if (question.prices !== undefined && needed !== null) {
    const call = callCostUsd(question.promptTokens, question.maxTokens, question.prices);
    result.cost_usd = needed * 2 * question.epochs * call;
  }
  return result;
}

function fixed(value: number): string {
  return value.toFixed(3);
}

function signed(value: number): string {
  return `+${value.toFixed(3)}`;
}

/** " in run 1 of the directory's K runs" when the discordance is one run's of several, else nothing. */
function runOf(result: Plan): string {
  const of = result.discordance_of_run;
  return of === undefined ? "" : ` in run ${of.run} of the directory's ${of.of} runs`;
}

/**
 * `plan`'s text: one line per figure, what epochs buy, and the eligible cases (or, without the dataset, the pinned
 * dataset's upper bound) when they apply.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { plan, planLines } from "./plan.ts";
 * const question = { suite: "longmemeval", cases: 40, discordant: 14, effect: 0.1, power: 0.8, alpha: 0.05,
 *   epochs: 1, promptTokens: 1000, maxTokens: 2048 };
 * const lines = planLines(question, { ...plan(question), eligible: 150 });
 * strictEqual(lines[2], "cases needed for 80% power at +0.100: 289");
 * strictEqual(lines.at(-1), "289 cases exceed the 150 official cases the selection rule finds eligible in the dataset");
 * ```
 */
export function planLines(question: PlanQuestion, result: Plan): string[] {
  const { suite, effect, alpha, epochs } = question;
  const percent = `${Math.round(question.power * 1000) / 10}%`;
  const lines = [
    `${suite}: ${result.cases} cases, ${question.discordant} discordant (discordance ${
      fixed(result.discordance)
    })${runOf(result)}`,
    `exact McNemar power at ${result.cases} cases for ${signed(effect)} (alpha ${alpha}): ` +
    fixed(result.power_at_cases),
    result.cases_needed === null
      ? `cases needed for ${percent} power at ${signed(effect)}: more than ${MAX_PLANNED_CASES}`
      : `cases needed for ${percent} power at ${signed(effect)}: ${result.cases_needed}`,
    result.mde === null
      ? `minimum detectable effect at ${result.cases} cases: none up to the discordance ${
        fixed(result.discordance)
      }`
      : `minimum detectable effect at ${result.cases} cases (${percent} power): ${signed(result.mde)}`,
  ];
  if (result.cost_usd !== undefined) {
    const prices = question.prices!;
    lines.push(
      `cost of ${result.cases_needed} cases × 2 policies × ${epochs} epoch(s): at most $${
        result.cost_usd.toFixed(2)
      } (${
        question.promptTokens.toFixed(0)
      } prompt tokens a call as this run recorded, every completion at ` +
        `max_tokens ${question.maxTokens}; $${prices.input} and $${prices.output} per million tokens)`,
    );
  }
  if (epochs > 1) {
    lines.push(
      `--epochs ${epochs}: repeated answers average out the model's within-case noise only; ` +
        "power counts cases, so epochs do not lower the cases needed",
    );
  }
  lines.push(...eligibleLines(result));
  return lines;
}

/** Whether the needed cases fit in the eligible cases, or in the pinned dataset's upper bound. */
function eligibleLines(result: Plan): string[] {
  const needed = result.cases_needed;
  if (needed === null) return [];
  const inDataset = "official cases the selection rule finds eligible in the dataset";
  if (result.eligible !== undefined) {
    return [
      needed > result.eligible
        ? `${needed} cases exceed the ${result.eligible} ${inDataset}`
        : `${needed} cases fit in the ${result.eligible} ${inDataset}`,
    ];
  }
  const bound = result.eligible_upper_bound;
  if (bound === undefined) return [];
  const counts =
    "(its public question counts of the eligible types, abstentions out, before the length filters)";
  return [
    needed > bound
      ? `${needed} cases exceed what the pinned dataset can give: at most ${bound} official cases are eligible ` +
        `${counts}; --dataset PATH gives the exact count`
      : `${needed} cases are within the pinned dataset's upper bound of ${bound} eligible official cases ` +
        `${counts}; --dataset PATH says whether they fit`,
  ];
}
