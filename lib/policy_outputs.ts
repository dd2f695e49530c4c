/**
 * `run-policy` outputs: the `policy.raw.jsonl` lines, `summary.json` (retention by source, scenario,
 * capacity, policy — synthetic never folded into official), the `run.json` record, and the terminal table.
 *
 * @module
 */

import { z } from "zod";
import type { Contracts } from "./contracts.ts";
import { isoformatUtc } from "./config.ts";
import { RowIntegrityError } from "./errors.ts";
import { parseWith } from "./schema.ts";
import type { PolicyResult } from "./policy.ts";
import { POLICIES } from "./policy.ts";
import { compareCodePoints, dumps, PyFloat, type PyJson } from "./pyjson.ts";

/**
 * Python's `datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")` for a JS date (microseconds 000).
 *
 * @example
 * ```ts
 * import { createdAtStamp } from "./policy_outputs.ts";
 * console.log(createdAtStamp(new Date(Date.UTC(2026, 7, 13)))); // "2026-08-13T00:00:00Z"
 * ```
 */
export function createdAtStamp(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? iso.replace(".000Z", "Z") : iso.replace("Z", "000Z");
}

/**
 * The `policy.raw.jsonl` text: one compact sorted-key line per result, in evaluation order.
 *
 * @example
 * ```ts ignore
 * import { policyRawJsonl } from "./policy_outputs.ts";
 * await Deno.writeTextFile("policy.raw.jsonl", policyRawJsonl(results));
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
 * ```ts ignore
 * import { retentionEntry } from "./policy_outputs.ts";
 * const entries = results.map(retentionEntry);
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
 * ```ts ignore
 * import { policySummaryGroups, retentionEntry } from "./policy_outputs.ts";
 * const groups = policySummaryGroups(results.map(retentionEntry));
 * ```
 */
