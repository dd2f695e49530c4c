/**
 * The conformance layer's errors: a malformed vector file.
 *
 * @module
 */

import { InputError } from "../base/mod.ts";

/**
 * A conformance vector file is malformed (not UTF-8, bad JSON, a missing or mistyped field, over its size cap):
 * bad input, exit code 2.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { InputError } from "../base/mod.ts";
 * import { VectorFormatError } from "./errors.ts";
 * const error = new VectorFormatError("line 2: expected: missing field", { path: "bounded-number.jsonl" });
 * strictEqual(error.message, "bounded-number.jsonl: line 2: expected: missing field");
 * strictEqual(error.name, "VectorFormatError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class VectorFormatError extends InputError {}
