/**
 * The exact power of the two-sided exact McNemar test, by enumeration: of `n` cases, `d` are discordant with
 * probability Binomial(n, ψ); of those, the candidate alone is right in `k` with probability Binomial(d, q),
 * `q = (ψ + D) / 2ψ` for an accuracy difference `D`; the test rejects where the exact p ({@linkcode exactMcnemar})
 * is at most alpha. From it: the cases a target power needs and the smallest difference a run can detect.
 *
 * @module
 */

import { log1p } from "../../py/mod.ts";

/** The largest case count {@linkcode casesNeeded} searches. */
export const MAX_PLANNED_CASES = 10_000;

/** What a power question fixes besides the case count. */
export interface PowerSetting {
  /** ψ: the share of cases on which the two policies disagree, in (0, 1]. */
  discordance: number;
  /** The significance level, in (0, 1). */
  alpha: number;
}

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let k = logFactorials.length; k <= n; k++) logFactorials.push(logFactorials[k - 1] + log1p(k - 1));
  return logFactorials[n];
}

// log p and log(1 − p) of the last p asked for: a power sums many terms of one p.
let logs = { p: NaN, success: 0, failure: 0 };

/** Binomial(n, p)'s probability of `k`, with p = 0 and p = 1 exact. */
function binomialPmf(n: number, k: number, p: number): number {
  if (p <= 0) return k === 0 ? 1 : 0;
  if (p >= 1) return k === n ? 1 : 0;
  if (logs.p !== p) logs = { p, success: log1p(p - 1), failure: log1p(-p) };
  const log = logFactorial(n) - logFactorial(k) - logFactorial(n - k) + k * logs.success +
    (n - k) * logs.failure;
  return Math.exp(log);
}

