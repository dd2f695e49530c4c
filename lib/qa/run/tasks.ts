/**
 * Answer tasks: one per case and policy at the QA capacity, each with its rendered messages and request
 * fingerprint — the single source both `run-qa` and `grade-qa`/`verify` recompute.
 *
 * @module
 */

import { buildPool, type CaseSource, type Contracts, type PreparedCase } from "../../protocol/mod.ts";
import { ContractError } from "../../base/mod.ts";
import { evaluateCase, POLICIES, type PolicyResult } from "../../policy/mod.ts";
import {
  type ChatMessage,
  parsePromptTemplate,
  renderMessages,
  requestFingerprint,
  type RequestSettings,
} from "./prompt.ts";
import type { QaCandidate } from "./candidate.ts";

/** The fields a candidate's rows carry beside `policy`. */
export interface CandidateModule {
  /** The module's file name. */
  policy_module: string;
  /** SHA-256 of the module's source bytes. */
  policy_module_sha256: string;
}

/** One answer request, fully determined by the protocol. */
export interface AnswerTask {
  /** `<case_id>__<policy>`: the row's file name without `.json`. */
  rowId: string;
  /** The case's ID. */
  caseId: string;
  /** Where the case comes from. */
  source: CaseSource;
  /** The case's scenario. */
  scenario: string;
  /** The question type. */
  questionType: string;
  /** The policy that chose the memory: a built-in, or a candidate's name. */
  policy: string;
  /** A candidate's module (file name and SHA-256), which its rows carry; absent for a built-in. */
  module?: CandidateModule;
  /** The capacity the memory was cut to. */
  capacity: number;
  /** The IDs of the facts kept, in prompt order. */
  keptFactIds: string[];
  /** Whether every support fact was kept. */
  supportAllRetained: boolean;
  /** The fraction of support facts kept, in [0, 1]. */
  supportRecall: number;
  /** The chat messages sent. */
  messages: ChatMessage[];
  /** The SHA-256 of the request's non-secret payload. */
  requestFingerprint: string;
  /** The reference answer, from the recomputed case — never from a stored row. */
  referenceAnswer: string;
}

/**
 * The request settings a config pins.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { requestSettings } from "./tasks.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const { qa } = contracts.config;
 * deepStrictEqual(requestSettings(contracts), {
 *   model: qa.model,
 *   temperature: qa.temperature,
 *   maxTokens: qa.max_tokens,
 *   stream: qa.stream,
 * });
 * ```
 */
export function requestSettings(contracts: Contracts): RequestSettings {
  const qa = contracts.config.qa;
  return { model: qa.model, temperature: qa.temperature, maxTokens: qa.max_tokens, stream: qa.stream };
}

/**
 * Checks the config's QA settings are ones this runner can honour (non-streaming answers).
 *
 * @example
 * ```ts
 * import { doesNotThrow, throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { ContractError } from "../../base/errors.ts";
 * import { checkQaSettings } from "./tasks.ts";
 * const contracts = await loadContracts(embeddedSources());
 * doesNotThrow(() => checkQaSettings(contracts));
 * const streaming = { ...contracts, config: { ...contracts.config, qa: { ...contracts.config.qa, stream: true } } };
 * throws(() => checkQaSettings(streaming), ContractError);
 * ```
 */
export function checkQaSettings(contracts: Contracts): void {
  if (contracts.config.qa.stream) {
    throw new ContractError("streaming answers are not supported: expected false, got true", {
      path: contracts.sources.config,
      field: "qa.stream",
    });
  }
}

/**
 * Builds every answer task, case by case, confidence before hybrid-v1 (their fingerprints hashed together); with
 * a candidate, its baseline before the candidate, whose decisions at the QA capacity come with it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { buildAnswerTasks } from "./tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const tasks = await buildAnswerTasks(contracts, cases);
 * strictEqual(tasks.length, 90); // 45 cases × 2 policies
 * strictEqual(tasks[0].rowId, `${cases[0].caseId}__confidence`);
 * strictEqual(tasks[1].rowId, `${cases[0].caseId}__hybrid-v1`);
 * ```
 */
export async function buildAnswerTasks(
  contracts: Contracts,
  cases: readonly PreparedCase[],
  candidate?: QaCandidate,
): Promise<AnswerTask[]> {
  const { config } = contracts;
  const template = parsePromptTemplate(contracts.prompt, contracts.sources.prompt.replace(/^embedded:/, ""));
  const settings = requestSettings(contracts);
  const capacity = config.pool.qa_capacity;
  const candidateOf = candidateResults(candidate, cases, capacity);
  const tasks: Omit<AnswerTask, "requestFingerprint">[] = [];
  for (const prepared of cases) {
    const pool = buildPool(prepared, config.evaluation_time);
    const results = candidate === undefined
      ? POLICIES.map((policy) => evaluateCase(prepared, policy, capacity, config, pool))
      : [evaluateCase(prepared, candidate.baseline, capacity, config, pool), candidateOf(prepared)];
    for (const result of results) {
      const messages = renderMessages(template, {
        question: prepared.question,
        questionDate: prepared.questionDate,
        facts: result.keptFacts,
      });
      const module = result.policy === candidate?.policy ? candidateModule(candidate) : undefined;
      tasks.push({
        rowId: `${prepared.caseId}__${result.policy}`,
        caseId: prepared.caseId,
        source: prepared.source,
        scenario: prepared.scenario,
        questionType: prepared.questionType,
        policy: result.policy,
        ...(module === undefined ? {} : { module }),
        capacity,
        keptFactIds: result.keptFacts.map((fact) => fact.id),
        supportAllRetained: result.supportAllRetained,
        supportRecall: result.supportRecall,
        messages,
        referenceAnswer: prepared.answer,
      });
    }
  }
  const fingerprints = await Promise.all(tasks.map((task) => requestFingerprint(settings, task.messages)));
  return tasks.map((task, index) => ({ ...task, requestFingerprint: fingerprints[index] }));
}

function candidateModule(candidate: QaCandidate): CandidateModule {
  return { policy_module: candidate.policy_module, policy_module_sha256: candidate.policy_module_sha256 };
}

/** The candidate's result for a case, refused when its decisions are not one per case at the QA capacity. */
function candidateResults(
  candidate: QaCandidate | undefined,
  cases: readonly PreparedCase[],
  capacity: number,
): (prepared: PreparedCase) => PolicyResult {
  const byCase = new Map<string, PolicyResult>();
  for (const result of candidate?.results ?? []) {
    if (result.capacity === capacity && result.policy === candidate!.policy) {
      byCase.set(result.prepared.caseId, result);
    }
  }
  if (candidate !== undefined && cases.some((prepared) => !byCase.has(prepared.caseId))) {
    throw new RangeError(`the candidate's decisions must cover every case at capacity ${capacity}`);
  }
  return (prepared) => byCase.get(prepared.caseId)!;
}
