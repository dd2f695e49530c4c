/**
 * Many candidates, one verdict: Holm's step-down adjustment against hand-computed values, and the table's
 * statistics, order and refusals on small made-up runs.
 */

import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { holmAdjust } from "../../../lib/qa/grade/holm.ts";
import {
  type CandidateRunInput,
  manyCandidates,
  renderManyCandidates,
} from "../../../lib/report/compare/many_candidates.ts";
import { InputError } from "../../../lib/base/errors.ts";
import { exactMcnemar } from "../../../lib/qa/grade/stats.ts";

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
