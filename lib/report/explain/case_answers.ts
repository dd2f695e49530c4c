/**
 * Both policies' answers to one case from a QA directory, for `explain`: graded there (`qa.rows.jsonl`) or,
 * before grading, read from the row files and graded here.
 *
 * @module
 */

import {
  gradeAnswer,
  GRADED_ROWS_FILE,
  parseAnswerRow,
  parseGradedRows,
  type PolicyPair,
  PUBLISHED_PAIR,
  responsePath,
} from "../../qa/mod.ts";
import type { ProtocolConfig } from "../../protocol/mod.ts";
import { GRADED_ROWS_CAP, InputError, readTextIfExists } from "../../base/mod.ts";
import type { CaseAnswer, CaseExplanation } from "./explanation.ts";

/**
 * Reads both policies' answers to the case from a QA directory: from `qa.rows.jsonl` when it exists, else from
 * the row files (graded here, blindly, against the recomputed reference answer).
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { InputError } from "../../base/errors.ts";
 * import type { CaseExplanation } from "./explanation.ts";
 * import { readCaseAnswers } from "./case_answers.ts";
 * const explanation: CaseExplanation = {
 *   caseId: "q1", source: "longmemeval", scenario: "access_help", questionType: "t", question: "Q?", referenceAnswer: "A",
 *   lossRank: 1, capacities: [5, 7, 9], qaCapacity: 7, facts: [], reservedSlots: {},
 * };
 * const { config } = await loadContracts(embeddedSources());
 * // Without qa.rows.jsonl it grades the two row files in responses/, and a missing one is bad input.
 * await rejects(readCaseAnswers(await Deno.makeTempDir(), explanation, config), InputError);
 * ```
 */
export async function readCaseAnswers(
  directory: string,
  explanation: CaseExplanation,
  config: ProtocolConfig,
  pair: PolicyPair = PUBLISHED_PAIR,
): Promise<Record<string, CaseAnswer>> {
  const view = (fact: CaseExplanation["facts"][number], policy: string) =>
    policy === explanation.candidate?.name ? explanation.candidate.facts[fact.id] : fact.policies[policy];
  // A bare sort: the order is ours only, both sides sorted alike to compare them as sets.
  const keptAtQa = (policy: string) =>
    explanation.facts.filter((fact) => view(fact, policy).keptAt.includes(explanation.qaCapacity))
      .map((fact) => fact.id).sort();
  const same = (policy: string, kept: readonly string[]) =>
    JSON.stringify([...kept].sort()) === JSON.stringify(keptAtQa(policy));
  const answers: Record<string, CaseAnswer> = {};
  const gradedPath = `${directory}/qa.rows.jsonl`;
  const graded = await readTextIfExists(gradedPath, "graded rows", GRADED_ROWS_CAP);
  if (graded !== undefined) {
    const rows = parseGradedRows(graded, gradedPath, config, pair);
    for (const policy of pair) {
      const row = rows.find((item) => item.case_id === explanation.caseId && item.policy === policy);
      if (row === undefined) {
        throw new InputError(`no row for ${explanation.caseId} under ${policy}`, { path: gradedPath });
      }
      answers[policy] = {
        prediction: row.prediction,
        correct: row.grade_correct,
        rule: row.grade_rule,
        from: GRADED_ROWS_FILE,
        matchesRecomputed: same(policy, row.kept_fact_ids),
      };
    }
    return answers;
  }
  for (const policy of pair) {
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
