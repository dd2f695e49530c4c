/**
 * Many candidates, one verdict: Holm's step-down adjustment against hand-computed values, and the table's
 * statistics, order and refusals on small made-up runs.
 */

import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { holmAdjust } from "../../../lib/qa/grade/holm.ts";
import { type CandidateRunInput, manyCandidates } from "../../../lib/report/compare/many_candidates.ts";
import { renderManyCandidates } from "../../../lib/report/compare/many_page.ts";
import { InputError } from "../../../lib/base/errors.ts";
import { exactMcnemar, pairedBootstrapDifference } from "../../../lib/qa/grade/stats.ts";
import { caseBootstrap } from "../../../lib/qa/grade/case_stats.ts";

Deno.test("holmAdjust: step-down adjusted p values, in the input's order", () => {
  // Sorted: 0.01, 0.03, 0.04 with m = 3: 3·0.01 = 0.03; 2·0.03 = 0.06; 1·0.04 = 0.04, raised to the running
  // maximum 0.06. Back in input order [0.01, 0.04, 0.03] → [0.03, 0.06, 0.06].
  assertEquals(holmAdjust([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06]);
  // Sorted: 0.2, 0.5 with m = 2: 2·0.2 = 0.4; 1·0.5 = 0.5 → input order [0.5, 0.2] → [0.5, 0.4].
  assertEquals(holmAdjust([0.5, 0.2]), [0.5, 0.4]);
  // 2·0.6 = 1.2 is capped at 1; 0.7 is raised to the running maximum 1.
  assertEquals(holmAdjust([0.6, 0.7]), [1, 1]);
  // One test: unadjusted.
  assertEquals(holmAdjust([0.25]), [0.25]);
  assertEquals(holmAdjust([]), []);
});

/** A run of `n` cases whose baseline is right on the first `base` and the candidate on the first `cand`. */
function run(
  name: string,
  n: number,
  base: number,
  cand: number,
  baseline = "confidence",
): CandidateRunInput {
  const rows = [];
  for (let index = 0; index < n; index++) {
    const case_id = `c${String(index).padStart(2, "0")}`;
    rows.push({ case_id, policy: baseline, grade_correct: index < base });
    rows.push({ case_id, policy: name, grade_correct: index < cand });
  }
  return { directory: `runs/${name}`, baseline, candidate: name, rows };
}

const STATS = { bootstrap_seed: 4789, bootstrap_iterations: 2000, alpha: 0.05 };

Deno.test("manyCandidates: each candidate against the baseline, Holm across them, the best-supported first", () => {
  const runs = [run("weak", 20, 10, 11), run("strong", 20, 5, 15), run("worse", 20, 10, 8)];
  const table = manyCandidates(runs, STATS);
  assertEquals(table.baseline, "confidence");
  assertEquals(table.rows.map((row) => row.candidate), ["strong", "weak", "worse"]);
  const raw = runs.map((entry) => {
    const byCase = new Map<string, boolean[]>();
    for (const row of entry.rows) {
      byCase.set(row.case_id, [...(byCase.get(row.case_id) ?? []), row.grade_correct]);
    }
    return exactMcnemar([...byCase.values()].map(([first, second]) => [first, second] as const)).p_value;
  });
  const strong = table.rows[0];
  assertEquals([strong.candidateCorrect, strong.baselineCorrect, strong.cases], [15, 5, 20]);
  assertEquals(strong.pValue, raw[1]);
  assertEquals(table.rows.map((row) => row.holmP), holmAdjust([raw[1], raw[0], raw[2]]));
  assertEquals(strong.difference.mean_difference, 0.5);
});

Deno.test("manyCandidates refuses runs with different baselines, or a candidate twice, in one line", () => {
  const error = assertThrows(
    () => manyCandidates([run("a", 4, 2, 3), run("b", 4, 2, 3, "hybrid-v1")], STATS),
    InputError,
  );
  assertEquals(
    error.message,
    "runs/b: compared with hybrid-v1, but runs/a with confidence: many candidates are compared against one baseline",
  );
  assertThrows(() => manyCandidates([run("a", 4, 2, 3)], STATS), InputError, "at least two runs");
});

Deno.test("manyCandidates against a reference run: on the cases both have, Holm across the candidates", () => {
  const runs = [run("a", 6, 2, 5), run("b", 6, 2, 3)];
  // The reference has cases c00–c03 only (c04, c05 not shared), its hybrid-v1 right on c00 and c01.
  const reference = {
    name: "the published run",
    policy: "hybrid-v1",
    rows: [0, 1, 2, 3].map((index) => ({
      case_id: `c0${index}`,
      policy: "hybrid-v1",
      grade_correct: index < 2,
    })),
  };
  const table = manyCandidates(runs, STATS, reference);
  assertEquals(table.reference, { policy: "hybrid-v1", name: "the published run" });
  const [first, second] = table.rows;
  assertEquals([first.candidate, second.candidate], ["a", "b"]);
  // a on c00–c03: right on all four, reference on two: discordant 0 vs 2 → exact McNemar p = 2·(1/4) = 0.5.
  assertEquals(
    [first.reference!.cases, first.reference!.baselineCorrect, first.reference!.candidateCorrect],
    [4, 2, 4],
  );
  assertEquals(first.reference!.pValue, 0.5);
  // b on c00–c03: right on c00–c02, so one discordant pair (c02) → p = 1; Holm: sorted 0.5·2 = 1, then 1.
  assertEquals(second.reference!.pValue, 1);
  assertEquals([first.reference!.holmP, second.reference!.holmP], [1, 1]);
  assertEquals(first.reference!.difference.mean_difference, 0.5);
});

Deno.test("the many-candidates page prints a p below 0.0001 as < 0.0001 in every format, never 0.0000", () => {
  // 20 discordant pairs all won by the candidate: p = 2 / 2^20, and Holm's for two candidates twice that.
  const table = manyCandidates([run("strong", 30, 0, 20), run("also", 30, 0, 20)], STATS);
  assertEquals(table.rows[0].pValue < 0.0001, true);
  for (const format of ["text", "markdown", "html"] as const) {
    const page = renderManyCandidates(table, format);
    assertEquals(page.includes("0.0000"), false, format);
    assertEquals(
      page.includes(format === "markdown" ? "\\< 0.0001" : format === "html" ? "&lt; 0.0001" : "< 0.0001"),
      true,
      format,
    );
  }
});

/** Holm's step-down adjustment written out here, independent of `holmAdjust`: rank, scale, running maximum. */
function holmByHand(pValues: readonly number[]): number[] {
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const adjusted: number[] = new Array(pValues.length);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

/** The two-sided sign-flip p by exact enumeration of all 2^m sign assignments of the nonzero differences. */
function signFlipByEnumeration(differences: readonly number[]): number {
  const nonzero = differences.filter((d) => d !== 0);
  const observed = Math.abs(nonzero.reduce((sum, d) => sum + d, 0));
  let extreme = 0;
  for (let mask = 0; mask < 2 ** nonzero.length; mask++) {
    const sum = nonzero.reduce((total, d, bit) => total + ((mask >> bit) & 1 ? -d : d), 0);
    if (Math.abs(sum) >= observed) extreme++;
  }
  return extreme / 2 ** nonzero.length;
}

/** K runs of `n` cases: in run r the baseline is right on the first `base[r]`, the candidate on `cand[r]`. */
function kRun(name: string, n: number, base: readonly number[], cand: readonly number[]): CandidateRunInput {
  const epochs = base.map((right, index) => run(name, n, right, cand[index]).rows);
  return { directory: `runs/${name}`, baseline: "confidence", candidate: name, rows: epochs[0], epochs };
}

/** Each case's difference (candidate − baseline correct answers over the runs), counted here from the rows. */
function differencesOf(input: CandidateRunInput): number[] {
  const byCase = new Map<string, number>();
  for (const rows of input.epochs ?? [input.rows]) {
    for (const row of rows) {
      const sign = row.policy === input.candidate ? 1 : -1;
      byCase.set(row.case_id, (byCase.get(row.case_id) ?? 0) + sign * Number(row.grade_correct));
    }
  }
  return [...byCase.values()];
}

Deno.test("manyCandidates: a K-run candidate's p is the exact sign-flip p over its cases, its difference the case-level mean", () => {
  const three = kRun("three", 12, [4, 5, 4], [9, 7, 10]);
  const table = manyCandidates([three, run("one", 12, 4, 6)], STATS);
  const line = table.rows.find((row) => row.candidate === "three")!;
  const d = differencesOf(three);
  assertEquals(line.test, "exact-sign-flip");
  assertEquals([line.cases, line.candidateRuns, line.otherRuns], [12, 3, 3]); // cases, never 3 · 12
  assertEquals([line.baselineCorrect, line.candidateCorrect], [13, 26]);
  assertEquals(line.pValue, signFlipByEnumeration(d));
  assertEquals(line.difference.mean_difference, d.reduce((sum, x) => sum + x, 0) / (3 * 12));
  assertEquals(line.difference, caseBootstrap(d, 3, { seed: 4789, iterations: 2000, alpha: 0.05 }));
});

Deno.test("manyCandidates: a one-run candidate keeps its exact McNemar numbers beside K-run candidates", () => {
  const one = run("one", 12, 4, 6);
  const alone = manyCandidates([one, run("other", 12, 4, 5)], STATS).rows.find((row) =>
    row.candidate === "one"
  )!;
  const mixed = manyCandidates([one, kRun("three", 12, [4, 5, 4], [9, 7, 10])], STATS).rows
    .find((row) => row.candidate === "one")!;
  const pairs = Array.from({ length: 12 }, (_, index) => [index < 4, index < 6] as const);
  assertEquals(mixed.test, "exact-mcnemar");
  assertEquals([mixed.candidateRuns, mixed.otherRuns], [1, 1]);
  assertEquals(mixed.pValue, exactMcnemar(pairs).p_value);
  assertEquals(mixed.pValue, alone.pValue);
  assertEquals(
    mixed.difference,
    pairedBootstrapDifference(pairs, { seed: 4789, iterations: 2000, alpha: 0.05 }),
  );
  assertEquals(mixed.difference, alone.difference);
});

Deno.test("manyCandidates: candidates of different K, each row its own test, Holm over their p values (checked by hand)", () => {
  const runs = [
    kRun("k3", 10, [3, 3, 4], [8, 6, 7]),
    run("k1", 10, 3, 5),
    kRun("k2", 10, [3, 2], [4, 3]),
  ];
  const table = manyCandidates(runs, STATS);
  const raw = runs.map((input) =>
    input.epochs === undefined
      ? exactMcnemar(Array.from({ length: 10 }, (_, i) => [i < 3, i < 5] as const)).p_value
      : signFlipByEnumeration(differencesOf(input))
  );
  const holm = holmByHand(raw);
  for (const [index, input] of runs.entries()) {
    const line = table.rows.find((row) => row.candidate === input.candidate)!;
    assertEquals(line.pValue, raw[index], input.candidate);
    assertEquals(line.holmP, holm[index], input.candidate);
    assertEquals(line.candidateRuns, input.epochs?.length ?? 1);
  }
  // By hand: k3's d = (0, 0, 0, 2, 3, 3, 2, 1, 0, 0): 5 nonzero, all positive, p = 2/32; k1's McNemar, 2
  // discordant both the candidate's, p = 0.5; k2's d = (0, 0, 1, 1, 0, …), p = 2/4. Holm: 3 · 2/32, then 1, 1.
  assertEquals(raw, [2 / 32, 0.5, 0.5]);
  assertEquals(holm, [0.1875, 1, 1]);
});

Deno.test("manyCandidates: K copies of one run give that run's cases and its McNemar p, never a smaller one", () => {
  const single = run("copy", 16, 4, 10);
  const copies = { ...single, epochs: [single.rows, single.rows, single.rows] };
  const [line] = manyCandidates([copies, run("other", 16, 4, 5)], STATS).rows;
  assertEquals(line.candidate, "copy");
  assertEquals(line.cases, 16);
  assertEquals(
    line.pValue,
    exactMcnemar(Array.from({ length: 16 }, (_, i) => [i < 4, i < 10] as const)).p_value,
  );
});

Deno.test("manyCandidates: a K-run candidate whose runs do not hold the same cases is refused in one line", () => {
  const broken = kRun("broken", 6, [2, 2], [3, 3]);
  const epochs = [broken.epochs![0], broken.epochs![1].filter((row) => row.case_id !== "c05")];
  const error = assertThrows(
    () => manyCandidates([{ ...broken, epochs }, run("b", 6, 2, 3)], STATS),
    InputError,
  );
  assertEquals(
    error.message,
    "runs/broken: the runs do not hold the same cases: run 2 has no row for c05 under confidence",
  );
});

Deno.test("manyCandidates: a K-run candidate against the one-run reference puts the reference on its scale (d = count − K · reference)", () => {
  const three = kRun("three", 8, [2, 2, 2], [6, 5, 7]);
  // The reference's hybrid-v1 right on c00–c03.
  const reference = {
    name: "the published run",
    policy: "hybrid-v1",
    rows: Array.from({ length: 8 }, (_, index) => ({
      case_id: `c0${index}`,
      policy: "hybrid-v1",
      grade_correct: index < 4,
    })),
  };
  const table = manyCandidates([three, run("one", 8, 2, 3)], STATS, reference);
  const line = table.rows.find((row) => row.candidate === "three")!.reference!;
  // three's counts per case: c00–c04 3, c05 2, c06 1, c07 0; the reference's 1 on c00–c03 counts 3 each.
  const d = [0, 0, 0, 0, 3, 2, 1, 0];
  assertEquals([line.test, line.candidateRuns, line.otherRuns, line.cases], ["exact-sign-flip", 3, 1, 8]);
  assertEquals([line.baselineCorrect, line.candidateCorrect], [4, 18]);
  assertEquals(line.pValue, signFlipByEnumeration(d)); // 3 nonzero, all positive: 2/8
  assertEquals(line.pValue, 0.25);
  assertEquals(line.difference, caseBootstrap(d, 3, { seed: 4789, iterations: 2000, alpha: 0.05 }));
  assertEquals(line.difference.mean_difference, 6 / 24);
});
