/**
 * The `verify` checks for a `run-policy` directory (`policy.raw.jsonl`, `summary.json`, `run.json`): the rows'
 * structure and internal consistency, `summary.json` re-derived byte for byte, `run.json` against the protocol
 * in use, and — with the prepared cases — every row recomputed byte for byte.
 *
 * @module
 */

import type { Contracts } from "../protocol/contracts.ts";
import type { PreparedCase } from "../protocol/cases.ts";
import { decodeUtf8, type RunFiles, runFilesOf } from "../base/fs.ts";
import { evaluateAll, POLICIES } from "../policy/mod.ts";
import {
  parsePolicyRawRows,
  policyRawJsonl,
  type PolicyRawRow,
  policySummaryOf,
  rawRowEntry,
} from "../policy/mod.ts";
import { type Check, firstByteDifference } from "./checks.ts";
import { figureDetail } from "./figures.ts";

/** Checks and a one-line statement of what they prove. */
export interface PolicyVerification {
  checks: Check[];
  /** What the passing checks prove, and what they leave unproved. */
  proved: string;
  /** The parsed rows, when they could be read. */
  rows?: PolicyRawRow[];
}

/** Problems of the rows on their own: one row per case × capacity × policy, every pair present, consistent. */
function rowProblems(rows: readonly PolicyRawRow[], contracts: Contracts): string[] {
  const { capacities, size } = contracts.config.pool;
  const problems: string[] = [];
  const seen = new Set<string>();
  const cases = new Set<string>();
  rows.forEach((row, index) => {
    const where = `line ${index + 1} (${row.case_id}, ${row.capacity}, ${row.policy})`;
    const key = JSON.stringify([row.case_id, row.capacity, row.policy]);
    if (seen.has(key)) problems.push(`${where}: duplicate`);
    seen.add(key);
    cases.add(row.case_id);
    if (!capacities.includes(row.capacity)) problems.push(`${where}: capacity not in the protocol`);
    if (row.kept_fact_ids.length !== Math.min(row.capacity, size)) {
      problems.push(`${where}: keeps ${row.kept_fact_ids.length} facts`);
    }
    const kept = new Set(row.kept_fact_ids);
    const retained = row.support_fact_ids.filter((id) => kept.has(id)).length;
    const total = row.support_fact_ids.length;
    if (total === 0 || row.support_all_retained !== (retained === total)) {
      problems.push(`${where}: support_all_retained disagrees with kept_fact_ids`);
    }
    if (total > 0 && !Object.is(row.support_recall, retained / total)) { // -0.0 is not 0.0
      problems.push(`${where}: support_recall disagrees with kept_fact_ids`);
    }
  });
  for (const caseId of cases) {
    for (const capacity of capacities) {
      for (const policy of POLICIES) {
        if (!seen.has(JSON.stringify([caseId, capacity, policy]))) {
          problems.push(`${caseId}: no row at capacity ${capacity} for ${policy}`);
        }
      }
    }
  }
  return problems;
}

/** `run.json` fields that must name the protocol in use. */
function runRecordProblems(record: Record<string, unknown>, contracts: Contracts): string[] {
  const artifacts = (record.artifacts ?? {}) as Record<string, unknown>;
  const dataset = (record.dataset ?? {}) as Record<string, unknown>;
  const expected: [string, unknown, unknown][] = [
    ["protocol_id", record.protocol_id, contracts.config.protocol_id],
    ["artifacts.config_sha256", artifacts.config_sha256, contracts.hashes.config],
    ["artifacts.official_manifest_sha256", artifacts.official_manifest_sha256, contracts.hashes.official],
    ["artifacts.synthetic_manifest_sha256", artifacts.synthetic_manifest_sha256, contracts.hashes.synthetic],
    ["artifacts.answer_prompt_sha256", artifacts.answer_prompt_sha256, contracts.hashes.prompt],
    ["dataset.sha256", dataset.sha256, contracts.config.dataset.sha256],
    ["capacities", JSON.stringify(record.capacities), JSON.stringify(contracts.config.pool.capacities)],
    ["policies", JSON.stringify(record.policies), JSON.stringify(POLICIES)],
  ];
  return expected.filter(([, actual, wanted]) => actual !== wanted).map(([field]) => field);
}

/**
 * Runs every check on a `run-policy` directory. `cases` (prepared from the pinned dataset) enables the
 * recomputation of every row.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/mod.ts";
 * import { runPolicy } from "../commands/run_policy.ts";
 * import { verifyPolicyRun } from "./policy_run.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), dir = await Deno.makeTempDir();
 * await runPolicy(prepared, dir, new Date(), { dirty: null, head: null });
 * const { checks } = await verifyPolicyRun(dir, prepared.contracts, prepared.cases); // every row recomputed
 * deepStrictEqual(checks.map((check) => check.verdict), ["pass", "pass", "pass", "pass"]);
 * ```
 */
