/**
 * The exact McNemar power against a second computation written another way: every case is one of three outcomes
 * (candidate alone right, baseline alone right, agreement), the (a, b) counts enumerated by their trinomial
 * probability, and each split judged by `exactMcnemar`'s own p, not the power module's critical values.
 */

import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { exactMcnemar, type Pair } from "../../../lib/qa/mod.ts";
import {
  casesNeeded,
  exactPower,
  MAX_PLANNED_CASES,
  minimumDetectableEffect,
} from "../../../lib/qa/grade/power.ts";

const pValues = new Map<string, number>();

/** The exact p of `a` candidate-only and `b` baseline-only wins, by the statistic every report prints. */
function pOf(a: number, b: number): number {
  const key = `${a},${b}`;
  if (!pValues.has(key)) {
    const pairs: Pair[] = [
      ...Array.from({ length: a }, (): Pair => [false, true]),
      ...Array.from({ length: b }, (): Pair => [true, false]),
    ];
    pValues.set(key, exactMcnemar(pairs).p_value);
  }
  return pValues.get(key)!;
}

/** Power by the trinomial over (a, b, n − a − b), probabilities built by exact-rational-free products. */
function trinomialPower(n: number, psi: number, effect: number, alpha: number): number {
  const [pa, pb, pc] = [(psi + effect) / 2, (psi - effect) / 2, 1 - psi];
  let logFactorial = [0];
  for (let k = 1; k <= n; k++) logFactorial = [...logFactorial, logFactorial[k - 1] + Math.log(k)];
  const term = (count: number, p: number) => count === 0 ? 0 : p === 0 ? -Infinity : count * Math.log(p);
  let power = 0;
  for (let a = 0; a <= n; a++) {
    for (let b = 0; a + b <= n; b++) {
      if (pOf(a, b) > alpha) continue;
      const c = n - a - b;
      power += Math.exp(
        logFactorial[n] - logFactorial[a] - logFactorial[b] - logFactorial[c] + term(a, pa) + term(b, pb) +
          term(c, pc),
      );
    }
  }
  return power;
}

Deno.test("exact power equals the trinomial enumeration judged by exactMcnemar's p", () => {
  for (const [psi, effect] of [[0.35, 0.1], [0.35, 0.3], [0.5, 0.05], [1, 0.5], [0.2, 0.2], [0.35, 0.35]]) {
    for (const n of [1, 5, 6, 7, 12, 25, 40, 60]) {
      const expected = trinomialPower(n, psi, effect, 0.05);
      const actual = exactPower(n, effect, { discordance: psi, alpha: 0.05 });
      assert(Math.abs(actual - expected) < 1e-9, `n ${n} ψ ${psi} D ${effect}: ${actual} vs ${expected}`);
    }
  }
  // Another alpha moves the region the same way in both.
  const other = trinomialPower(30, 0.4, 0.2, 0.01);
  assert(Math.abs(exactPower(30, 0.2, { discordance: 0.4, alpha: 0.01 }) - other) < 1e-9);
});

Deno.test("the published run's figures: 40 cases at ψ 0.35 give 0.123 at +0.10, 0.929 at +0.30; +0.10 needs 289", () => {
  const setting = { discordance: 0.35, alpha: 0.05 };
  assert(Math.abs(exactPower(40, 0.1, setting) - trinomialPower(40, 0.35, 0.1, 0.05)) < 1e-9);
  assertEquals(exactPower(40, 0.3, setting).toFixed(3), "0.929");
  assertEquals(casesNeeded(0.1, 0.8, setting), 289);
  // 289 is the first: its power reaches 0.8, 288's (and every smaller count's) does not.
  assert(exactPower(289, 0.1, setting) >= 0.8);
  for (const n of [200, 250, 280, 288]) assert(exactPower(n, 0.1, setting) < 0.8, `${n}`);
  assertEquals(casesNeeded(0.3, 0.8, setting), 30);
  assert(exactPower(29, 0.3, setting) < 0.8 && trinomialPower(30, 0.35, 0.3, 0.05) >= 0.8);
});

Deno.test("the minimum detectable effect is where the enumerated power crosses the target", () => {
  const setting = { discordance: 0.35, alpha: 0.05 };
  const mde = minimumDetectableEffect(40, 0.8, setting)!;
  assert(trinomialPower(40, 0.35, mde, 0.05) >= 0.8, `${mde}`);
  assert(trinomialPower(40, 0.35, mde - 1e-5, 0.05) < 0.8, `${mde}`);
  // Five cases cannot reach 80% for any difference up to ψ.
  assertEquals(minimumDetectableEffect(5, 0.8, { discordance: 0.8, alpha: 0.05 }), undefined);
});

Deno.test("past the largest case count searched there is no answer, and bad settings are refused", () => {
  assertEquals(casesNeeded(0.001, 0.8, { discordance: 0.35, alpha: 0.05 }, 500), undefined);
  assert(MAX_PLANNED_CASES >= 1000);
  assertThrows(() => exactPower(10, 0.5, { discordance: 0.35, alpha: 0.05 }), RangeError);
  assertThrows(() => exactPower(10, 0.1, { discordance: 0, alpha: 0.05 }), RangeError);
  assertThrows(() => exactPower(10, 0.1, { discordance: 0.35, alpha: 1 }), RangeError);
  assertEquals(exactPower(0, 0.1, { discordance: 0.35, alpha: 0.05 }), 0);
});
