/**
 * `run-policy` outputs: the `policy.raw.jsonl` lines, `summary.json` (retention by source, scenario,
 * capacity, policy — synthetic never folded into official), the `run.json` record, and the terminal table.
 *
 * @module
 */

import {
  artifactHashes,
  CASE_SOURCES,
  type Contracts,
  datasetIdentity,
  type SourceState,
} from "../protocol/mod.ts";
import * as z from "../base/zod.ts";
import { compareCodePoints, groupBy, parseJsonLines, RowIntegrityError } from "../base/mod.ts";
import { createdAtStamp, dumps, isoformatUtc, PyFloat, type PyJson } from "../py/mod.ts";
import type { PolicyResult } from "./contract.ts";
import { POLICIES } from "./builtins.ts";

/**
 * The `policy.raw.jsonl` text: one compact sorted-key line per result, in evaluation order.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { evaluateCase } from "./evaluate.ts";
 * import { policyRawJsonl } from "./outputs.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const line = policyRawJsonl([evaluateCase(cases[0], "hybrid-v1", 7, contracts.config)]);
 * strictEqual(JSON.parse(line).case_id, cases[0].caseId);
 * strictEqual(line.endsWith("}\n"), true); // one line per result
 * ```
 */
export function policyRawJsonl(results: readonly PolicyResult[]): string {
  return results.map((result) => dumps(result.row) + "\n").join("");
}

/** What retention tables and `summary.json` need of one case × capacity × policy outcome. */
export interface RetentionEntry {
  source: string;
  scenario: string;
  capacity: number;
  policy: string;
  supportAllRetained: boolean;
  supportRecall: number;
}

/**
 * The retention facts of an evaluated result.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { evaluateCase } from "./evaluate.ts";
 * import { retentionEntry } from "./outputs.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const result = evaluateCase(cases[0], "confidence", 5, contracts.config);
 * const { source, capacity, policy, supportRecall } = retentionEntry(result);
 * deepStrictEqual([source, capacity, policy, supportRecall], ["longmemeval", 5, "confidence", result.supportRecall]);
 * ```
 */
export function retentionEntry(result: PolicyResult): RetentionEntry {
  return {
    source: result.prepared.source,
    scenario: result.prepared.scenario,
    capacity: result.capacity,
    policy: result.policy,
    supportAllRetained: result.supportAllRetained,
    supportRecall: result.supportRecall,
  };
}

/** One `summary.json` group: support retention of one policy on one (source, scenario, capacity). */
export interface PolicySummaryGroup {
  capacity: number;
  cases: number;
  mean_support_recall: number;
  policy: string;
  scenario: string;
  source: string;
  support_all_retained: number;
  support_all_retained_rate: number;
}

/**
 * The groups of `summary.json` as values: one per (source, scenario, capacity, policy), sorted by those keys.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { policySummaryGroups } from "./outputs.ts";
 * const entry = { source: "longmemeval", scenario: "access_help", capacity: 7, policy: "hybrid-v1" };
 * const groups = policySummaryGroups([
 *   { ...entry, supportAllRetained: true, supportRecall: 1 },
 *   { ...entry, supportAllRetained: false, supportRecall: 0.5 },
 * ]);
 * deepStrictEqual(groups.map((group) => [group.cases, group.support_all_retained, group.mean_support_recall]), [[2, 1, 0.75]]);
 * ```
 */
export function policySummaryGroups(entries: readonly RetentionEntry[]): PolicySummaryGroup[] {
  const groups = groupBy(entries, (entry) => [entry.source, entry.scenario, entry.capacity, entry.policy]);
  return groups.map((members) => {
    const first = members[0];
    const retained = members.filter((member) => member.supportAllRetained).length;
    const recall = members.reduce((sum, member) => sum + member.supportRecall, 0);
    return {
      capacity: first.capacity,
      cases: members.length,
      mean_support_recall: recall / members.length,
      policy: first.policy,
      scenario: first.scenario,
      source: first.source,
      support_all_retained: retained,
      support_all_retained_rate: retained / members.length,
    };
  }).sort((a, b) =>
    compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
    a.capacity - b.capacity ||
    compareCodePoints(a.policy, b.policy)
  );
}

