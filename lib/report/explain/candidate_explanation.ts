/**
 * A candidate policy on one case's pool, beside its baseline, for `explain --policy-module`: each fact's score,
 * rank and the capacities it is kept at under the candidate, from the candidate's checked decisions.
 *
 * @module
 */

import { type PolicyResult, rankOrder } from "../../policy/mod.ts";
import { PyFloat } from "../../py/mod.ts";
import type { CandidateView, CaseExplanation } from "./explanation.ts";
import { tableLines } from "../render/text.ts";

function numberOf(value: unknown): number {
  return value instanceof PyFloat ? value.value : Number(value);
}

/**
 * The candidate's view of a case from its results on that case, one per capacity (as `evaluatePolicy` returns
 * them): scores and components as its decision at the QA capacity gave them, ranks by score (ties in pool order).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { evaluatePolicy, hybridPolicy, hybridParams } from "../../policy/mod.ts";
 * import { explainCase } from "./explanation.ts";
 * import { candidateView } from "./candidate_explanation.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), { config } = prepared.contracts;
 * const other = { ...hybridPolicy(hybridParams(config)), name: "hybrid-copy" };
 * const results = await evaluatePolicy(other, { ...prepared, cases: prepared.cases.slice(0, 1) });
 * const explanation = explainCase(prepared.cases, prepared.cases[0].caseId, config);
 * const view = candidateView(explanation, "confidence", results);
 * const fact = explanation.facts[0];
 * strictEqual(view.facts[fact.id].rank, fact.policies["hybrid-v1"].rank); // the same policy ranks alike
 * ```
 */
export function candidateView(
  explanation: CaseExplanation,
  baseline: string,
  results: readonly PolicyResult[],
): CandidateView {
  const atQa = results.find((result) => result.capacity === explanation.qaCapacity) ?? results[0];
  const scores = atQa.row.scores as Record<string, { value: unknown; components: Record<string, unknown> }>;
  const ids = atQa.pool.facts.map((fact) => fact.id);
  const ranks = new Map<string, number>();
  rankOrder(Float64Array.from(ids, (id) => numberOf(scores[id]?.value))).forEach((index, position) =>
    ranks.set(ids[index], position + 1)
  );
  const facts: CandidateView["facts"] = {};
  for (const id of ids) {
    const named = Object.fromEntries(
      Object.entries(scores[id]?.components ?? {}).map(([key, value]) => [key, numberOf(value)]),
    );
    facts[id] = {
      score: numberOf(scores[id]?.value),
      components: { confidence: Number.NaN },
      named,
      rank: ranks.get(id)!,
      keptAt: results.filter((result) => result.keptFacts.some((fact) => fact.id === id))
        .map((result) => result.capacity),
    };
  }
  return { name: atQa.policy, baseline, facts };
}

/** The candidate's table and where it keeps each support fact, for the terminal. */
export function candidateLines(explanation: CaseExplanation, view: CandidateView): string[] {
  const { name, baseline } = view;
  const capacities = explanation.capacities;
  const kept = (keptAt: readonly number[]) =>
    capacities.map((capacity) => keptAt.includes(capacity) ? "k" : "·").join("");
  const hint = capacities.join("/");
  const rows = explanation.facts.map((fact) => {
    const mine = view.facts[fact.id];
    const base = fact.policies[baseline];
    const named = Object.entries(mine.named).map(([key, value]) => `${key}=${value.toFixed(4)}`).join(" ");
    return [
      fact.id,
      fact.role,
      String(base.rank),
      kept(base.keptAt),
      mine.score.toFixed(4),
      String(mine.rank),
      kept(mine.keptAt),
      named || "–",
    ];
  });
  const lines = [
    "",
    `candidate ${name} against ${baseline}: score and rank as ${name}'s decision at capacity ${explanation.qaCapacity} gives them`,
    ...tableLines({
      headers: [
        "fact",
        "role",
        `${baseline} rank`,
        `kept ${hint}`,
        `${name} score`,
        "rank",
        `kept ${hint}`,
        "components",
      ],
      rows,
      numeric: [false, false, true, false, true, true, false, false],
    }),
  ];
  for (const fact of explanation.facts.filter((item) => item.role === "support")) {
    const mine = view.facts[fact.id];
    const lost = capacities.filter((capacity) => !mine.keptAt.includes(capacity));
    lines.push(
      `support ${fact.id} under ${name}: rank ${mine.rank}, ${
        lost.length === 0 ? "kept at every capacity" : `evicted at capacity ${lost.join(", ")}`
      }`,
    );
  }
  return lines;
}
