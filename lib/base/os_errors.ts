/**
 * Failures of the operating system: an OS call's error on a path, and its reason as the OS gives it.
 *
 * @module
 */

import { OperationError } from "./errors.ts";

/**
 * An operating-system failure on a path (permission, read-only, no space, not a directory, is a directory…):
 * a runtime failure, exit code 1. The message is `path: cannot OPERATION: reason`, the reason as the OS gives it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { IoError } from "./os_errors.ts";
 * const cause = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * const error = new IoError("write", "out/run.json", cause);
 * strictEqual(error.message, "out/run.json: cannot write: No space left on device (os error 28)");
 * strictEqual(error.path, "out/run.json");
 * strictEqual(error.errno, "ENOSPC");
 * ```
 */
export class IoError extends OperationError {
  /** The path the operation was on. */
  readonly path: string;
  /** The operating system's reason, e.g. `Permission denied (os error 13)`. */
  readonly reason: string;
  /** The errno name (`EACCES`, `ENOSPC`, …) when known. */
  readonly errno?: string;
  /**
   * Creates the error.
   *
   * @param operation What was attempted, e.g. `write`.
   * @param path The path it was attempted on.
   * @param cause The system's error.
   */
  constructor(operation: string, path: string, cause: unknown) {
    const reason = osReason(cause);
    super(`${path}: cannot ${operation}: ${reason}`, { cause });
    this.name = "IoError";
    this.path = path;
    this.reason = reason;
    this.errno = errnoCode(cause);
  }
}

/** The errno name an OS error carries (`EACCES`, `ENOSPC`, …), or `undefined` for any other value. */
function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/**
 * Whether an error came from the operating system (any `Deno.errors` class, or an error carrying an errno code).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { isOsError } from "./os_errors.ts";
 * deepStrictEqual(isOsError(new Deno.errors.PermissionDenied("Permission denied (os error 13)")), true);
 * deepStrictEqual(isOsError(new RangeError("x")), false);
 * ```
 */
export function isOsError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (errnoCode(error) !== undefined) return true;
  return Object.values(Deno.errors).some((kind) => error instanceof kind);
}

/**
 * The OS's reason without Deno's `: operation 'path'` suffix, e.g. `Is a directory (os error 21)`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { osReason } from "./os_errors.ts";
 * deepStrictEqual(osReason(new Error("Is a directory (os error 21): readfile '/etc'")), "Is a directory (os error 21)");
 * ```
 */
export function osReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^(.*?\(os error \d+\))/.exec(message);
  return match ? match[1] : message.replace(/: [a-z_]+ '.*'$/, "");
}
