/**
 * `explain CASE_ID`: one case's pool under both policies — each fact's id, role, every score component, its
 * rank and whether it is kept at every capacity — so a reader sees why a policy lost the support; with a QA
 * directory, also both predictions and grades. Fact text only on request, for the terminal alone.
 *
 * @module
 */

import type { ProtocolConfig } from "../protocol/config.ts";
import { InputError } from "../base/errors.ts";
import {
  type EvictionPolicy,
  rankOrder,
  type ScoreComponents,
  selectFactsForCapacity,
} from "../policy/mod.ts";
import { readTextIfExists } from "../base/fs.ts";
import { gradeAnswer } from "../qa/grading.ts";
import { evaluateCase, hybridParams, POLICIES } from "../policy/mod.ts";
import { buildPool } from "../protocol/pool.ts";
import type { PreparedCase } from "../protocol/cases.ts";
import { parseGradedRows } from "../qa/mod.ts";
import { tableLines } from "./report.ts";
import { parseAnswerRow, responsePath } from "../qa/mod.ts";
import { type ContractPaths, prepareDataset, readContracts } from "../protocol/prepare.ts";

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
}

/**
 * Explains one case of the prepared protocol; an unknown id is an {@linkcode InputError}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { explainCase } from "./explain.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const explanation = explainCase(prepared.cases, "correction_language", contracts.config); // a synthetic case
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
  const capacities = [...config.pool.capacities];
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
    // Capacity 0 ranks every fact without keeping any: the scores and the order the selector uses.
    const ranking = selectFactsForCapacity(pool.facts, {
      maxFacts: 0,
      policy,
      now: config.evaluation_time,
      usage: pool.usage,
      params: hybridParams(config),
    });
    const values = Float64Array.from(pool.facts, (fact) => ranking.scores.get(fact.id)!.value);
    const ranks = new Map<number, number>();
    rankOrder(values).forEach((index, position) => ranks.set(index, position + 1));
    const kept = capacities.map((capacity) =>
      evaluateCase(prepared, policy as EvictionPolicy, capacity, config, pool)
    );
    reservedSlots[policy] = Object.fromEntries(
      kept.map((result) => [result.capacity, Number(result.row.reserved_correction_slots)]),
    );
    facts.forEach((fact, index) => {
      const score = ranking.scores.get(fact.id)!;
      fact.policies[policy] = {
        score: score.value,
        components: score.components,
        rank: ranks.get(index)!,
        keptAt: kept.filter((result) => result.keptFacts.some((item) => item.id === fact.id))
          .map((result) => result.capacity),
      };
    });
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
    capacities,
    qaCapacity: config.pool.qa_capacity,
    facts,
    reservedSlots,
  };
}

/** What `explain` reads: the protocol's files, the dataset, the case and, optionally, a QA run directory. */
export interface ExplainRequest {
  contracts: ContractPaths;
  dataset: string | undefined;
  caseId: string;
  /** A QA run whose two predictions and grades to show. */
  directory?: string;
}

/**
 * The `explain` stage: loads the contracts, prepares the dataset, explains the case's pool and, with a run
 * directory, adds the two predictions and their grades.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { InputError } from "../base/errors.ts";
 * import { explain } from "./explain.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const dir = await Deno.makeTempDir();
 * for (const [name, body] of [["c.yaml", demo.config], ["o.json", demo.official], ["s.json", demo.synthetic]]) {
 *   await Deno.writeTextFile(`${dir}/${name}`, body);
 * }
 * await Deno.writeFile(`${dir}/data.json`, demo.dataset);
 * const contracts = { config: `${dir}/c.yaml`, officialManifest: `${dir}/o.json`, syntheticManifest: `${dir}/s.json` };
 * const explanation = await explain({ contracts, dataset: `${dir}/data.json`, caseId: "correction_language" });
 * strictEqual(explanation.scenario, "correction_reserve");
 * await rejects(explain({ contracts, dataset: `${dir}/data.json`, caseId: "no-such-case" }), InputError);
 * ```
 */
export async function explain(request: ExplainRequest): Promise<CaseExplanation> {
  const contracts = await readContracts(request.contracts);
  const prepared = await prepareDataset(contracts, request.dataset);
  const explanation = explainCase(prepared.cases, request.caseId, contracts.config);
  if (request.directory !== undefined) {
    explanation.answers = await readCaseAnswers(request.directory, explanation, contracts.config);
  }
  return explanation;
}

/**
 * Reads both policies' answers to the case from a QA directory: from `qa.rows.jsonl` when it exists, else from
 * the row files (graded here, blindly, against the recomputed reference answer).
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { InputError } from "../base/errors.ts";
 * import { type CaseExplanation, readCaseAnswers } from "./explain.ts";
 * const explanation: CaseExplanation = {
 *   caseId: "q1", source: "longmemeval", scenario: "access_help", questionType: "t", question: "Q?", referenceAnswer: "A",
 *   lossRank: 1, capacities: [5, 7, 9], qaCapacity: 7, facts: [], reservedSlots: {},
 * };
 * const { config } = loadContracts(embeddedSources());
 * // Without qa.rows.jsonl it grades the two row files in responses/, and a missing one is bad input.
 * await rejects(readCaseAnswers(await Deno.makeTempDir(), explanation, config), InputError);
 * ```
 */
