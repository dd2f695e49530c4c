/**
 * The name a candidate policy may take in the QA stages, where it names row files (`<case_id>__<name>.json`)
 * and report columns.
 *
 * @module
 */

import { PolicyModuleError } from "./errors.ts";

/** What a candidate's name may be: it names row files (`<case_id>__<name>.json`) and report columns. */
const CANDIDATE_NAME = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;

/**
 * Refuses a candidate name that cannot name a row file or a column: letters, digits, `.`, `_` and `-`, at most
 * 64, starting with a letter (no path separator, no control character, no space).
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { PolicyModuleError } from "./errors.ts";
 * import { checkCandidateName } from "./candidate_name.ts";
 * checkCandidateName("recency-v2", "recency.ts");
 * throws(() => checkCandidateName("../escape", "evil.ts"), PolicyModuleError);
 * throws(() => checkCandidateName("a\u001b[31mb", "evil.ts"), PolicyModuleError);
 * ```
 */
export function checkCandidateName(name: string, origin: string): void {
  if (CANDIDATE_NAME.test(name)) return;
  throw new PolicyModuleError(
    `a policy answered in run-qa names its row files: expected letters, digits, ".", "_" or "-" (at most 64, ` +
      `starting with a letter), got ${JSON.stringify(name)}`,
    { path: origin, field: "default.name" },
  );
}