export function policySummaryGroups(entries: readonly RetentionEntry[]): PolicySummaryGroup[] {
  const groups = new Map<string, RetentionEntry[]>();
  for (const entry of entries) {
    const key = JSON.stringify([entry.source, entry.scenario, entry.capacity, entry.policy]);
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return [...groups.values()].map((members) => {
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
 * ```ts ignore
 * import { policySummaryOf } from "./policy_outputs.ts";
 * const text = policySummaryOf(entries, "deermem-hybrid-v1-pr4789-reproduction-v1");
 * ```
 */
export function policySummaryOf(entries: readonly RetentionEntry[], protocolId: string): string {
  const rows = policySummaryGroups(entries).map((group) => ({
    ...group,
    mean_support_recall: new PyFloat(group.mean_support_recall),
    support_all_retained_rate: new PyFloat(group.support_all_retained_rate),
  }));
  return dumps({ groups: rows, protocol_id: protocolId, schema_version: 1 }, { indent: 2 }) + "\n";
}

const Components = z.record(z.string(), z.number());

/** A `policy.raw.jsonl` line as read back: IDs, scores and support retention (metadata only). */
export const PolicyRawRow = z.strictObject({
  capacity: z.number().int().min(0),
  case_id: z.string().min(1),
  evicted: z.array(z.strictObject({
    category: z.unknown(),
    components: Components,
    fact_id: z.string(),
    score: z.number(),
  })),
  kept_fact_ids: z.array(z.string()),
  policy: z.enum(["confidence", "hybrid-v1"]),
  question_type: z.string(),
  reserved_correction_slots: z.number().int().min(0),
  scenario: z.string(),
  schema_version: z.literal(1),
  scores: z.record(z.string(), z.strictObject({ components: Components, value: z.number() })),
  source: z.enum(["longmemeval", "synthetic"]),
  support_all_retained: z.boolean(),
  support_fact_ids: z.array(z.string()),
  support_recall: z.number().min(0).max(1),
});

/** A parsed `policy.raw.jsonl` line. */
export type PolicyRawRow = z.infer<typeof PolicyRawRow>;

/**
 * Parses `policy.raw.jsonl` text line by line; a problem is a {@linkcode RowIntegrityError} naming the file, the
 * line and the field.
 *
 * @example
 * ```ts ignore
 * import { parsePolicyRawRows } from "./policy_outputs.ts";
 * const rows = parsePolicyRawRows(text, "run/policy.raw.jsonl");
 * ```
 */
export function parsePolicyRawRows(text: string, path: string): PolicyRawRow[] {
  const rows: PolicyRawRow[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (error) {
      throw new RowIntegrityError(`line ${index + 1}: not valid JSON`, { path, cause: error });
    }
    rows.push(
      parseWith(PolicyRawRow, data, path, { error: RowIntegrityError, prefix: `line ${index + 1}: ` }),
    );
  });
  return rows;
}

/**
 * The retention facts of a `policy.raw.jsonl` line.
 *
 * @example
 * ```ts ignore
 * import { parsePolicyRawRows, rawRowEntry } from "./policy_outputs.ts";
 * const entries = parsePolicyRawRows(text, path).map(rawRowEntry);
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
 * ```ts ignore
 * import { policySummary } from "./policy_outputs.ts";
 * const text = policySummary(results, contracts.config.protocol_id);
 * ```
 */
export function policySummary(results: readonly PolicyResult[], protocolId: string): string {
  return policySummaryOf(results.map(retentionEntry), protocolId);
}

/** Provenance of the program that wrote a record, in place of the reference's git state. */
export interface SourceState {
  /** Whether the working tree had changes (`null`: unknown). */
  dirty: boolean | null;
  /** The commit the program was built from (`null`: unknown). */
  head: string | null;
  /** The program that wrote the record. */
  tool?: string;
}

/**
 * `run.json`: dataset identity, artifact hashes, the evaluation clock as Python's `isoformat()`, policies,
 * capacities, creation time and source state. `policies` names a custom run's policy and adds its fields (the
 * module's name and SHA-256).
 *
 * @example
 * ```ts ignore
 * import { runRecord } from "./policy_outputs.ts";
 * const text = runRecord(contracts, datasetSha256, new Date(), { dirty: null, head: null, tool: "deermem-eval 0.1.0" });
 * ```
 */
export function runRecord(
  contracts: Contracts,
  datasetSha256: string,
  createdAt: Date,
  source: SourceState,
  policies: { names: readonly string[]; fields?: Readonly<Record<string, PyJson>> } = { names: POLICIES },
): string {
  const { config, hashes } = contracts;
  const record: Record<string, PyJson> = {
    artifacts: {
      answer_prompt_sha256: hashes.prompt,
      config_sha256: hashes.config,
      official_manifest_sha256: hashes.official,
      synthetic_manifest_sha256: hashes.synthetic,
    },
    capacities: config.pool.capacities,
    created_at: createdAtStamp(createdAt),
    dataset: {
      filename: config.dataset.filename,
      repository: config.dataset.repository,
      revision: config.dataset.revision,
      sha256: datasetSha256,
    },
    evaluation_time: isoformatUtc(config.evaluation_time),
    git: source as unknown as PyJson,
    policies: [...policies.names],
    protocol_id: config.protocol_id,
    schema_version: 1,
    ...policies.fields,
  };
  return dumps(record, { indent: 2 }) + "\n";
}

/**
 * The retention table for the terminal: support kept per capacity × scenario × policy, and totals.
 *
 * @example
 * ```ts ignore
 * import { retentionTable } from "./policy_outputs.ts";
 * console.log(retentionTable(results)); // … "all 45 cases   27/45   45/45" at capacity 7
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
 * ```ts ignore
 * import { retentionTableOf } from "./policy_outputs.ts";
 * console.log(retentionTableOf(entries));
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
  const lines = [
    `support retained${" ".repeat(Math.max(1, width - 14))}  ${policies.map((p) => p.padStart(10)).join("")}`,
  ];
  for (const capacity of capacities) {
    lines.push(`capacity ${capacity}`);
    for (const scenario of scenarios) {
      const filter = (result: RetentionEntry) => result.capacity === capacity && result.scenario === scenario;
      lines.push(
        `  ${scenario.padEnd(width)}${policies.map((policy) => count(filter, policy).padStart(10)).join("")}`,
      );
    }
    const total = (result: RetentionEntry) => result.capacity === capacity;
    const cases = results.filter((result) => total(result) && result.policy === policies[0]).length;
    lines.push(
      `  ${`all ${cases} cases`.padEnd(width)}${
        policies.map((policy) => count(total, policy).padStart(10)).join("")
      }`,
    );
  }
  return lines.join("\n");
}
