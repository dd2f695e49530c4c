/**
 * The offline stages as functions over loaded contracts and dataset bytes: `validate` (hash, selection, bank,
 * cases) and `run-policy` (270 rows, summary, run record, written atomically without overwriting).
 *
 * @module
 */

import type { Contracts } from "./contracts.ts";
import { type Dataset, loadDataset } from "./dataset.ts";
import { ensureDir, refuseExisting, writeFileAtomic } from "./fs.ts";
import { evaluateAll, type PolicyResult } from "./policy.ts";
import { prepareCases, type PreparedCase } from "./protocol.ts";
import { policyRawJsonl, policySummary, runRecord, type SourceState } from "./results.ts";

/** A verified dataset and the cases rebuilt from it. */
export interface PreparedProtocol {
  contracts: Contracts;
  dataset: Dataset;
  cases: PreparedCase[];
}

/**
 * Stage 2: verifies the dataset bytes against the config's pin, recomputes the official selection and builds
 * the bank and all cases.
 *
 * @example
 * ```ts ignore
 * import { prepareProtocol } from "./stages.ts";
 * const { cases } = await prepareProtocol(contracts, bytes, "longmemeval_oracle.json");
 * ```
 */
export async function prepareProtocol(
  contracts: Contracts,
  datasetBytes: Uint8Array,
  datasetPath: string,
): Promise<PreparedProtocol> {
  const dataset = await loadDataset(datasetBytes, datasetPath, contracts.config.dataset.sha256);
  const cases = await prepareCases(dataset, contracts);
  return { contracts, dataset, cases };
}

/** The three files `run-policy` writes. */
export const POLICY_OUTPUTS = ["policy.raw.jsonl", "summary.json", "run.json"] as const;

/**
 * Stage 3: evaluates every case and writes `policy.raw.jsonl`, `summary.json` and `run.json` into
 * `outputDir`, refusing if any of them exists. Each file is written atomically.
 *
 * @example
 * ```ts ignore
 * import { runPolicy } from "./stages.ts";
 * const results = await runPolicy(prepared, "/tmp/run", new Date(), { dirty: null, head: null });
 * ```
 */
export async function runPolicy(
  prepared: PreparedProtocol,
  outputDir: string,
  createdAt: Date,
  source: SourceState,
): Promise<PolicyResult[]> {
  const { contracts, dataset, cases } = prepared;
  const results = evaluateAll(cases, contracts.config);
  const files: Record<(typeof POLICY_OUTPUTS)[number], string> = {
    "policy.raw.jsonl": policyRawJsonl(results),
    "summary.json": policySummary(results, contracts.config.protocol_id),
    "run.json": runRecord(contracts, dataset.sha256, createdAt, source),
  };
  await ensureDir(outputDir);
  await refuseExisting(POLICY_OUTPUTS.map((name) => `${outputDir}/${name}`));
  for (const name of POLICY_OUTPUTS) await writeFileAtomic(`${outputDir}/${name}`, files[name]);
  return results;
}
