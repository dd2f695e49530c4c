/**
 * The protocol's deterministic reconstruction: the official selection recomputed from the dataset, the
 * distractor bank, the SHA-256 offsets and the 45 prepared cases (40 official + 5 synthetic).
 *
 * @module
 */

import type { ProtocolConfig } from "./config.ts";
import type { Dataset, DatasetRow } from "./dataset.ts";
import { compareCodePoints, ContractError, sha256Bytes } from "../base/mod.ts";
import { DatasetIntegrityError } from "./errors.ts";
import { byQuestionId, eligibleRows, refuseInvalidRecord, takenRows } from "./eligible.ts";
import {
  OFFICIAL_SCENARIOS,
  type OfficialManifest,
  SYNTHETIC_SCENARIO,
  type SyntheticManifest,
} from "./manifest.ts";

/** Every source a case can come from. */
export const CASE_SOURCES = ["longmemeval", "synthetic"] as const;

/** Where a case comes from. */
export type CaseSource = (typeof CASE_SOURCES)[number];

/** The question type of every synthetic case. */
export const SYNTHETIC_QUESTION_TYPE = "synthetic-correction";

/** A case ready for pool construction: the support evidence, its distractors and its metadata rule. */
export interface PreparedCase {
  /** The case's ID. */
  caseId: string;
  /** Where the case comes from. */
  source: CaseSource;
  /** The case's scenario. */
  scenario: string;
  /** The question type (`synthetic_correction` for synthetic cases). */
  questionType: string;
  /** The question asked. */
  question: string;
  /** The reference answer. */
  answer: string;
  /** The question's date as the dataset gives it, or `null`. */
  questionDate: string | null;
  /** The support fact's loss rank, in [1, 10]. */
  lossRank: number;
  /** The support fact's content: rendered evidence, or the synthetic support text. */
  supportContent: string;
  /** The nine distractor records, in draw order. */
  distractors: DatasetRow[];
}

/**
 * The distractor offset: the first four bytes of `SHA-256("{namespace}:{caseId}")`, big-endian, modulo the
 * bank size.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { distractorOffset } from "./cases.ts";
 * strictEqual(await distractorOffset("alt-ns", "case-0", 1000), 126);
 * ```
 */
export async function distractorOffset(namespace: string, caseId: string, bankSize: number): Promise<number> {
  if (!Number.isInteger(bankSize) || bankSize < 1) throw new RangeError("bank size must be ≥ 1");
  const digest = await sha256Bytes(`${namespace}:${caseId}`);
  const value = ((digest[0] << 24) >>> 0) + (digest[1] << 16) + (digest[2] << 8) + digest[3];
  return value % bankSize;
}

/**
 * Recomputes the official selection per eligible question type: of the rows the rule finds eligible
 * ({@linkcode eligibleRows}, by question_id), the first `take_per_question_type`, or with `selection.seed` the
 * ones drawn by `draw_order` ({@linkcode takenRows}), in question_id order.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { recomputeSelection } from "./cases.ts";
 * import { buildDemoProtocol, loadDemoDataset } from "./demo.ts";
 * const { contracts, dataset } = await loadDemoDataset(await buildDemoProtocol()); // generated, pinned data
 * const byType = await recomputeSelection(dataset, contracts.official); // question type → taken rows, in order
 * const [type] = contracts.official.selection.eligible_question_types;
 * strictEqual(byType.get(type)!.length, contracts.official.selection.take_per_question_type);
 * ```
 */
export async function recomputeSelection(
  dataset: Dataset,
  manifest: OfficialManifest,
): Promise<Map<string, DatasetRow[]>> {
  const rule = manifest.selection;
  const selected = new Map<string, DatasetRow[]>();
  for (const [questionType, eligible] of eligibleRows(dataset, manifest)) {
    if (eligible.length < rule.take_per_question_type) {
      throw new DatasetIntegrityError(
        `only ${eligible.length} eligible ${questionType} rows, the selection needs ${rule.take_per_question_type}`,
        { field: "selection" },
      );
    }
    selected.set(questionType, await takenRows(eligible, rule.take_per_question_type, rule.seed));
  }
  return selected;
}

