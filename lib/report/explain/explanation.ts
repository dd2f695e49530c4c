/**
 * One case's pool explained under both policies: each fact's role, every score component, its rank and the
 * capacities at which it is kept, and the correction slots each policy reserved. Pure over the prepared case.
 *
 * @module
 */

import { buildPool, type Pool, type PreparedCase, type ProtocolConfig } from "../../protocol/mod.ts";
import { InputError } from "../../base/mod.ts";
import {
  evaluateCase,
  type EvictionPolicy,
  hybridParams,
  POLICIES,
  rankOrder,
  type ScoreComponents,
  selectFactsForCapacity,
  selectionOptions,
} from "../../policy/mod.ts";

/** One fact under one policy. */
export interface FactUnderPolicy {
  score: number;
  components: ScoreComponents;
  /** 1-based position in the policy's ranking (score descending, ties by pool order). */
  rank: number;
  /** Capacities at which the policy keeps the fact. */
  keptAt: number[];
}

/** One fact of the pool. */
export interface FactExplanation {
  id: string;
  role: "support" | "distractor";
  category: string;
  content: string;
  policies: Record<string, FactUnderPolicy>;
}

/** One policy's answer from a QA directory. */
export interface CaseAnswer {
  prediction: string;
  correct: boolean;
  rule: string;
  /** Where it was read: `qa.rows.jsonl` (graded there) or a row file (graded here, blindly). */
  from: string;
  /** Whether the row's kept facts equal the recomputed ones at the QA capacity. */
  matchesRecomputed: boolean;
}

/** A case explained. */
export interface CaseExplanation {
  caseId: string;
  source: string;
  scenario: string;
  questionType: string;
  question: string;
  referenceAnswer: string;
  lossRank: number;
  capacities: number[];
  qaCapacity: number;
  facts: FactExplanation[];
  /** Correction slots each policy reserved, per capacity. */
  reservedSlots: Record<string, Record<number, number>>;
  answers?: Record<string, CaseAnswer>;
  /** A candidate policy's view of the pool (`explain --policy-module`). */
  candidate?: CandidateView;
}

/** One policy on the pool: each fact's score, rank and capacities kept (in pool order), and its reserved slots. */
function underPolicy(
  prepared: PreparedCase,
  pool: Pool,
  policy: EvictionPolicy,
  config: ProtocolConfig,
): { facts: FactUnderPolicy[]; reserved: Record<number, number> } {
  // Capacity 0 ranks every fact without keeping any: the scores and the order the selector uses.
  const ranking = selectFactsForCapacity(
    pool.facts,
    selectionOptions(
      policy,
      { capacity: 0, clock: config.evaluation_time, usage: pool.usage },
      hybridParams(config),
    ),
  );
  const values = Float64Array.from(pool.facts, (fact) => ranking.scores.get(fact.id)!.value);
  const ranks = new Map<number, number>();
  rankOrder(values).forEach((index, position) => ranks.set(index, position + 1));
  const kept = config.pool.capacities.map((capacity) =>
    evaluateCase(prepared, policy, capacity, config, pool)
  );
  const reserved = Object.fromEntries(
    kept.map((result) => [result.capacity, Number(result.row.reserved_correction_slots)]),
  );
  const facts = pool.facts.map((fact, index) => {
    const score = ranking.scores.get(fact.id)!;
    return {
      score: score.value,
      components: score.components,
      rank: ranks.get(index)!,
      keptAt: kept.filter((result) => result.keptFacts.some((item) => item.id === fact.id))
        .map((result) => result.capacity),
    };
  });
  return { facts, reserved };
}

/**
 * Explains one case of the prepared protocol; an unknown id is an {@linkcode InputError}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { explainCase } from "./explanation.ts";
 * const { cases, contracts } = await prepareDemoProtocol(await buildDemoProtocol()); // generated, not LongMemEval
 * const explanation = explainCase(cases, "correction_language", contracts.config); // a synthetic case
 * deepStrictEqual([explanation.source, explanation.capacities], ["synthetic", [5, 7, 9]]);
 * deepStrictEqual(explanation.facts.filter((fact) => fact.role === "support").length, 1);
 * deepStrictEqual(Object.keys(explanation.facts[0].policies), ["confidence", "hybrid-v1"]);
 * ```
 */
export function explainCase(
  cases: readonly PreparedCase[],
  caseId: string,
  config: ProtocolConfig,
): CaseExplanation {
  const prepared = cases.find((item) => item.caseId === caseId);
  if (prepared === undefined) {
    throw new InputError(
      `no case ${JSON.stringify(caseId)} in this protocol (it has ${cases.length} cases)`,
      {
        field: "CASE_ID",
      },
    );
  }
  const pool = buildPool(prepared, config.evaluation_time);
  const support = new Set(pool.supportFactIds);
  const facts: FactExplanation[] = pool.facts.map((fact) => ({
    id: fact.id,
    role: support.has(fact.id) ? "support" : "distractor",
    category: fact.category,
    content: fact.content,
    policies: {},
  }));
  const reservedSlots: Record<string, Record<number, number>> = {};
  for (const policy of POLICIES) {
    const view = underPolicy(prepared, pool, policy, config);
    reservedSlots[policy] = view.reserved;
    facts.forEach((fact, index) => fact.policies[policy] = view.facts[index]);
  }
  facts.sort((a, b) => a.policies[POLICIES[1]].rank - b.policies[POLICIES[1]].rank);
  return {
    caseId,
    source: prepared.source,
    scenario: prepared.scenario,
    questionType: prepared.questionType,
    question: prepared.question,
    referenceAnswer: prepared.answer,
    lossRank: prepared.lossRank,
    capacities: [...config.pool.capacities],
    qaCapacity: config.pool.qa_capacity,
    facts,
    reservedSlots,
  };
}

/** The candidate's view of the case, added to its explanation. */
export interface CandidateView {
  name: string;
  baseline: string;
  /** Per fact id: its score and rank at the QA capacity, the capacities it is kept at, its named components. */
  facts: Record<string, FactUnderPolicy & { named: Record<string, number> }>;
}
