/**
 * The official manifest's selection rule applied to a whole dataset: every eligible case of each eligible
 * question type, before `take_per_question_type` takes its first ones (or, with a seed, the ones it draws).
 * The pinned selection takes from these; a plan compares the cases it needs with their count.
 *
 * @module
 */

import type { Dataset, DatasetRow } from "./dataset.ts";
import type { OfficialManifest } from "./manifest.ts";
import type { ProtocolConfig } from "./config.ts";
import { parseConfig } from "./config.ts";
import { EMBEDDED_ARTIFACTS } from "./contracts.ts";
import { compareCodePoints, sha256Hex } from "../base/mod.ts";
import { DatasetIntegrityError } from "./errors.ts";
import { codePointLength, pyLower, pyStrip } from "../py/mod.ts";

/** The reference refuses a row it turns into an evidence record (official or distractor type) that is malformed. */
export function refuseInvalidRecord(row: DatasetRow): void {
  if (row.invalid !== undefined) {
    throw new DatasetIntegrityError(row.invalid, { field: `question ${row.questionId}` });
  }
}

/** Rows in question_id order (code points, as Python sorts). */
export function byQuestionId(a: DatasetRow, b: DatasetRow): number {
  return compareCodePoints(a.questionId, b.questionId);
}

/**
 * Every eligible row per eligible question type, by question_id: pilots, abstention IDs, answers outside the
 * length bounds or holding an excluded substring, and evidence outside its bounds are dropped.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { eligibleRows } from "./eligible.ts";
 * import { buildDemoProtocol, loadDemoDataset } from "./demo.ts";
 * const { contracts, dataset } = await loadDemoDataset(await buildDemoProtocol()); // generated, pinned data
 * const byType = eligibleRows(dataset, contracts.official);
 * const [type] = contracts.official.selection.eligible_question_types;
 * strictEqual(byType.get(type)!.length >= contracts.official.selection.take_per_question_type, true);
 * ```
 */
export function eligibleRows(dataset: Dataset, manifest: OfficialManifest): Map<string, DatasetRow[]> {
  const rule = manifest.selection;
  const pilots = new Set(rule.excluded_pilot_ids);
  const excluded = rule.answer_excluded_substrings.map(pyLower);
  const byType = new Map<string, DatasetRow[]>();
  for (const questionType of rule.eligible_question_types) {
    byType.set(
      questionType,
      dataset.rows.filter((row) => {
        if (row.questionType !== questionType) return false;
        if (pilots.has(row.questionId) || row.questionId.endsWith(rule.exclude_abstention_suffix)) {
          return false;
        }
        refuseInvalidRecord(row);
        // Lengths are Python len(): code points, not UTF-16 units.
        const answerLength = codePointLength(pyStrip(row.answer));
        if (answerLength < rule.answer_min_chars || answerLength > rule.answer_max_chars) return false;
        const answer = pyLower(pyStrip(row.answer));
        if (excluded.some((text) => answer.includes(text))) return false;
        return row.evidenceLength >= rule.evidence_min_chars && row.evidenceLength <= rule.evidence_max_chars;
      }).sort(byQuestionId),
    );
  }
  return byType;
}

/** How many official cases the rule finds eligible in the dataset, per eligible question type and in all. */
export interface EligibleCount {
  /** Eligible cases per question type, in the rule's order. */
  byType: Record<string, number>;
  /** Their sum. */
  total: number;
}

/**
 * The count of {@linkcode eligibleRows}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { eligibleCount } from "./eligible.ts";
 * import { buildDemoProtocol, loadDemoDataset } from "./demo.ts";
 * const { contracts, dataset } = await loadDemoDataset(await buildDemoProtocol()); // generated, pinned data
 * const count = eligibleCount(dataset, contracts.official);
 * strictEqual(count.total, Object.values(count.byType).reduce((sum, n) => sum + n, 0));
 * ```
 */
export function eligibleCount(dataset: Dataset, manifest: OfficialManifest): EligibleCount {
  const byType: Record<string, number> = {};
  let total = 0;
  for (const [type, rows] of eligibleRows(dataset, manifest)) {
    byType[type] = rows.length;
    total += rows.length;
  }
  return { byType, total };
}

/**
 * The pinned dataset's public counts (LongMemEval's oracle file): its non-abstention questions per type,
 * before the answer and evidence length filters. No protocol can find more eligible cases of a type in it.
 */