/**
 * Checks the recomputed selection against the manifest as the reference does: `take_per_question_type` must be
 * the scenarios × `cases_per_type_per_scenario`, and scenario *i* in `scenario_order` must list, in this order,
 * each eligible type's rows `[k·i, k·i + k)` in turn (a permutation is refused); returns the rows per scenario.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 * import { checkOfficialSelection } from "./cases.ts";
 * import { buildDemoProtocol, loadDemoDataset } from "./demo.ts";
 * const { contracts, dataset } = await loadDemoDataset(await buildDemoProtocol()); // generated, pinned data
 * const scenarios = await checkOfficialSelection(dataset, contracts.official, "demo-official.json");
 * deepStrictEqual([...scenarios.keys()], contracts.official.scenario_order);
 * const [scenario] = contracts.official.scenario_order;
 * const reversed = structuredClone(contracts.official);
 * reversed.scenarios[scenario].reverse(); // the same IDs in another order
 * await rejects(checkOfficialSelection(dataset, reversed, "demo-official.json"), /do not match the declared selection rule/);
 * ```
 */
export async function checkOfficialSelection(
  dataset: Dataset,
  manifest: OfficialManifest,
  manifestPath: string,
): Promise<Map<string, DatasetRow[]>> {
  const per = manifest.selection.cases_per_type_per_scenario;
  const take = manifest.selection.take_per_question_type;
  const expectedTake = manifest.scenario_order.length * per;
  if (take !== expectedTake) {
    throw new DatasetIntegrityError(
      `take_per_question_type is ${take}, but the ${manifest.scenario_order.length} scenarios × ${per} cases per type need ${expectedTake}`,
      { path: manifestPath, field: "selection.take_per_question_type" },
    );
  }
  const selection = await recomputeSelection(dataset, manifest);
  const result = new Map<string, DatasetRow[]>();
  manifest.scenario_order.forEach((scenario, index) => {
    const expected = manifest.selection.eligible_question_types.flatMap((type) =>
      selection.get(type)!.slice(per * index, per * index + per)
    );
    const expectedIds = expected.map((row) => row.questionId);
    const pinnedIds = manifest.scenarios[scenario];
    // In order, as the reference's list comparison: each type's IDs in turn, each sorted.
    if (expectedIds.length !== pinnedIds.length || expectedIds.some((id, at) => id !== pinnedIds[at])) {
      throw new DatasetIntegrityError(
        `pinned IDs do not match the declared selection rule: expected ${expectedIds.join(",")}, got ${
          pinnedIds.join(",")
        }`,
        { path: manifestPath, field: `scenarios.${scenario}` },
      );
    }
    result.set(scenario, expected);
  });
  return result;
}

/**
 * The distractor bank: the first `distractor_bank_size` rows of the distractor types, by question_id, whose
 * evidence length (code points) is within the bank bounds.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDistractorBank } from "./cases.ts";
 * import { buildDemoProtocol, loadDemoDataset } from "./demo.ts";
 * const { contracts, dataset } = await loadDemoDataset(await buildDemoProtocol()); // generated, pinned data
 * strictEqual(buildDistractorBank(dataset, contracts.config).length, contracts.config.pool.distractor_bank_size);
 * ```
 */
export function buildDistractorBank(dataset: Dataset, config: ProtocolConfig): DatasetRow[] {
  const pool = config.pool;
  if (pool.distractor_bank_size < pool.distractors) {
    // Drawing more than the bank holds would wrap around and repeat a distractor within one pool.
    throw new ContractError(
      `the distractor bank of ${pool.distractor_bank_size} rows is smaller than the ${pool.distractors} distractors each case draws`,
      { field: "pool.distractor_bank_size" },
    );
  }
  const types = new Set(pool.distractor_types);
  const eligible = dataset.rows.filter((row) => {
    if (!types.has(row.questionType)) return false;
    refuseInvalidRecord(row);
    return row.evidenceLength >= pool.distractor_min_evidence_chars &&
      row.evidenceLength <= pool.distractor_max_evidence_chars;
  }).sort(byQuestionId);
  if (eligible.length < pool.distractor_bank_size) {
    throw new DatasetIntegrityError(
      `only ${eligible.length} eligible distractor rows, the bank needs ${pool.distractor_bank_size}`,
      { field: "pool.distractor_bank_size" },
    );
  }
  return eligible.slice(0, pool.distractor_bank_size);
}

