/**
 * A partial run (made with `run-qa --limit N`, or interrupted): graded into `DIR/partial/`, never into the
 * reference-named outputs of DIR, with `partial.json` recording how much of the protocol it covers — the tasks
 * with rows, the complete pairs the grading holds, and the SHA-256 of each row file graded.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import { ContractError } from "../../base/mod.ts";
import { parseJsonTextWith } from "../../py/mod.ts";
import type { AnswerTask } from "./tasks.ts";
import type { PolicyPair } from "./candidate.ts";

/** The folder of a run directory that holds its partial grading. */
export const PARTIAL_DIR = "partial";

/** The record of a partial grading, beside its three outputs. */
export const PARTIAL_RECORD_FILE = "partial.json";

/** One answer row file a partial grading read, by row id, with the SHA-256 of its bytes then. */
export interface PartialRowFile {
  row_id: string;
  sha256: string;
}

/** `partial.json`: how much of the protocol a partial grading covers. */
export interface PartialRecord {
  /** Cases with both policies' rows: the graded rows and the statistics are theirs only. */
  complete_pairs: number;
  /** Every row file present when graded (row id order), with its SHA-256. */
  row_files: PartialRowFile[];
  schema_version: 1;
  /** The protocol's tasks (N). */
  tasks: number;
  /** The tasks that had a row (K). */
  tasks_with_rows: number;
  /** Row ids present without their pair's other row: not graded yet. */
  unpaired: string[];
}

const partialRecordSchema: z.ZodMiniType<PartialRecord, unknown> = z.strictObject({
  complete_pairs: z.number().check(z.int(), z.minimum(1)),
  row_files: z.array(z.strictObject({
    row_id: z.string().check(z.minLength(1)),
    sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits")),
  })),
  schema_version: z.literal(1),
  tasks: z.number().check(z.int(), z.minimum(1)),
  tasks_with_rows: z.number().check(z.int(), z.minimum(1)),
  unpaired: z.array(z.string()),
});

/** The tasks of `present` whose case has a row for both policies of `pair`, in task order. */
export function pairedTasks(present: readonly AnswerTask[], pair: PolicyPair): AnswerTask[] {
  const policies = new Map<string, Set<string>>();
  for (const task of present) {
    policies.set(task.caseId, (policies.get(task.caseId) ?? new Set()).add(task.policy));
  }
  return present.filter((task) => pair.every((policy) => policies.get(task.caseId)?.has(policy)));
}

/**
 * The first line of every output of a partial run.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { partialLine } from "./partial.ts";
 * const record = { complete_pairs: 5, row_files: [], schema_version: 1 as const, tasks: 90, tasks_with_rows: 10, unpaired: [] };
 * strictEqual(partialLine(record), "partial: 10 of 90 tasks; statistics on 5 complete pairs");
 * ```
 */
export function partialLine(record: PartialRecord): string {
  const pairs = `${record.complete_pairs} complete pair${record.complete_pairs === 1 ? "" : "s"}`;
  return `partial: ${record.tasks_with_rows} of ${record.tasks} tasks; statistics on ${pairs}`;
}

/** `partial.json`'s text: sorted keys, two-space indent, one trailing newline. */
export function partialRecordJson(record: PartialRecord): string {
  const sorted = {
    complete_pairs: record.complete_pairs,
    row_files: record.row_files.map(({ row_id, sha256 }) => ({ row_id, sha256 })),
    schema_version: record.schema_version,
    tasks: record.tasks,
    tasks_with_rows: record.tasks_with_rows,
    unpaired: record.unpaired,
  };
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/**
 * Parses `partial.json`: bad JSON or a field out of schema is a {@linkcode ContractError} naming the field;
 * counts that contradict the row list too.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { parsePartialRecord, partialRecordJson } from "./partial.ts";
 * const record = { complete_pairs: 1, row_files: [{ row_id: "c__a", sha256: "0".repeat(64) }, { row_id: "c__b", sha256: "1".repeat(64) }], schema_version: 1 as const, tasks: 4, tasks_with_rows: 2, unpaired: [] };
 * strictEqual(parsePartialRecord(partialRecordJson(record), "partial.json").tasks, 4);
 * throws(() => parsePartialRecord(partialRecordJson({ ...record, tasks_with_rows: 3 }), "partial.json"));
 * ```
 */
export function parsePartialRecord(text: string, path: string): PartialRecord {
  const record = parseJsonTextWith(partialRecordSchema, text, path);
  const counts: [string, number, number][] = [
    ["tasks_with_rows", record.tasks_with_rows, record.row_files.length],
    ["complete_pairs", record.complete_pairs * 2, record.row_files.length - record.unpaired.length],
  ];
  for (const [field, stated, listed] of counts) {
    if (stated !== listed) {
      throw new ContractError(`says ${stated} but row_files and unpaired make ${listed}`, { path, field });
    }
  }
  if (record.tasks_with_rows >= record.tasks) {
    throw new ContractError(`a partial run has fewer rows than its ${record.tasks} tasks`, {
      path,
      field: "tasks_with_rows",
    });
  }
  return record;
}

/** The row ids a partial grading holds: its row files, less the unpaired. */
export function gradedRowIds(record: PartialRecord): Set<string> {
  const unpaired = new Set(record.unpaired);
  return new Set(record.row_files.map((file) => file.row_id).filter((id) => !unpaired.has(id)));
}
