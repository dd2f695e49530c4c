import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { PythonRandom } from "../../../lib/py/random.ts";
import { caseBootstrap, signFlipP } from "../../../lib/qa/grade/case_stats.ts";
import { epochStats, perCaseCounts } from "../../../lib/qa/grade/epochs.ts";
import { exactMcnemar, type Pair } from "../../../lib/qa/grade/stats.ts";
import type { GradedRow } from "../../../lib/qa/grade/graded_rows.ts";
import { graded } from "../../../lib/qa/grade/_samples.ts";
import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";

const { config } = await loadContracts(embeddedSources());

/** The sign-flip p by brute force: every one of the 2^n sign vectors, written apart from the module's count. */
function bruteSignFlip(differences: readonly number[]): number {
  const n = differences.length;
  const observed = Math.abs(differences.reduce((sum, d) => sum + d, 0));
  let atLeast = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (mask >> i) & 1 ? -differences[i] : differences[i];
    if (Math.abs(sum) >= observed) atLeast++;
  }
  return atLeast / 2 ** n;
}

/** A small deterministic generator for test inputs (not the module's). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

Deno.test("the sign-flip p equals brute-force enumeration of all sign vectors (K up to 5, up to 14 cases)", () => {
  const next = lcg(38);
  for (let trial = 0; trial < 300; trial++) {
    const k = 1 + Math.floor(next() * 5);
    const n = Math.floor(next() * 15);
    const differences = Array.from({ length: n }, () => Math.floor(next() * (2 * k + 1)) - k);
    // Zero differences flip to themselves: brute force over all n counts each assignment twice, same ratio.
    assertEquals(signFlipP(differences), bruteSignFlip(differences), `trial ${trial}: ${differences}`);
  }
});

Deno.test("with K = 1 the sign-flip p is the exact McNemar p, for every split of up to 16 cases", () => {
  for (let n = 0; n <= 16; n++) {
    for (let onlyFirst = 0; onlyFirst <= n; onlyFirst++) {
      for (let onlySecond = 0; onlyFirst + onlySecond <= n; onlySecond++) {
        const pairs: Pair[] = [
          ...Array<Pair>(onlyFirst).fill([true, false]),
          ...Array<Pair>(onlySecond).fill([false, true]),
          ...Array<Pair>(n - onlyFirst - onlySecond).fill([true, true]),
        ];
        const differences = pairs.map(([first, second]) => Number(second) - Number(first));
        assertEquals(
          signFlipP(differences),
          exactMcnemar(pairs).p_value,
          `${onlyFirst} vs ${onlySecond} of ${n}`,
        );
      }
    }
  }
  // The #4810 run: 1 vs 13 discordant pairs.
  assertEquals(signFlipP([-1, ...Array(13).fill(1), ...Array(26).fill(0)]), 0.0018310546875);
});

Deno.test("the case bootstrap resamples cases with Python's randrange and reads the percentile interval", () => {
  const differences = [2, -1, 0, 3, 1, 0, -2, 1];
  const runs = 3;
  const options = { seed: 4789, iterations: 400, alpha: 0.1 };
  const result = caseBootstrap(differences, runs, options);
  // Independently: one randrange at a time, sum the drawn cases' differences, divide by K · cases.
  const random = new PythonRandom(4789n);
  const means: number[] = [];
  for (let i = 0; i < options.iterations; i++) {
    let sum = 0;
    for (let j = 0; j < differences.length; j++) sum += differences[random.randrange(differences.length)];
    means.push(sum / (runs * differences.length));
  }
  means.sort((a, b) => a - b);
  assertEquals(result, {
    mean_difference: 4 / 24,
    lower: means[20], // floor(0.05 · 400)
    upper: means[379], // floor(0.95 · 400) − 1
  });
  assertEquals(caseBootstrap(differences, runs, options), result);
  assertThrows(() => caseBootstrap([1], 0, options), RangeError);
  assertThrows(() => caseBootstrap([1], 1, { ...options, alpha: 1 }), RangeError);
});

function run(outcomes: readonly [string, "longmemeval" | "synthetic", boolean, boolean][]): GradedRow[] {
  return outcomes.flatMap(([id, source, first, second]) => [
    graded(id, "confidence", first, source),
    graded(id, "hybrid-v1", second, source),
  ]);
}

const RUN_A = run([
  ["q1", "longmemeval", false, true],
  ["q2", "longmemeval", true, true],
  ["q3", "longmemeval", false, true],
  ["s1", "synthetic", true, false],
  ["s2", "synthetic", false, true],
]);
const RUN_B = run([
  ["q1", "longmemeval", false, false],
  ["q2", "longmemeval", true, true],
  ["q3", "longmemeval", true, true],
  ["s1", "synthetic", true, false],
  ["s2", "synthetic", false, true],
]);

Deno.test("per case: correct counts 0..K per policy, d = candidate − baseline, flips per policy", () => {
  const stats = epochStats([RUN_A, RUN_B, RUN_A], config);
  assertEquals(stats.epochs, 3);
  assertEquals(perCaseCounts([RUN_A, RUN_B, RUN_A]), stats.per_case);
  assertEquals(
    stats.per_case.map((c) => [c.case_id, c.suite, c.correct.confidence, c.correct["hybrid-v1"]]),
    [
      ["q1", "official", 0, 2],
      ["q2", "official", 3, 3],
      ["q3", "official", 1, 3],
      ["s1", "synthetic", 3, 0],
      ["s2", "synthetic", 0, 3],
    ],
  );
  // q3 flips under confidence; q1 under hybrid-v1.
  assertEquals(stats.flips, { confidence: 1, "hybrid-v1": 1 });
  const overall = stats.case_level.find((s) => s.suite === "overall")!;
  // d = [2, 0, 2, −3, 3]: sum 4 over 3 · 5 answers.
  assertEquals(overall.cases, 5);
  assertEquals(overall.difference, 4 / 15);
  assertEquals(overall.p, bruteSignFlip([2, 0, 2, -3, 3]));
  assertEquals(stats.case_level.map((s) => [s.suite, s.cases]), [["official", 3], ["synthetic", 2], [
    "overall",
    5,
  ]]);
  assert(overall.interval[0] <= overall.difference && overall.difference <= overall.interval[1]);
});

Deno.test("per run: each run's own exact McNemar and correct counts, one row per run", () => {
  const stats = epochStats([RUN_A, RUN_B], config);
  assertEquals(stats.per_epoch.map((row) => row.run), [1, 2]);
  const official = stats.per_epoch.map((row) => row.suites.official);
  assertEquals(official.map((s) => [s.cases, s.correct.confidence, s.correct["hybrid-v1"]]), [[3, 1, 3], [
    3,
    2,
    2,
  ]]);
  assertEquals(
    official[0].mcnemar,
    exactMcnemar([[false, true], [true, true], [false, true]]),
  );
  assertEquals(stats.per_epoch[1].suites.overall.mcnemar.only_first_correct, 1); // s1
});

Deno.test("K copies of one run: the same case count, the one run's McNemar p, no flips", () => {
  const one = epochStats([RUN_A], config);
  for (const k of [2, 5]) {
    const copies = epochStats(Array(k).fill(RUN_A), config);
    for (const [at, suite] of copies.case_level.entries()) {
      assertEquals(suite.cases, one.case_level[at].cases);
      assertEquals(suite.p, one.case_level[at].p);
      assertEquals(suite.p, one.per_epoch[0].suites[suite.suite].mcnemar.p_value);
      assertEquals(suite.difference, one.case_level[at].difference);
    }
    assertEquals(copies.flips, { confidence: 0, "hybrid-v1": 0 });
  }
});

Deno.test("runs that do not hold the same rows are refused", () => {
  assertThrows(() => epochStats([], config), RangeError);
  assertThrows(() => epochStats([RUN_A, RUN_A.slice(2)], config), RangeError);
});