export async function readCaseAnswers(
  directory: string,
  explanation: CaseExplanation,
  config: ProtocolConfig,
): Promise<Record<string, CaseAnswer>> {
  const keptAtQa = (policy: string) =>
    explanation.facts.filter((fact) => fact.policies[policy].keptAt.includes(explanation.qaCapacity))
      .map((fact) => fact.id).sort();
  const same = (policy: string, kept: readonly string[]) =>
    JSON.stringify([...kept].sort()) === JSON.stringify(keptAtQa(policy));
  const answers: Record<string, CaseAnswer> = {};
  const gradedPath = `${directory}/qa.rows.jsonl`;
  const graded = await readTextIfExists(gradedPath);
  if (graded !== undefined) {
    const rows = parseGradedRows(graded, gradedPath, config);
    for (const policy of POLICIES) {
      const row = rows.find((item) => item.case_id === explanation.caseId && item.policy === policy);
      if (row === undefined) {
        throw new InputError(`no row for ${explanation.caseId} under ${policy}`, { path: gradedPath });
      }
      answers[policy] = {
        prediction: row.prediction,
        correct: row.grade_correct,
        rule: row.grade_rule,
        from: "qa.rows.jsonl",
        matchesRecomputed: same(policy, row.kept_fact_ids),
      };
    }
    return answers;
  }
  for (const policy of POLICIES) {
    const path = responsePath(directory, `${explanation.caseId}__${policy}`);
    const text = await readTextIfExists(path);
    if (text === undefined) throw new InputError("missing: no answer row for this case", { path });
    const row = parseAnswerRow(text, path);
    const grade = gradeAnswer(row.prediction, explanation.referenceAnswer);
    answers[policy] = {
      prediction: row.prediction,
      correct: grade.correct,
      rule: grade.rule,
      from: `responses/${row.row_id}.json`,
      matchesRecomputed: same(policy, row.kept_fact_ids),
    };
  }
  return answers;
}

function fixed(value: number | undefined): string {
  return value === undefined ? "–" : value.toFixed(4);
}

/**
 * The explanation for the terminal. Fact text, the question and the reference answer appear only with
 * `showText` (the dataset's text is not ours to redistribute).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { explainCase, explainText } from "./explain.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const explanation = explainCase(prepared.cases, "correction_language", contracts.config);
 * strictEqual(explainText(explanation, { showText: false }).includes(explanation.question), false); // ids and scores only
 * strictEqual(explainText(explanation, { showText: true }).includes(explanation.question), true);
 * ```
 */
export function explainText(explanation: CaseExplanation, options: { showText: boolean }): string {
  const [first, second] = POLICIES;
  const keptAt = (fact: FactExplanation, policy: string) =>
    explanation.capacities.map((capacity) => fact.policies[policy].keptAt.includes(capacity) ? "k" : "·")
      .join("");
  const capacityHint = explanation.capacities.join("/");
  const lines = [
    `case ${explanation.caseId}: ${explanation.source}, scenario ${explanation.scenario}, ${explanation.questionType}, loss rank ${explanation.lossRank}`,
    `pool of ${explanation.facts.length} facts, ordered by ${second} rank; kept at capacity ${capacityHint}: k = kept, · = evicted; ${second} score = weighted confidence, confirmation freshness and access heat`,
    "",
    ...tableLines({
      headers: [
        "fact",
        "role",
        "category",
        `${first} score`,
        "rank",
        `kept ${capacityHint}`,
        "confidence",
        "confirmation",
        "access",
        `${second} score`,
        "rank",
        `kept ${capacityHint}`,
      ],
      rows: explanation.facts.map((fact) => {
        const a = fact.policies[first];
        const b = fact.policies[second];
        return [
          fact.id,
          fact.role,
          fact.category,
          fixed(a.score),
          String(a.rank),
          keptAt(fact, first),
          fixed(b.components.confidence),
          fixed(b.components.confirmationFreshness),
          fixed(b.components.accessHeat),
          fixed(b.score),
          String(b.rank),
          keptAt(fact, second),
        ];
      }),
      numeric: [false, false, false, true, true, false, true, true, true, true, true, false],
    }),
    "",
  ];
  for (const fact of explanation.facts.filter((item) => item.role === "support")) {
    for (const policy of POLICIES) {
      const under = fact.policies[policy];
      const lost = explanation.capacities.filter((capacity) => !under.keptAt.includes(capacity));
      lines.push(
        `support ${fact.id} under ${policy}: rank ${under.rank}, ${
          lost.length === 0 ? "kept at every capacity" : `evicted at capacity ${lost.join(", ")}`
        }`,
      );
    }
  }
  for (const policy of POLICIES) {
    const slots = explanation.capacities.map((capacity) => explanation.reservedSlots[policy][capacity]);
    if (slots.some((count) => count > 0)) {
      lines.push(`${policy} reserved correction slots at capacity ${capacityHint}: ${slots.join("/")}`);
    }
  }
  if (explanation.answers !== undefined) {
    lines.push("", `answers at capacity ${explanation.qaCapacity}:`);
    for (const policy of POLICIES) {
      const answer = explanation.answers[policy];
      lines.push(
        `  ${policy.padEnd(10)}  ${answer.correct ? "correct" : "wrong  "} (${answer.rule})  ${
          JSON.stringify(answer.prediction)
        }  [${answer.from}${answer.matchesRecomputed ? "" : "; kept facts differ from the recomputed ones"}]`,
      );
    }
  }
  if (options.showText) {
    lines.push("", "text (from the dataset; shown here only, never written to a file):");
    lines.push(`  question: ${explanation.question}`, `  reference answer: ${explanation.referenceAnswer}`);
    for (const fact of explanation.facts) lines.push(`  ${fact.id}: ${fact.content.replace(/\s+/g, " ")}`);
  } else {
    lines.push("", "fact text, the question and the reference answer: pass --show-text (terminal only)");
  }
  return lines.join("\n");
}