/** P(Binomial(d, 1/2) ≤ k), summed downward from `k` until the terms no longer count. */
function halfTail(d: number, k: number): number {
  let sum = 0;
  for (let i = k; i >= 0; i--) {
    const term = binomialPmf(d, i, 0.5);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

/** The rejection region of the exact test, per discordant count: `k ≤ c` or `k ≥ d − c`. */
class CriticalValues {
  readonly #values: number[] = [-1];
  constructor(readonly alpha: number) {}

  /** The largest `k` whose two-sided exact p at `d` discordant pairs is ≤ alpha (−1 when none is). */
  at(d: number): number {
    for (let next = this.#values.length; next <= d; next++) {
      // Adding a pair never shrinks the region and grows it by at most one.
      let c = this.#values[next - 1];
      if (c + 1 < next / 2 && Math.min(1, 2 * halfTail(next, c + 1)) <= this.alpha) c++;
      this.#values.push(c);
    }
    return this.#values[d];
  }
}

const criticalByAlpha = new Map<number, CriticalValues>();

function critical(alpha: number): CriticalValues {
  let values = criticalByAlpha.get(alpha);
  if (values === undefined) criticalByAlpha.set(alpha, values = new CriticalValues(alpha));
  return values;
}

/**
 * The counts outside which Binomial(n, p) has no probability a double can hold beside the rest: 12 standard
 * deviations and 40 more either side of the mean.
 */
function support(n: number, p: number): [number, number] {
  const reach = 12 * Math.sqrt(n * p * (1 - p)) + 40;
  return [Math.max(0, Math.floor(n * p - reach)), Math.min(n, Math.ceil(n * p + reach))];
}

/** P(reject | d discordant pairs) for the candidate's share `q` of them. */
function rejectGivenDiscordant(d: number, q: number, c: number): number {
  const [low, high] = support(d, q);
  let sum = 0;
  for (let k = low; k <= Math.min(c, high); k++) sum += binomialPmf(d, k, q);
  for (let k = Math.max(d - c, low); k <= high; k++) sum += binomialPmf(d, k, q);
  return Math.min(1, sum);
}

function checkSetting({ discordance, alpha }: PowerSetting, effect: number): void {
  if (!(discordance > 0 && discordance <= 1)) throw new RangeError("discordance must be in (0, 1]");
  if (!(alpha > 0 && alpha < 1)) throw new RangeError("alpha must be in (0, 1)");
  if (!(Math.abs(effect) <= discordance)) throw new RangeError("the effect cannot exceed the discordance");
}

/** Power at each case count 1..`upTo` for one effect, the conditional rejection probabilities computed once. */
function* powers(setting: PowerSetting, effect: number, upTo: number): Generator<[number, number]> {
  checkSetting(setting, effect);
  const q = (setting.discordance + effect) / (2 * setting.discordance);
  const values = critical(setting.alpha);
  const conditional: number[] = [];
  for (let n = 1; n <= upTo; n++) {
    for (let d = conditional.length; d <= n; d++) conditional.push(rejectGivenDiscordant(d, q, values.at(d)));
    let power = 0;
    const [low, high] = support(n, setting.discordance);
    for (let d = low; d <= high; d++) power += binomialPmf(n, d, setting.discordance) * conditional[d];
    yield [n, Math.min(1, power)];
  }
}

/**
 * The exact power at `cases` cases for the accuracy difference `effect` (candidate minus baseline).
 *
 * @throws {RangeError} When the discordance is not in (0, 1], alpha not in (0, 1), or |effect| > discordance.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { exactPower } from "./power.ts";
 * // Every case discordant, the candidate right in 3 of 4: 6 pairs reject only all one way (p = 2/64 ≤ 0.05).
 * const power = exactPower(6, 0.5, { discordance: 1, alpha: 0.05 });
 * strictEqual(Math.abs(power - (0.75 ** 6 + 0.25 ** 6)) < 1e-12, true);
 * ```
 */
export function exactPower(cases: number, effect: number, setting: PowerSetting): number {
  if (!Number.isInteger(cases) || cases < 0) throw new RangeError("cases must be a whole number ≥ 0");
  if (cases === 0) return 0;
  let last = 0;
  for (const [, power] of powers(setting, effect, cases)) last = power;
  return last;
}

/**
 * The smallest case count whose exact power reaches `target`, or `undefined` above {@linkcode MAX_PLANNED_CASES}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { casesNeeded } from "./power.ts";
 * strictEqual(casesNeeded(0.5, 0.8, { discordance: 1, alpha: 0.05 }), 30);
 * ```
 */
export function casesNeeded(
  effect: number,
  target: number,
  setting: PowerSetting,
  limit: number = MAX_PLANNED_CASES,
): number | undefined {
  for (const [n, power] of powers(setting, effect, limit)) if (power >= target) return n;
  return undefined;
}

/**
 * The smallest accuracy difference (to 1e-6, rounded up) whose exact power at `cases` reaches `target`, or
 * `undefined` when not even a difference equal to the discordance does.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { exactPower, minimumDetectableEffect } from "./power.ts";
 * const setting = { discordance: 0.35, alpha: 0.05 };
 * const mde = minimumDetectableEffect(40, 0.8, setting)!;
 * strictEqual(exactPower(40, mde, setting) >= 0.8, true);
 * strictEqual(exactPower(40, mde - 1e-6, setting) < 0.8, true);
 * ```
 */
export function minimumDetectableEffect(
  cases: number,
  target: number,
  setting: PowerSetting,
): number | undefined {
  if (exactPower(cases, setting.discordance, setting) < target) return undefined;
  let [low, high] = [0, setting.discordance];
  while (high - low > 1e-7) {
    const middle = (low + high) / 2;
    if (exactPower(cases, middle, setting) >= target) high = middle;
    else low = middle;
  }
  const rounded = Math.min(setting.discordance, Math.ceil(high * 1e6) / 1e6);
  return exactPower(cases, rounded, setting) >= target ? rounded : setting.discordance;
}
