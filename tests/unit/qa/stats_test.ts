import { parseConfig } from "../../../lib/protocol/config.ts";
import { EMBEDDED_ARTIFACTS } from "../../../lib/protocol/contracts.ts";
import { PythonRandom } from "../../../lib/py/random.ts";
import { exactMcnemar, pairedBootstrapDifference } from "../../../lib/qa/grade/stats.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

Deno.test("exact McNemar: 1 vs 13 discordant pairs gives the published p", () => {
  const pairs: [boolean, boolean][] = [
    ...Array(22).fill([true, true]),
    ...Array(4).fill([false, false]),
    [true, false],
    ...Array(13).fill([false, true]),
  ];
  const result = exactMcnemar(pairs);
  assertEquals(result.p_value, 0.0018310546875);
  assertEquals([result.only_first_correct, result.only_second_correct], [1, 13]);
  assertEquals(exactMcnemar([[true, true]]).p_value, 1);
});

Deno.test("the bootstrap is seeded: same seed, same interval; its draws are Python's", () => {
  const pairs: [boolean, boolean][] = [[false, true], [true, true], [false, false], [false, true], [
    true,
    false,
  ]];
  const a = pairedBootstrapDifference(pairs, { seed: 4789, iterations: 500, alpha: 0.05 });
  const b = pairedBootstrapDifference(pairs, { seed: 4789, iterations: 500, alpha: 0.05 });
  assertEquals(a, b);
  // Accuracies subtract after division, as in the reference: 3/5 - 2/5, not 1/5.
  assertEquals(a.mean_difference, 0.19999999999999996);
  assertThrows(() => pairedBootstrapDifference([], { seed: 1, iterations: 1, alpha: 0.05 }), RangeError);
  assertEquals(new PythonRandom(0n).randrange(1000), 864);
});

Deno.test("bootstrap seeds of any size give the reference's statistics (2^53 + 1 and 2^64 + 5)", () => {
  const pairs: [boolean, boolean][] = [
    [false, true],
    [true, true],
    [false, false],
    [false, true],
    [true, false],
    [false, true],
    [true, true],
    [false, false],
  ];
  // paired_bootstrap_difference(pairs, seed=…, iterations=5, alpha=0.5) under CPython 3.11.7.
  const expected: [string, number, number][] = [
    ["9007199254740993", 0.375, 0.5],
    ["18446744073709551621", 0.125, 0.125],
  ];
  for (const [seedText, lower, upper] of expected) {
    const text = EMBEDDED_ARTIFACTS["configs/pr4789-reproduction-v1.yaml"].replace(
      "bootstrap_seed: 4789",
      `bootstrap_seed: ${seedText}`,
    );
    const seed = parseConfig(text, "c.yaml").statistics.bootstrap_seed;
    assertEquals(seed, BigInt(seedText));
    assertEquals(pairedBootstrapDifference(pairs, { seed, iterations: 5, alpha: 0.5 }), {
      mean_difference: 0.25,
      lower,
      upper,
    });
  }
});
