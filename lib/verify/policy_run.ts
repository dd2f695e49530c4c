/**
 * The `verify` checks for a `run-policy` directory (`policy.raw.jsonl`, `summary.json`, `run.json`): the rows'
 * structure and internal consistency, `summary.json` re-derived byte for byte, `run.json` against the protocol
 * in use, and — with the prepared cases — every row recomputed byte for byte.
 *
 * @module
 */

import type { Contracts, PreparedCase } from "../protocol/mod.ts";
import { decodeUtf8, type RunFiles, runFilesOf } from "../base/mod.ts";
import {
  evaluateAll,
  evaluatePolicy,
  type ModulePolicy,
  parsePolicyRawRows,
  POLICIES,
  policyModuleOf,
  type PolicyModuleRecord,
  policyRawJsonl,
  type PolicyRawRow,
  policySummaryOf,
  rawRowEntry,
} from "../policy/mod.ts";
import { jsonObjectOf, type PyJson } from "../py/mod.ts";
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

/** A loaded policy module, to re-derive a module run's own rows (its SHA-256 already held to the run's). */
export interface PolicyRunModule {
  /** The module's policy, run in its sandbox. */
  policy: ModulePolicy;
  /** The module path, for messages. */
  origin: string;
  /** The fields its rows carry (file name and SHA-256). */
  fields: Readonly<Record<string, PyJson>>;
  /** File name, policy name and SHA-256. */
  record: PolicyModuleRecord;
}

/** The policies a run's rows must cover: the published two, then its module's. */
function runPolicies(module: PolicyModuleRecord | undefined): string[] {
  return module === undefined ? [...POLICIES] : [...POLICIES, module.name];
}

/** Problems of the rows on their own: one row per case × capacity × policy, every pair present, consistent. */
function rowProblems(
  rows: readonly PolicyRawRow[],
  contracts: Contracts,
  module: PolicyModuleRecord | undefined,
): string[] {
  const { capacities, size } = contracts.config.pool;
  const problems: string[] = [];
  const seen = new Set<string>();
  const cases = new Set<string>();
  rows.forEach((row, index) => {
    const where = `line ${index + 1} (${row.case_id}, ${row.capacity}, ${row.policy})`;
    const key = JSON.stringify([row.case_id, row.capacity, row.policy]);
    if (seen.has(key)) problems.push(`${where}: duplicate`);
    const published = (POLICIES as readonly string[]).includes(row.policy);
    if (published && (row.policy_module !== undefined || row.policy_module_sha256 !== undefined)) {
      problems.push(`${where}: a published policy's row names a policy_module`);
    }
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
      for (const policy of runPolicies(module)) {
        if (!seen.has(JSON.stringify([caseId, capacity, policy]))) {
          problems.push(`${caseId}: no row at capacity ${capacity} for ${policy}`);
        }
      }
    }
  }
  return problems;
}

/** `run.json` fields that must name the protocol in use. */
function runRecordProblems(
  record: Record<string, unknown>,
  contracts: Contracts,
  module: PolicyModuleRecord | undefined,
): string[] {
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
    ["policies", JSON.stringify(record.policies), JSON.stringify(runPolicies(module))],
    ["policy_module", JSON.stringify(record.policy_module), JSON.stringify(module)],
  ];
  return expected.filter(([, actual, wanted]) => actual !== wanted).map(([field]) => field);
}

/**
 * Runs every check on a `run-policy` directory. `cases` (prepared from the pinned dataset) enables the
 * recomputation of every row: the published policies' always, a module run's own rows only given `module` (the
 * same module, held to the run by SHA-256 before this is called).
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
  module?: PolicyRunModule,
): Promise<PolicyVerification> {
  const files = runFilesOf(directory);
  const checks: Check[] = [];
  const raw = await readFile(files, "policy.raw.jsonl");
  const read = checkRawRows(checks, raw?.text, files.path("policy.raw.jsonl"), contracts);
  const rows = read?.rows;
  checkSummary(checks, read, (await readFile(files, "summary.json"))?.bytes, contracts);
  checkRunRecord(checks, (await readFile(files, "run.json"))?.text, contracts, read?.module);
  const recorded = read?.module;
  const moduleRows = recorded !== undefined && module === undefined;
  if (cases !== undefined && raw !== undefined) {
    checks.push(await recomputedCheck(raw.bytes, cases, contracts, recorded, module));
  }
  const ofRows = recorded === undefined
    ? "every row"
    : moduleRows
    ? `every confidence and hybrid-v1 row (${recorded.name}'s need --policy-module ${recorded.file})`
    : `every row (${recorded.name}'s through its module)`;
  const proved = cases === undefined
    ? "structure and retention verified: summary.json follows from the rows and run.json names this protocol; the kept facts and scores need --dataset to be recomputed"
    : `${ofRows} recomputed from the pinned dataset byte for byte; summary.json follows from the rows; run.json names this protocol`;
  return { checks, proved, rows };
}

/** The rows recomputed and compared byte for byte: a module run's published rows, and its own given the module. */
async function recomputedCheck(
  bytes: Uint8Array,
  cases: readonly PreparedCase[],
  contracts: Contracts,
  recorded: PolicyModuleRecord | undefined,
  module: PolicyRunModule | undefined,
): Promise<Check> {
  const name = "policy.raw.jsonl recomputed from the dataset byte for byte (kept facts, scores, evictions)";
  if (module !== undefined && module.record.sha256 !== recorded?.sha256) {
    const made = recorded === undefined ? "no module" : `sha256 ${recorded.sha256}`;
    return {
      name,
      verdict: "fail",
      detail: `made with ${made}, not ${module.origin} (sha256 ${module.record.sha256})`,
    };
  }
  const published = policyRawJsonl(evaluateAll(cases, contracts.config));
  const own = module === undefined ? "" : policyRawJsonl(
    await evaluatePolicy(module.policy, { contracts, cases }, {
      origin: module.origin,
      rowFields: module.fields,
    }),
  );
  const recomputed = new TextEncoder().encode(published + own);
  // Without its module, a module run's own rows (after the published ones) are left to the structure checks.
  const compared = recorded !== undefined && module === undefined
    ? bytes.subarray(0, recomputed.length)
    : bytes;
  const at = firstByteDifference(compared, recomputed);
  return {
    name,
    verdict: at === undefined ? "pass" : "fail",
    detail: at === undefined ? undefined : `first difference at byte ${at}`,
  };
}

