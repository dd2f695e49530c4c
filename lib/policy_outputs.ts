/**
 * `run-policy` outputs: the `policy.raw.jsonl` lines, `summary.json` (retention by source, scenario,
 * capacity, policy — synthetic never folded into official), the `run.json` record, and the terminal table.
 *
 * @module
 */

import type { Contracts } from "./contracts.ts";
import { isoformatUtc } from "./config.ts";
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
  const groups = new Map<string, PolicyResult[]>();
  for (const result of results) {
    const key = JSON.stringify([
      result.prepared.source,
      result.prepared.scenario,
      result.capacity,
      result.policy,
    ]);
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  const rows = [...groups.values()].map((members) => {
    const first = members[0];
    const retained = members.filter((member) => member.supportAllRetained).length;
    const recall = members.reduce((sum, member) => sum + member.supportRecall, 0);
    return {
      capacity: first.capacity,
      cases: members.length,
      mean_support_recall: new PyFloat(recall / members.length),
      policy: first.policy,
      scenario: first.prepared.scenario,
      source: first.prepared.source,
      support_all_retained: retained,
      support_all_retained_rate: new PyFloat(retained / members.length),
    };
  }).sort((a, b) =>
    compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
    a.capacity - b.capacity ||
    compareCodePoints(a.policy, b.policy)
  );
  return dumps({ groups: rows, protocol_id: protocolId, schema_version: 1 }, { indent: 2 }) + "\n";
}

/** Provenance of the program that wrote a record, in place of the reference's git state. */
export interface SourceState {
  dirty: boolean | null;
  head: string | null;
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
  const scenarios = [...new Set(results.map((result) => result.prepared.scenario))];
  const capacities = [...new Set(results.map((result) => result.capacity))];
  const width = Math.max(12, ...scenarios.map((scenario) => scenario.length));
  const count = (filter: (result: PolicyResult) => boolean, policy: string) => {
    const members = results.filter((result) => result.policy === policy && filter(result));
    return `${members.filter((member) => member.supportAllRetained).length}/${members.length}`;
  };
  const lines = [
    `support retained${" ".repeat(Math.max(1, width - 14))}  ${policies.map((p) => p.padStart(10)).join("")}`,
  ];
  for (const capacity of capacities) {
    lines.push(`capacity ${capacity}`);
    for (const scenario of scenarios) {
      const filter = (result: PolicyResult) =>
        result.capacity === capacity && result.prepared.scenario === scenario;
      lines.push(
        `  ${scenario.padEnd(width)}${policies.map((policy) => count(filter, policy).padStart(10)).join("")}`,
      );
    }
    const total = (result: PolicyResult) => result.capacity === capacity;
    const cases = results.filter((result) => total(result) && result.policy === policies[0]).length;
    lines.push(
      `  ${`all ${cases} cases`.padEnd(width)}${
        policies.map((policy) => count(total, policy).padStart(10)).join("")
      }`,
    );
  }
  return lines.join("\n");
}