/**
 * `summary.json` from retention entries (see {@linkcode policySummary}).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { policySummaryOf } from "./outputs.ts";
 * const entry = { source: "synthetic", scenario: "correction", capacity: 5, policy: "confidence" };
 * const text = policySummaryOf([{ ...entry, supportAllRetained: true, supportRecall: 1 }], "demo-v1");
 * strictEqual(text.includes('"support_all_retained_rate": 1.0'), true); // Python's float spelling
 * strictEqual(JSON.parse(text).protocol_id, "demo-v1");
 * ```
 */
export function policySummaryOf(
  entries: readonly RetentionEntry[],
  protocolId: string,
  module?: PolicyModuleRecord,
): string {
  const rows = policySummaryGroups(entries).map((group) => ({
    ...group,
    mean_support_recall: new PyFloat(group.mean_support_recall),
    support_all_retained_rate: new PyFloat(group.support_all_retained_rate),
  }));
  const summary: Record<string, PyJson> = { groups: rows, protocol_id: protocolId, schema_version: 1 };
  if (module !== undefined) summary.policy_module = { ...module };
  return dumps(summary, { indent: 2 }) + "\n";
}

/** What identifies a module's policy in a module run's `summary.json` and `run.json`. */
export interface PolicyModuleRecord {
  /** The module's file name (its last path segment), as every one of its rows carries it. */
  file: string;
  /** The policy's name (its rows' `policy`). */
  name: string;
  /** SHA-256 of the module's source bytes. */
  sha256: string;
}

/**
 * The module a set of rows was made with: the one policy that is not a published one, and the file name and
 * SHA-256 its rows carry; `undefined` for a plain run. Rows of two modules, or a module row without its
 * fields, are a {@linkcode RowIntegrityError}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { policyModuleOf } from "./outputs.ts";
 * strictEqual(policyModuleOf([{ policy: "confidence" }]), undefined);
 * const row = { policy: "recency", policy_module: "recency.ts", policy_module_sha256: "ab" };
 * deepStrictEqual(policyModuleOf([{ policy: "hybrid-v1" }, row]), { file: "recency.ts", name: "recency", sha256: "ab" });
 * ```
 */
export function policyModuleOf(
  rows: readonly Pick<PolicyRawRow, "policy" | "policy_module" | "policy_module_sha256">[],
): PolicyModuleRecord | undefined {
  let found: PolicyModuleRecord | undefined;
  for (const [index, row] of rows.entries()) {
    if ((POLICIES as readonly string[]).includes(row.policy)) continue;
    const { policy_module: file, policy_module_sha256: sha256 } = row;
    if (file === undefined || sha256 === undefined) {
      throw new RowIntegrityError(
        `line ${index + 1}: policy ${row.policy} is no published policy, and the row names no policy_module`,
      );
    }
    const record = { file, name: row.policy, sha256 };
    if (found !== undefined && JSON.stringify(found) !== JSON.stringify(record)) {
      throw new RowIntegrityError(
        `line ${index + 1}: a second policy module (${record.name}, ${record.file}); a run holds one`,
      );
    }
    found = record;
  }
  return found;
}

const Components = z.record(z.string(), z.number());

/** A `policy.raw.jsonl` line as read back: IDs, scores and support retention (metadata only). */
export const PolicyRawRow = z.strictObject({
  capacity: z.number().check(z.int(), z.minimum(0)),
  case_id: z.string().check(z.minLength(1)),
  evicted: z.array(z.strictObject({
    category: z.unknown(),
    components: Components,
    fact_id: z.string(),
    score: z.number(),
  })),
  kept_fact_ids: z.array(z.string()),
  policy: z.string().check(z.minLength(1)),
  policy_module: z.optional(z.string()),
  policy_module_sha256: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
  question_type: z.string(),
  reserved_correction_slots: z.number().check(z.int(), z.minimum(0)),
  scenario: z.string(),
  schema_version: z.literal(1),
  scores: z.record(z.string(), z.strictObject({ components: Components, value: z.number() })),
  source: z.enum(CASE_SOURCES),
  support_all_retained: z.boolean(),
  support_fact_ids: z.array(z.string()),
  support_recall: z.number().check(z.minimum(0), z.maximum(1)),
});