/** A file's bytes and text (capped; invalid UTF-8 refused as every text read refuses it), or `undefined`. */
async function readFile(
  files: RunFiles,
  name: string,
): Promise<{ bytes: Uint8Array; text: string } | undefined> {
  const bytes = await files.bytes(name);
  return bytes === undefined ? undefined : { bytes, text: decodeUtf8(bytes, files.path(name)) };
}

/** The rows as read, and the module they were made with (none for a plain run). */
interface ReadRows {
  rows: PolicyRawRow[];
  module?: PolicyModuleRecord;
}

function checkRawRows(
  checks: Check[],
  rawText: string | undefined,
  rawPath: string,
  contracts: Contracts,
): ReadRows | undefined {
  if (rawText === undefined) {
    checks.push({ name: "policy.raw.jsonl is present", verdict: "fail", detail: "missing" });
    return undefined;
  }
  try {
    const rows = parsePolicyRawRows(rawText, rawPath);
    const module = policyModuleOf(rows);
    const problems = rowProblems(rows, contracts, module);
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
    return { rows, module };
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
  read: ReadRows | undefined,
  summary: Uint8Array | undefined,
  contracts: Contracts,
): void {
  const name = "summary.json re-derived byte for byte from the rows";
  if (read === undefined || summary === undefined) {
    checks.push({ name, verdict: "fail", detail: summary === undefined ? "missing" : "rows unreadable" });
    return;
  }
  const derived = policySummaryOf(read.rows.map(rawRowEntry), contracts.config.protocol_id, read.module);
  const difference = figureDetail(summary, derived);
  checks.push({ name, verdict: difference === undefined ? "pass" : "fail", detail: difference });
}

function checkRunRecord(
  checks: Check[],
  recordText: string | undefined,
  contracts: Contracts,
  module: PolicyModuleRecord | undefined,
): void {
  if (recordText === undefined) {
    checks.push({ name: "run.json names the protocol in use", verdict: "fail", detail: "missing" });
    return;
  }
  const record = jsonObjectOf(recordText);
  const differing = record !== undefined
    ? runRecordProblems(record, contracts, module)
    : ["(not a JSON object)"];
  checks.push({
    name:
      "run.json: protocol id, four artifact hashes, dataset pin, capacities and policies match the protocol and the rows",
    verdict: differing.length === 0 ? "pass" : "fail",
    detail: differing.length === 0 ? undefined : `differ: ${differing.join(", ")}`,
  });
}

/**
 * The module a policy run's `run.json` records (`policy_module`: file, name, SHA-256), or `undefined` when it
 * records none (a plain run) or cannot be read (the checks then say why).
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { recordedPolicyModule } from "./policy_run.ts";
 * const dir = await Deno.makeTempDir();
 * strictEqual(await recordedPolicyModule(dir), undefined);
 * const module = { file: "recency.ts", name: "recency", sha256: "0".repeat(64) };
 * await Deno.writeTextFile(`${dir}/run.json`, JSON.stringify({ policy_module: module }));
 * deepStrictEqual(await recordedPolicyModule(dir), module);
 * ```
 */
export async function recordedPolicyModule(
  directory: string | RunFiles,
): Promise<PolicyModuleRecord | undefined> {
  const text = (await readFile(runFilesOf(directory), "run.json"))?.text;
  const module = jsonObjectOf(text)?.policy_module as Record<string, unknown> | null | undefined;
  if (module === null || typeof module !== "object") return undefined;
  const { file, name, sha256 } = module;
  if (typeof file !== "string" || typeof name !== "string" || typeof sha256 !== "string") return undefined;
  return { file, name, sha256 };
}
