/**
 * `explain CASE_ID`: one case's pool under both policies — each fact's id, role, every score component, its
 * rank and whether it is kept at every capacity — so a reader sees why a policy lost the support; with a QA
 * directory, also both predictions and grades. Fact text only on request, for the terminal alone.
 *
 * @module
 */

import { visible } from "../../base/mod.ts";
import { POLICIES } from "../../policy/mod.ts";
import type { CaseExplanation, FactExplanation } from "./explanation.ts";
import { tableLines } from "../render/text.ts";
import { candidateLines } from "./candidate_explanation.ts";

function fixed(value: number | undefined): string {
  return value === undefined ? "–" : value.toFixed(4);
}

/** The pool as a table: both policies' scores, ranks and kept marks per fact, in hybrid-v1's rank order. */
function factTable(explanation: CaseExplanation, width: number | undefined): string[] {
  const [first, second] = POLICIES;
  const keptAt = (fact: FactExplanation, policy: string) =>
    explanation.capacities.map((capacity) => fact.policies[policy].keptAt.includes(capacity) ? "k" : "·")
      .join("");
  const capacityHint = explanation.capacities.join("/");
  const headers = ["fact", "role", "category", `${first} score`, "rank", `kept ${capacityHint}`];
  headers.push("confidence", "confirmation", "access", `${second} score`, "rank", `kept ${capacityHint}`);
  const rows = explanation.facts.map((fact) => {
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
  });
  const numeric = [false, false, false, true, true, false, true, true, true, true, true, false];
  return tableLines({ headers, rows, numeric }, width);
}

/** Where each support fact ranks under each policy and where it is evicted, then any reserved slots. */
function supportLines(explanation: CaseExplanation): string[] {
  const lines: string[] = [];
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
      lines.push(
        `${policy} reserved correction slots at capacity ${explanation.capacities.join("/")}: ${
          slots.join("/")
        }`,
      );
    }
  }
  return lines;
}

/** Both answers at the QA capacity, when a QA directory was given. */
function answerLines(explanation: CaseExplanation): string[] {
  if (explanation.answers === undefined) return [];
  const lines = ["", `answers at capacity ${explanation.qaCapacity}:`];
  for (const [policy, answer] of Object.entries(explanation.answers)) {
    lines.push(
      `  ${policy.padEnd(10)}  ${answer.correct ? "correct" : "wrong  "} (${answer.rule})  ${
        visible(JSON.stringify(answer.prediction))
      }  [${answer.from}${answer.matchesRecomputed ? "" : "; kept facts differ from the recomputed ones"}]`,
    );
  }
  return lines;
}

/** The dataset's text (question, reference answer, facts) when asked for, else how to ask. */
function textLines(explanation: CaseExplanation, showText: boolean): string[] {
  if (!showText) {
    return ["", "fact text, the question and the reference answer: pass --show-text (terminal only)"];
  }
  // The dataset's text on a terminal: one line each, its control sequences shown as escapes, never run.
  const line = (text: string) => visible(text.replace(/\s+/g, " "));
  return [
    "",
    "text (from the dataset; shown here only, never written to a file):",
    `  question: ${line(explanation.question)}`,
    `  reference answer: ${line(explanation.referenceAnswer)}`,
    ...explanation.facts.map((fact) => `  ${fact.id}: ${line(fact.content)}`),
  ];
}

/**
 * The explanation for the terminal. Fact text, the question and the reference answer appear only with
 * `showText` (the dataset's text is not ours to redistribute).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { explainCase, explainText } from "../mod.ts";
 * const { cases, contracts } = await prepareDemoProtocol(await buildDemoProtocol());
 * const explanation = explainCase(cases, "correction_language", contracts.config);
 * strictEqual(explainText(explanation, { showText: false }).includes(explanation.question), false); // ids and scores only
 * strictEqual(explainText(explanation, { showText: true }).includes(explanation.question), true);
 * ```
 */
export function explainText(
  explanation: CaseExplanation,
  options: { showText: boolean; width?: number },
): string {
  const { caseId, source, scenario, questionType, lossRank } = explanation;
  const second = POLICIES[1];
  const lines = [
    `case ${caseId}: ${source}, scenario ${scenario}, ${questionType}, loss rank ${lossRank}`,
    `pool of ${explanation.facts.length} facts, ordered by ${second} rank; kept at capacity ${
      explanation.capacities.join("/")
    }: k = kept, · = evicted; ${second} score = weighted confidence, confirmation freshness and access heat`,
    "",
    ...factTable(explanation, options.width),
    "",
    ...supportLines(explanation),
    ...(explanation.candidate === undefined ? [] : candidateLines(explanation, explanation.candidate)),
    ...answerLines(explanation),
    ...textLines(explanation, options.showText),
  ];
  return lines.join("\n");
}
