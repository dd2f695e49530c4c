/**
 * A candidate run: a policy module's policy answered against a built-in baseline instead of the two published
 * policies. What identifies it — the baseline, the candidate's name, the module's file name and SHA-256 — is
 * recorded in `qa_run.json` and carried by the candidate's rows; every later stage is held to it.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import { ContractError } from "../../base/mod.ts";
import { type EvictionPolicy, POLICIES, type PolicyResult } from "../../policy/mod.ts";

/** What binds a run to its candidate: the `candidate` block of `qa_run.json`. */
export interface RunCandidate {
  /** The built-in policy the candidate is compared with. */
  baseline: EvictionPolicy;
  /** The candidate policy's name, written in its rows' `policy`. */
  policy: string;
  /** The module's file name. */
  policy_module: string;
  /** SHA-256 of the module's source bytes. */
  policy_module_sha256: string;
}

/** The `candidate` block's schema: exactly these four keys. */
export const runCandidateSchema: z.ZodMiniType<RunCandidate, unknown> = z.strictObject({
  baseline: z.enum(POLICIES),
  policy: z.string().check(z.minLength(1)),
  policy_module: z.string(),
  policy_module_sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits")),
});

/** The candidate in use, held to the recorded one; its baseline is compared only when given. */
export type ExpectedCandidate = Omit<RunCandidate, "baseline"> & { baseline?: EvictionPolicy };

/** A candidate with its decisions at the QA capacity, one result per case in protocol order. */
export interface QaCandidate extends RunCandidate {
  results: readonly PolicyResult[];
}

/**
 * The two policies a run compares, `[first, second]`: the statistics are second minus first. Without a
 * candidate, the published pair `confidence`, `hybrid-v1`; with one, its baseline then the candidate.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { policyPair } from "./candidate.ts";
 * deepStrictEqual(policyPair(undefined), ["confidence", "hybrid-v1"]);
 * const candidate = { baseline: "hybrid-v1" as const, policy: "recency", policy_module: "recency.ts", policy_module_sha256: "0".repeat(64) };
 * deepStrictEqual(policyPair(candidate), ["hybrid-v1", "recency"]);
 * ```
 */
export function policyPair(candidate: Pick<RunCandidate, "baseline" | "policy"> | undefined): PolicyPair {
  return candidate === undefined ? PUBLISHED_PAIR : [candidate.baseline, candidate.policy];
}

/** The published pair, `confidence` then `hybrid-v1`: every run without a policy module compares these. */
export const PUBLISHED_PAIR: PolicyPair = [POLICIES[0], POLICIES[1]];

/** The two policies a run compares, `[first, second]`. */
export type PolicyPair = readonly [first: string, second: string];

/**
 * Holds a run's recorded candidate (from its marker) to the one in use, refusing in one line naming which
 * differs: a run made with a module needs that module (same SHA-256) and that baseline; a run of the published
 * pair takes no module.
 *
 * @param recorded The marker's `candidate` block, if any.
 * @param expected The candidate in use; its `baseline` is compared only when given.
 * @param path The marker's path, for the message.
 * @throws {ContractError} When they differ.
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { ContractError } from "../../base/errors.ts";
 * import { checkCandidate } from "./candidate.ts";
 * const recorded = { baseline: "confidence" as const, policy: "recency", policy_module: "recency.ts", policy_module_sha256: "a".repeat(64) };
 * checkCandidate(recorded, recorded, "run/qa_run.json");
 * throws(() => checkCandidate(recorded, { ...recorded, policy_module_sha256: "b".repeat(64) }, "run/qa_run.json"), ContractError);
 * throws(() => checkCandidate(recorded, undefined, "run/qa_run.json"), ContractError); // the module is needed
 * throws(() => checkCandidate(undefined, recorded, "run/qa_run.json"), ContractError); // a run of the published pair
 * ```
 */
export function checkCandidate(
  recorded: RunCandidate | undefined,
  expected: ExpectedCandidate | undefined,
  path: string,
): void {
  if (recorded === undefined && expected === undefined) return;
  if (recorded === undefined) {
    throw new ContractError(
      `this run compares the published policies, not a policy module: run it without --policy-module ` +
        `${expected!.policy_module}, or use a fresh output directory`,
      { path, field: "candidate" },
    );
  }
  const { policy_module: module, policy_module_sha256: sha } = recorded;
  if (expected === undefined) {
    throw new ContractError(
      `this run was made with --policy-module ${module} (SHA-256 ${sha}) against ${recorded.baseline}: ` +
        "pass that module with --policy-module",
      { path, field: "candidate" },
    );
  }
  if (expected.policy_module_sha256 !== sha) {
    throw new ContractError(
      `policy module ${expected.policy_module}: expected ${sha} (the SHA-256 of ${module}, which made this ` +
        `run), got ${expected.policy_module_sha256}; use that module or a fresh output directory`,
      { path, field: "candidate.policy_module_sha256" },
    );
  }
  if (expected.baseline !== undefined && expected.baseline !== recorded.baseline) {
    throw new ContractError(
      `this run was made against another baseline: expected ${JSON.stringify(recorded.baseline)}, got ${
        JSON.stringify(expected.baseline)
      }; use a fresh output directory`,
      { path, field: "candidate.baseline" },
    );
  }
}