/** A parsed `policy.raw.jsonl` line. */
export type PolicyRawRow = z.infer<typeof PolicyRawRow>;

/**
 * Parses `policy.raw.jsonl` text line by line; a problem is a {@linkcode RowIntegrityError} naming the file, the
 * line and the field.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { RowIntegrityError } from "../base/errors.ts";
 * import { parsePolicyRawRows } from "./outputs.ts";
 * const row = {
 *   capacity: 7, case_id: "q1", evicted: [], kept_fact_ids: ["f1"], policy: "hybrid-v1", question_type: "t",
 *   reserved_correction_slots: 1, scenario: "access_help", schema_version: 1, scores: {}, source: "longmemeval",
 *   support_all_retained: true, support_fact_ids: ["f1"], support_recall: 1,
 * };
 * strictEqual(parsePolicyRawRows(JSON.stringify(row) + "\n", "p.jsonl")[0].case_id, "q1");
 * throws(() => parsePolicyRawRows("{}\n", "p.jsonl"), RowIntegrityError);
 * ```
 */
export function parsePolicyRawRows(text: string, path: string): PolicyRawRow[] {
  return parseJsonLines(text, path, PolicyRawRow, { error: RowIntegrityError }).map(({ value }) => value);
}

/**
 * The retention facts of a `policy.raw.jsonl` line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parsePolicyRawRows, rawRowEntry } from "./outputs.ts";
 * const row = {
 *   capacity: 7, case_id: "q1", evicted: [], kept_fact_ids: ["f1"], policy: "hybrid-v1", question_type: "t",
 *   reserved_correction_slots: 1, scenario: "access_help", schema_version: 1, scores: {}, source: "longmemeval",
 *   support_all_retained: true, support_fact_ids: ["f1"], support_recall: 1,
 * };
 * const [entry] = parsePolicyRawRows(JSON.stringify(row), "p.jsonl").map(rawRowEntry);
 * deepStrictEqual(entry, {
 *   source: "longmemeval", scenario: "access_help", capacity: 7, policy: "hybrid-v1", supportAllRetained: true, supportRecall: 1,
 * });
 * ```
 */
export function rawRowEntry(row: PolicyRawRow): RetentionEntry {
  return {
    source: row.source,
    scenario: row.scenario,
    capacity: row.capacity,
    policy: row.policy,
    supportAllRetained: row.support_all_retained,
    supportRecall: row.support_recall,
  };
}

/**
 * `summary.json`: one group per (source, scenario, capacity, policy), sorted by those keys.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { evaluateAll } from "./evaluate.ts";
 * import { policySummary } from "./outputs.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const summary = JSON.parse(policySummary(evaluateAll(cases.slice(0, 2), contracts.config), "demo"));
 * strictEqual(summary.groups.length, 3 * 2); // one scenario and source, 3 capacities × 2 policies
 * ```
 */
export function policySummary(
  results: readonly PolicyResult[],
  protocolId: string,
  module?: PolicyModuleRecord,
): string {
  return policySummaryOf(results.map(retentionEntry), protocolId, module);
}

/**
 * `run.json`: dataset identity, artifact hashes, the evaluation clock as Python's `isoformat()`, policies,
 * capacities, creation time and source state. A module run lists the module's policy after the published two
 * and records the module (`policy_module`: file, name, SHA-256).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { runRecord } from "./outputs.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const text = runRecord(contracts, "0".repeat(64), new Date(0), { dirty: false, head: null });
 * const record = JSON.parse(text);
 * strictEqual(record.created_at, "1970-01-01T00:00:00Z");
 * strictEqual(record.evaluation_time, "2026-08-13T00:00:00+00:00");
 * strictEqual(record.artifacts.config_sha256, contracts.hashes.config);
 * ```
 */
