/**
 * `run-qa --reuse DIR[,DIR…]`: its flags, the endpoint a dry run matches answers by, and the proof a graded
 * source must pass (`verify`, from the layer above qa's reading of the sources): it must verify, and each of its
 * answers must then be the one its grades recorded (which qa checks).
 *
 * @module
 */

import { InputError, runFilesOf } from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import type { GradedRow } from "../qa/mod.ts";
import { checkLine, verifyQaRun } from "../verify/mod.ts";

/** The `--reuse` and `--reuse-ungraded` flags. */
export const REUSE_FLAG = {
  reuse: {
    type: "list",
    of: "directories",
    value: "DIR[,DIR…]",
    help: "take the recorded answer of every task whose request (fingerprint and endpoint)\n" +
      "an earlier, graded run directory answered; call only the rest",
  },
  "reuse-ungraded": {
    type: "boolean",
    help: "with --reuse: also take answers from a run not graded (nothing proves them;\n" +
      "verify and report then say so)",
  },
} as const;

/**
 * The base URL a dry run with `--reuse` matches answers by: the variable's (the key is not read), so a dry run
 * prices only what would be called.
 */
export function dryRunBaseUrl(contracts: Contracts, env: (name: string) => string | undefined): string {
  const variable = contracts.config.qa.base_url_env;
  const baseUrl = Deno.permissions.querySync({ name: "env", variable }).state === "granted"
    ? env(variable)
    : undefined;
  if (baseUrl === undefined || !URL.canParse(baseUrl)) {
    throw new InputError(
      `--reuse matches answers by endpoint: set ${variable} to its base URL for the dry run too (the key is ` +
        "not read)",
    );
  }
  return baseUrl;
}

/** A graded source's verified rows by row id; refused when `verify` does not pass it. */
export async function proveReuseSource(
  directory: string,
  contracts: Contracts,
): Promise<Map<string, GradedRow>> {
  const { result, rows } = await verifyQaRun(runFilesOf(directory), contracts);
  if (!result.ok || rows === undefined) {
    const failed = result.checks.find((check) => check.verdict === "fail");
    const first = failed === undefined ? "" : `; the first: ${checkLine(failed)}`;
    throw new InputError(`not reused: ${result.conclusion}${first} (run verify on it)`, { path: directory });
  }
  return new Map(rows.map((row) => [row.row_id, row]));
}