/** The `count` bank rows from `offset` on, wrapping; refused when one repeats the case's own record. */
function drawDistractors(caseId: string, bank: DatasetRow[], offset: number, count: number): DatasetRow[] {
  const drawn = Array.from({ length: count }, (_, index) => bank[(offset + index) % bank.length]);
  // As the reference's build_case: the support record and the distractors must be distinct source records.
  const sources = new Set([caseId, ...drawn.map((row) => row.questionId)]);
  if (sources.size !== drawn.length + 1) {
    throw new DatasetIntegrityError("a prepared pool cannot contain duplicate source records", {
      field: `case ${caseId}`,
    });
  }
  return drawn;
}

/** A prepared case before its distractors are drawn. */
type CaseDraft = Omit<PreparedCase, "distractors">;

/** The official cases, by scenario in `scenario_order`, then by (question type, ID), paired with the loss ranks. */
function officialDrafts(scenarios: Map<string, DatasetRow[]>, official: OfficialManifest): CaseDraft[] {
  return official.scenario_order.flatMap((scenario) =>
    [...scenarios.get(scenario)!].sort((a, b) =>
      compareCodePoints(a.questionType, b.questionType) || compareCodePoints(a.questionId, b.questionId)
    ).map((row, index) => ({
      caseId: row.questionId,
      source: "longmemeval" as const,
      scenario,
      questionType: row.questionType,
      question: row.question,
      answer: row.answer,
      questionDate: row.questionDate,
      lossRank: official.loss_ranks[index % official.loss_ranks.length],
      supportContent: row.evidence,
    }))
  );
}

/** The synthetic cases, in manifest order. */
function syntheticDrafts(synthetic: SyntheticManifest): CaseDraft[] {
  return synthetic.cases.map((item) => ({
    caseId: item.case_id,
    source: "synthetic" as const,
    scenario: SYNTHETIC_SCENARIO,
    questionType: SYNTHETIC_QUESTION_TYPE,
    question: item.question,
    answer: item.answer,
    questionDate: null,
    lossRank: item.loss_rank,
    supportContent: item.support_fact,
  }));
}

/**
 * Prepares all cases: official ones ordered by scenario (`scenario_order`), then by (question type, ID), paired
 * with the loss ranks; then the synthetic ones in manifest order.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { prepareCases } from "./cases.ts";
 * import { buildDemoProtocol, loadDemoDataset } from "./demo.ts";
 * const { contracts, dataset } = await loadDemoDataset(await buildDemoProtocol()); // generated, pinned data
 * const cases = await prepareCases(dataset, contracts);
 * strictEqual(cases.length, 45); // 40 official, 5 synthetic
 * strictEqual(cases.filter((item) => item.source === "synthetic").length, 5);
 * ```
 */
export async function prepareCases(
  dataset: Dataset,
  contracts: {
    config: ProtocolConfig;
    official: OfficialManifest;
    synthetic: SyntheticManifest;
    sources: { official: string; config?: string };
  },
): Promise<PreparedCase[]> {
  const { config, official, synthetic } = contracts;
  // The reference's build_case refuses any other number, though its config model allows pool.size ≠ 10.
  if (config.pool.distractors !== 9) {
    throw new ContractError(
      `the pr4789 reproduction protocol requires exactly nine distractors, got ${config.pool.distractors}`,
      { path: contracts.sources.config?.replace(/^embedded:/, ""), field: "pool.distractors" },
    );
  }
  const manifestPath = contracts.sources.official.replace(/^embedded:/, "");
  const scenarios = await checkOfficialSelection(dataset, official, manifestPath);
  const bank = buildDistractorBank(dataset, config);
  const drafts = [...officialDrafts(scenarios, official), ...syntheticDrafts(synthetic)];
  // Independent digests, hashed together; drawn (and refused) in case order.
  const offsets = await Promise.all(
    drafts.map((draft) => distractorOffset(config.pool.offset_namespace, draft.caseId, bank.length)),
  );
  return drafts.map((draft, index) => ({
    ...draft,
    distractors: drawDistractors(draft.caseId, bank, offsets[index], config.pool.distractors),
  }));
}

/** The registered official scenarios, re-exported for callers that order output by them. */
export { OFFICIAL_SCENARIOS };
