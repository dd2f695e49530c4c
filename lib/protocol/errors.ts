/**
 * The protocol's errors: a dataset that does not hold the protocol's cases.
 *
 * @module
 */

import { InputError } from "../base/mod.ts";

/**
 * The dataset does not match its pin or is malformed.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { InputError } from "../base/mod.ts";
 * import { DatasetIntegrityError } from "./errors.ts";
 * const error = new DatasetIntegrityError("haystack_sessions must be a list", { path: "question q1" });
 * strictEqual(error.message, "question q1: haystack_sessions must be a list");
 * strictEqual(error.name, "DatasetIntegrityError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class DatasetIntegrityError extends InputError {}