export function runRecord(
  contracts: Contracts,
  datasetSha256: string,
  createdAt: Date,
  source: SourceState,
  module?: PolicyModuleRecord,
): string {
  const { config } = contracts;
  const record: Record<string, PyJson> = {
    artifacts: artifactHashes(contracts),
    capacities: config.pool.capacities,
    created_at: createdAtStamp(createdAt),
    dataset: datasetIdentity(contracts, datasetSha256),
    evaluation_time: isoformatUtc(config.evaluation_time),
    git: source as unknown as PyJson,
    policies: module === undefined ? [...POLICIES] : [...POLICIES, module.name],
    protocol_id: config.protocol_id,
    schema_version: 1,
  };
  if (module !== undefined) record.policy_module = { ...module };
  return dumps(record, { indent: 2 }) + "\n";
}

/**
 * The retention table for the terminal: support kept per capacity × scenario × policy, and totals.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { evaluateAll } from "./evaluate.ts";
 * import { retentionTable } from "./outputs.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const lines = retentionTable(evaluateAll(cases.slice(0, 1), contracts.config)).split("\n");
 * deepStrictEqual([lines[1], lines.length], ["capacity 5", 1 + 3 * 3]); // per capacity: scenario line, total line
 * ```
 */
export function retentionTable(
  results: readonly PolicyResult[],
  policies: readonly string[] = POLICIES,
): string {
  return retentionTableOf(results.map(retentionEntry), policies);
}

/**
 * The retention table of {@linkcode retentionTable} from retention entries (e.g. read back from
 * `policy.raw.jsonl`).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { retentionTableOf } from "./outputs.ts";
 * const entry = { source: "longmemeval", scenario: "access_help", capacity: 7, supportRecall: 1 };
 * const table = retentionTableOf([
 *   { ...entry, policy: "confidence", supportAllRetained: false },
 *   { ...entry, policy: "hybrid-v1", supportAllRetained: true },
 * ]);
 * strictEqual(table.split("\n")[2], "  access_help        0/1       1/1");
 * ```
 */
export function retentionTableOf(
  results: readonly RetentionEntry[],
  policies: readonly string[] = POLICIES,
): string {
  const scenarios = [...new Set(results.map((result) => result.scenario))];
  const capacities = [...new Set(results.map((result) => result.capacity))];
  const width = Math.max(12, ...scenarios.map((scenario) => scenario.length));
  const count = (filter: (result: RetentionEntry) => boolean, policy: string) => {
    const members = results.filter((result) => result.policy === policy && filter(result));
    return `${members.filter((member) => member.supportAllRetained).length}/${members.length}`;
  };
  // A column is ten wide, or wider for a module's long name.
  const column = (policy: string) =>
    (POLICIES as readonly string[]).includes(policy) ? 10 : Math.max(10, policy.length + 1);
  const cells = (cell: (policy: string) => string) =>
    policies.map((policy) => cell(policy).padStart(column(policy))).join("");
  const lines = [`support retained${" ".repeat(Math.max(1, width - 14))}  ${cells((p) => p)}`];
  for (const capacity of capacities) {
    lines.push(`capacity ${capacity}`);
    for (const scenario of scenarios) {
      const filter = (result: RetentionEntry) => result.capacity === capacity && result.scenario === scenario;
      lines.push(`  ${scenario.padEnd(width)}${cells((policy) => count(filter, policy))}`);
    }
    const total = (result: RetentionEntry) => result.capacity === capacity;
    const cases = results.filter((result) => total(result) && result.policy === policies[0]).length;
    lines.push(`  ${`all ${cases} cases`.padEnd(width)}${cells((policy) => count(total, policy))}`);
  }
  return lines.join("\n");
}
