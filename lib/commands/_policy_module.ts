/**
 * A policy module as the stages take it: read once, hashed, its policy run only in the sandbox, and what
 * identifies it in the outputs.
 *
 * @module
 */

import {
  loadPolicyModule,
  type ModulePolicy,
  type PolicyModuleOptions,
  type PolicyModuleRecord,
} from "../policy/mod.ts";
import type { PyJson } from "../py/mod.ts";

/** A policy other than the two published ones, run in their place, and what identifies it in the outputs. */
export interface CustomPolicyRun {
  /** The module's policy: its name, and what its sandbox runs. */
  policy: ModulePolicy;
  /** The module path, for error messages. */
  origin: string;
  /** Fields added to every row of the module's (its file name and SHA-256). */
  fields: Readonly<Record<string, PyJson>>;
  /** The module as `summary.json` and `run.json` record it: file name, policy name, SHA-256. */
  record: PolicyModuleRecord;
}

/**
 * Loads a `--policy-module`: the file is read once and hashed, and its policy runs only in a sandbox with no
 * permission at all (see {@linkcode evaluatePolicy}). This process gives up what it no longer needs first (the
 * network is already revoked): the environment, ffi and sys; run stays, for starting the sandbox.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { customPolicyRun } from "./_policy_module.ts";
 * const path = `${await Deno.makeTempDir()}/keep_first.py`;
 * await Deno.writeTextFile(path, "");
 * await rejects(customPolicyRun(path), /keep_first\.py: must be a \.ts, \.mts, \.js or \.mjs file/);
 * strictEqual(Deno.permissions.querySync({ name: "env" }).state, "prompt"); // from here on, no environment
 * ```
 */
export async function customPolicyRun(
  path: string,
  options: PolicyModuleOptions = {},
): Promise<CustomPolicyRun> {
  for (const name of ["env", "ffi", "sys"] as const) await Deno.permissions.revoke({ name });
  const loaded = await loadPolicyModule(path, options);
  return {
    policy: loaded.policy,
    origin: path,
    fields: { policy_module: loaded.moduleName, policy_module_sha256: loaded.sha256 },
    record: { file: loaded.moduleName, name: loaded.policy.name, sha256: loaded.sha256 },
  };
}
