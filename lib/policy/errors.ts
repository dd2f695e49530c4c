/**
 * The policy layer's errors: a policy module that cannot be run or breaks the contract.
 *
 * @module
 */

import { InputError } from "../base/mod.ts";

/**
 * A policy module cannot be loaded, or its policy breaks the contract on a case (throws, names unknown facts,
 * keeps more than the capacity, decides differently when asked twice).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { InputError } from "../base/mod.ts";
 * import { PolicyModuleError } from "./errors.ts";
 * const error = new PolicyModuleError("keeps 8 facts, more than the capacity 7", { path: "p.ts", field: "case c1 at capacity 7" });
 * strictEqual(error.message, "p.ts: case c1 at capacity 7: keeps 8 facts, more than the capacity 7");
 * strictEqual(error.name, "PolicyModuleError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class PolicyModuleError extends InputError {}
