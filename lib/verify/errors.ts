/**
 * The verify layer's errors: a run that does not verify.
 *
 * @module
 */

/**
 * A run directory `verify` rejects, so `report` refuses it; carries the verification (the report layer's
 * `Verification`) for the message. Not an {@linkcode InputError}: `report` prints the failed checks itself.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { NotVerifiedError } from "./errors.ts";
 * const error = new NotVerifiedError("run", { ok: false, checks: [], proved: "" });
 * strictEqual(error.message, "run: does not verify; the report shows no numbers verify would reject");
 * strictEqual(error.verification.ok, false);
 * ```
 */
export class NotVerifiedError<V = unknown> extends Error {
  /** What `verify` found. */
  readonly verification: V;
  /**
   * Creates the error.
   *
   * @param directory The run directory refused.
   * @param verification What `verify` found there.
   */
  constructor(directory: string, verification: V) {
    super(`${directory}: does not verify; the report shows no numbers verify would reject`);
    this.name = "NotVerifiedError";
    this.verification = verification;
  }
}
