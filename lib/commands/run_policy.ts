/**
 * Stage 3, `run-policy`: evaluates both published policies (or a policy module's) on every case at every
 * capacity and writes the 270 metadata-only rows, the summary and the run record, all together or not at all.
 *
 * @module
 */

import { ensureDir, writeAllOrNothing } from "../base/fs.ts";
import { evaluateAll, type PolicyResult } from "../policy/policies.ts";
import { evaluatePolicy, loadPolicyModule, type Policy } from "../policy/policies.ts";
import type { PyJson } from "../py/json.ts";
import { policyRawJsonl, policySummary, runRecord } from "../policy/outputs.ts";
import type { SourceState } from "../protocol/identity.ts";
import type { PreparedProtocol } from "../protocol/prepare.ts";

/** The three files `run-policy` writes. */
export const POLICY_OUTPUTS = ["policy.raw.jsonl", "summary.json", "run.json"] as const;

/** A policy other than the two published ones, run in their place, and what identifies it in the outputs. */
export interface CustomPolicyRun {
  policy: Policy;
  /** The module path, for error messages. */
  origin: string;
  /** Fields added to every row and to `run.json` (the module's name and SHA-256). */
  fields: Readonly<Record<string, PyJson>>;
}

/**
 * Loads a `--policy-module` with nothing but read permission left to give it: the network is already revoked,
 * and the environment (read only for the dataset path, before this) goes too. Write permission cannot be
 * dropped in-process while the outputs are still to be written.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sha256Hex } from "../base/hash.ts";
 * import { customPolicyRun } from "./run_policy.ts";
 * const path = `${await Deno.makeTempDir()}/keep_first.js`;
 * const source = 'export default { name: "keep-first", select: (input) => ({ ' +
 *   "kept: input.facts.slice(0, input.capacity).map((fact) => fact.id), " +
 *   "evicted: input.facts.slice(input.capacity).map((fact) => fact.id), scores: {} }) };\n";
 * await Deno.writeTextFile(path, source);
 * const custom = await customPolicyRun(path); // from here on this process may not read the environment
 * strictEqual(custom.policy.name, "keep-first");
 * strictEqual(custom.fields.policy_module_sha256, sha256Hex(source));
 * strictEqual(Deno.permissions.querySync({ name: "env" }).state, "prompt");
 * ```
 */
export async function customPolicyRun(path: string): Promise<CustomPolicyRun> {
  for (const name of ["env", "run", "ffi", "sys"] as const) await Deno.permissions.revoke({ name });
  const loaded = await loadPolicyModule(path);
  return {
    policy: loaded.policy,
    origin: path,
    fields: { policy_module: loaded.moduleName, policy_module_sha256: loaded.sha256 },
  };
}

/**
 * Stage 3: evaluates every case and writes `policy.raw.jsonl`, `summary.json` and `run.json` into
 * `outputDir`, refusing if any of them exists. The three appear together or not at all. With `custom`, its
 * policy is run (checked case by case) in place of the two published ones.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { POLICY_OUTPUTS, runPolicy } from "./run_policy.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const dir = await Deno.makeTempDir();
 * const results = await runPolicy(prepared, dir, new Date(0), { dirty: null, head: null });
 * strictEqual(results.length, 45 * 3 * 2); // cases × capacities × policies
 * deepStrictEqual([...Deno.readDirSync(dir)].map((entry) => entry.name).sort(), [...POLICY_OUTPUTS].sort());
 * ```
 */
export async function runPolicy(
  prepared: PreparedProtocol,
  outputDir: string,
  createdAt: Date,
  source: SourceState,
  custom?: CustomPolicyRun,
): Promise<PolicyResult[]> {
  const { contracts, dataset, cases } = prepared;
  const results = custom === undefined
    ? evaluateAll(cases, contracts.config)
    : evaluatePolicy(custom.policy, prepared, { origin: custom.origin, rowFields: custom.fields });
  const policies = custom && { names: [custom.policy.name], fields: custom.fields };
  const files: Record<(typeof POLICY_OUTPUTS)[number], string> = {
    "policy.raw.jsonl": policyRawJsonl(results),
    "summary.json": policySummary(results, contracts.config.protocol_id),
    "run.json": runRecord(contracts, dataset.sha256, createdAt, source, policies),
  };
  await ensureDir(outputDir);
  await writeAllOrNothing(outputDir, files);
  return results;
}