export async function verifyPolicyRun(
  directory: string | RunFiles,
  contracts: Contracts,
  cases?: readonly PreparedCase[],
): Promise<PolicyVerification> {
  const files = runFilesOf(directory);
  const checks: Check[] = [];
  const raw = await readFile(files, "policy.raw.jsonl");
  const rows = checkRawRows(checks, raw?.text, files.path("policy.raw.jsonl"), contracts);
  checkSummary(checks, rows, (await readFile(files, "summary.json"))?.bytes, contracts);
  checkRunRecord(checks, (await readFile(files, "run.json"))?.text, contracts);
  if (cases !== undefined && raw !== undefined) {
    const recomputed = new TextEncoder().encode(policyRawJsonl(evaluateAll(cases, contracts.config)));
    const at = firstByteDifference(raw.bytes, recomputed);
    checks.push({
      name: "policy.raw.jsonl recomputed from the dataset byte for byte (kept facts, scores, evictions)",
      verdict: at === undefined ? "pass" : "fail",
      detail: at === undefined ? undefined : `first difference at byte ${at}`,
    });
  }
  const proved = cases === undefined
    ? "structure and retention verified: summary.json follows from the rows and run.json names this protocol; the kept facts and scores need --dataset to be recomputed"
    : "every row recomputed from the pinned dataset byte for byte; summary.json follows from the rows; run.json names this protocol";
  return { checks, proved, rows };
}

/** A file's bytes and text (capped; invalid UTF-8 refused as every text read refuses it), or `undefined`. */
async function readFile(
  files: RunFiles,
  name: string,
): Promise<{ bytes: Uint8Array; text: string } | undefined> {
  const bytes = await files.bytes(name);
  return bytes === undefined ? undefined : { bytes, text: decodeUtf8(bytes, files.path(name)) };
}

function checkRawRows(
  checks: Check[],
  rawText: string | undefined,
  rawPath: string,
  contracts: Contracts,
): PolicyRawRow[] | undefined {
  if (rawText === undefined) {
    checks.push({ name: "policy.raw.jsonl is present", verdict: "fail", detail: "missing" });
    return undefined;
  }
  try {
    const rows = parsePolicyRawRows(rawText, rawPath);
    const problems = rowProblems(rows, contracts);
    checks.push({
      name:
        `policy.raw.jsonl: ${rows.length} rows, one per case × capacity × policy, each keeping its capacity and consistent in support retention`,
      verdict: problems.length === 0 && rows.length > 0 ? "pass" : "fail",
      detail: problems.length > 0
        ? `${problems.length} problem(s): ${problems.slice(0, 3).join("; ")}`
        : rows.length === 0
        ? "no rows"
        : undefined,
    });
    return rows;
  } catch (error) {
    checks.push({
      name: "policy.raw.jsonl matches the row schema",
      verdict: "fail",
      detail: (error as Error).message,
    });
    return undefined;
  }
}

function checkSummary(
  checks: Check[],
  rows: PolicyRawRow[] | undefined,
  summary: Uint8Array | undefined,
  contracts: Contracts,
): void {
  const name = "summary.json re-derived byte for byte from the rows";
  if (rows === undefined || summary === undefined) {
    checks.push({ name, verdict: "fail", detail: summary === undefined ? "missing" : "rows unreadable" });
    return;
  }
  const derived = policySummaryOf(rows.map(rawRowEntry), contracts.config.protocol_id);
  const difference = figureDetail(summary, derived);
  checks.push({ name, verdict: difference === undefined ? "pass" : "fail", detail: difference });
}

function checkRunRecord(checks: Check[], recordText: string | undefined, contracts: Contracts): void {
  if (recordText === undefined) {
    checks.push({ name: "run.json names the protocol in use", verdict: "fail", detail: "missing" });
    return;
  }
  let record: unknown;
  try {
    record = JSON.parse(recordText);
  } catch {
    record = undefined;
  }
  const differing = record !== null && typeof record === "object"
    ? runRecordProblems(record as Record<string, unknown>, contracts)
    : ["(not a JSON object)"];
  checks.push({
    name:
      "run.json: protocol id, four artifact hashes, dataset pin, capacities and policies match the protocol",
    verdict: differing.length === 0 ? "pass" : "fail",
    detail: differing.length === 0 ? undefined : `differ: ${differing.join(", ")}`,
  });
}
