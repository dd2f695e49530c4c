/** `plan`'s figures and lines from a suite's counts; its refusals; its cost by run-qa's worst-case rule. */

import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";
import { InputError } from "../../../lib/base/mod.ts";
import { plan, planLines, type PlanQuestion } from "../../../lib/qa/mod.ts";

const PUBLISHED: PlanQuestion = {
  suite: "longmemeval",
  cases: 40,
  discordant: 14,
  effect: 0.1,
  power: 0.8,
  alpha: 0.05,
  epochs: 1,
  promptTokens: 900,
  maxTokens: 2048,
};

Deno.test("the published suite: 40 cases, discordance 0.35, 289 needed at +0.10", () => {
  const result = plan(PUBLISHED);
  assertEquals(result.cases, 40);
  assertEquals(result.discordance, 0.35);
  assertEquals(result.cases_needed, 289);
  assertEquals(result.power_at_cases.toFixed(3), "0.123");
  assertEquals(result.cost_usd, undefined);
  assertEquals(Object.keys(result), ["cases", "discordance", "power_at_cases", "cases_needed", "mde"]);
});

Deno.test("the cost is cases × both policies × epochs × (prompt + max_tokens) at the prices", () => {
  const prices = { input: 0.14, output: 0.28 };
  const result = plan({ ...PUBLISHED, epochs: 3, prices });
  // Written out apart from the module: 289 cases, 2 policies, 3 epochs, each call 900 in and 2048 out.
  const calls = 289 * 2 * 3;
  const expected = calls * 900 * 0.14 / 1e6 + calls * 2048 * 0.28 / 1e6;
  assert(Math.abs(result.cost_usd! - expected) < 1e-12, `${result.cost_usd} vs ${expected}`);
  const lines = planLines({ ...PUBLISHED, epochs: 3, prices }, result);
  assert(
    lines.some((line) =>
      line.startsWith(`cost of 289 cases × 2 policies × 3 epoch(s): at most $${expected.toFixed(2)}`)
    ),
  );
  assert(
    lines.some((line) =>
      line.startsWith("--epochs 3: repeated answers average out the model's within-case noise only")
    ),
  );
});

Deno.test("an effect above the discordance and a suite without discordant cases are refused in one line", () => {
  const above = assertThrows(() => plan({ ...PUBLISHED, effect: 0.4 }), InputError);
  assertEquals(
    above.message,
    "--effect: expected at most the run's discordance 0.350 in longmemeval, got 0.4: a difference cannot exceed " +
      "the share of cases the policies disagree on",
  );
  const none = assertThrows(() => plan({ ...PUBLISHED, discordant: 0 }), InputError);
  assertEquals(
    none.message,
    "--suite: no discordant cases in longmemeval (0 of 40): power cannot be planned from this run",
  );
  assert(!above.message.includes("\n") && !none.message.includes("\n"));
});

Deno.test("the lines say when the needed cases exceed the eligible cases, and when they fit", () => {
  const lines = planLines(PUBLISHED, { ...plan(PUBLISHED), eligible: 199 });
  assertEquals(lines, [
    "longmemeval: 40 cases, 14 discordant (discordance 0.350)",
    "exact McNemar power at 40 cases for +0.100 (alpha 0.05): 0.123",
    "cases needed for 80% power at +0.100: 289",
    "minimum detectable effect at 40 cases (80% power): +0.263",
    "289 cases exceed the 199 official cases the selection rule finds eligible in the dataset",
  ]);
  const large = { ...PUBLISHED, effect: 0.3 };
  const fits = planLines(large, { ...plan(large), eligible: 199 });
  assertEquals(
    fits.at(-1),
    "30 cases fit in the 199 official cases the selection rule finds eligible in the dataset",
  );
});

Deno.test("without the dataset, the pinned dataset's public bound: an upper bound, and --dataset for the count", () => {
  const lines = planLines(PUBLISHED, { ...plan(PUBLISHED), eligible_upper_bound: 199 });
  assertEquals(
    lines.at(-1),
    "289 cases exceed what the pinned dataset can give: at most 199 official cases are eligible (its public " +
      "question counts of the eligible types, abstentions out, before the length filters); --dataset PATH " +
      "gives the exact count",
  );
  const large = { ...PUBLISHED, effect: 0.3 };
  assertEquals(
    planLines(large, { ...plan(large), eligible_upper_bound: 199 }).at(-1),
    "30 cases are within the pinned dataset's upper bound of 199 eligible official cases (its public question " +
      "counts of the eligible types, abstentions out, before the length filters); --dataset PATH says whether " +
      "they fit",
  );
});