export const PINNED_DATASET_QUESTIONS: Readonly<Record<string, number>> = Object.freeze({
  "knowledge-update": 72,
  "temporal-reasoning": 127,
});

/**
 * The most official cases a protocol's selection rule can find eligible without reading the dataset: the sum
 * of {@linkcode PINNED_DATASET_QUESTIONS} over its eligible types, when its config pins the pinned dataset
 * (by SHA-256); `undefined` for another dataset or a type without a public count. An upper bound: the length
 * filters and the pilot exclusions only take cases away (`--dataset` gives the exact count).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "./contracts.ts";
 * import { pinnedEligibleBound } from "./eligible.ts";
 * strictEqual(pinnedEligibleBound(await loadContracts(embeddedSources())), 199); // 72 + 127
 * ```
 */
export function pinnedEligibleBound(
  contracts: { config: ProtocolConfig; official: OfficialManifest },
): number | undefined {
  if (contracts.config.dataset.sha256 !== pinnedDatasetSha256()) return undefined;
  let bound = 0;
  for (const type of contracts.official.selection.eligible_question_types) {
    const count = PINNED_DATASET_QUESTIONS[type];
    if (count === undefined) return undefined;
    bound += count;
  }
  return bound;
}

let pinnedSha256: string | undefined;

/** The SHA-256 the embedded config pins its dataset to. */
function pinnedDatasetSha256(): string {
  const path = "configs/pr4789-reproduction-v1.yaml";
  pinnedSha256 ??= parseConfig(EMBEDDED_ARTIFACTS[path], `embedded:${path}`).dataset.sha256;
  return pinnedSha256;
}

/**
 * `validate`'s line: each eligible type's count beside the cases the manifest takes of it, and the totals.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { eligibleLine } from "./eligible.ts";
 * strictEqual(
 *   eligibleLine({ byType: { a: 30, b: 25 }, total: 55 }, 20),
 *   "eligible by the manifest's selection rule: a 30 (takes 20), b 25 (takes 20); 55 in all, 40 taken",
 * );
 * ```
 */
export function eligibleLine(count: EligibleCount, takePerType: number): string {
  const types = Object.entries(count.byType);
  return `eligible by the manifest's selection rule: ${
    types.map(([type, eligible]) => `${type} ${eligible} (takes ${takePerType})`).join(", ")
  }; ${count.total} in all, ${takePerType * types.length} taken`;
}

/**
 * The seeded draw's order, as a manifest records it in `selection.draw_order`: eligible rows by the lowercase
 * hex SHA-256 of the seed's decimal digits, `:` and the question_id (UTF-8), ascending.
 */
export const DRAW_ORDER = "sha256(seed:question_id)";

/**
 * The rows the rule takes of one type's eligible rows (in question_id order): the first `take`; with a seed,
 * the first `take` by {@linkcode DRAW_ORDER} (a tie, which needs a SHA-256 collision, by question_id), put back
 * in question_id order for `scenario_order`'s assignment. In Python: `sorted(ids, key=lambda i:
 * hashlib.sha256(f"{seed}:{i}".encode()).hexdigest())[:take]`, sorted.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { takenRows } from "./eligible.ts";
 * const rows = ["a", "b", "c", "d"].map((questionId) => ({ questionId }));
 * deepStrictEqual(await takenRows(rows, 2), rows.slice(0, 2)); // no seed: the first by question_id
 * // SHA-256 of "1:a", "1:b", "1:c", "1:d" starts 41…, 6f…, b8…, 24…: d and a are drawn, shown by question_id.
 * deepStrictEqual((await takenRows(rows, 2, 1)).map((row) => row.questionId), ["a", "d"]);
 * ```
 */
export async function takenRows<Row extends Pick<DatasetRow, "questionId">>(
  rows: readonly Row[],
  take: number,
  seed?: number,
): Promise<Row[]> {
  if (seed === undefined) return rows.slice(0, take);
  const keys = await Promise.all(rows.map((row) => sha256Hex(`${seed}:${row.questionId}`)));
  const order = rows.map((row, index) => ({ row, key: keys[index] }));
  order.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : compareCodePoints(a.row.questionId, b.row.questionId)
  );
  return order.slice(0, take).map(({ row }) => row).sort((a, b) =>
    compareCodePoints(a.questionId, b.questionId)
  );
}
