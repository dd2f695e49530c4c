/**
 * Domain errors. Each carries the file (or row) and the field it is about, and `cli.ts` maps them to exit
 * codes in one place: {@linkcode InputError} subclasses are bad input (exit 2), everything else is a
 * runtime failure (exit 1).
 *
 * @module
 */

/** Options shared by every domain error. */
export interface DomainErrorOptions {
  /** The file, directory or row the error is about. */
  path?: string;
  /** The dotted field path inside that file, when one applies. */
  field?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

function compose(message: string, options: DomainErrorOptions): string {
  const where = [options.path, options.field].filter((part) => part !== undefined && part !== "");
  return where.length > 0 ? `${where.join(": ")}: ${message}` : message;
}

/**
 * Base class of every error that is the caller's input's fault: exit code 2.
 *
 * @example
 * ```ts
 * import { InputError } from "./errors.ts";
 * const error = new InputError("must be a list", { path: "data.json", field: "root" });
 * console.log(error.message); // "data.json: root: must be a list"
 * ```
 */
export class InputError extends Error {
  /** The file, directory or row the error is about. */
  readonly path?: string;
  /** The field path inside that file. */
  readonly field?: string;
  /** The message without the path and field prefix. */
  readonly detail: string;
  constructor(message: string, options: DomainErrorOptions = {}) {
    super(compose(message, options), { cause: options.cause });
    this.name = "InputError";
    this.path = options.path;
    this.field = options.field;
    this.detail = message;
  }
}

/**
 * A protocol contract (config, manifest, prompt) is invalid or inconsistent.
 *
 * @example
 * ```ts
 * import { ContractError } from "./errors.ts";
 * throw new ContractError("must be one of pool.capacities", { path: "configs/x.yaml", field: "pool.qa_capacity" });
 * ```
 */
export class ContractError extends InputError {
  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, options);
    this.name = "ContractError";
  }
}

/**
 * The dataset does not match its pin or is malformed.
 *
 * @example
 * ```ts
 * import { DatasetIntegrityError } from "./errors.ts";
 * throw new DatasetIntegrityError("haystack_sessions must be a list", { path: "question q1" });
 * ```
 */
export class DatasetIntegrityError extends InputError {
  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, options);
    this.name = "DatasetIntegrityError";
  }
}

/**
 * A stored or published row does not match what the protocol recomputes.
 *
 * @example
 * ```ts
 * import { RowIntegrityError } from "./errors.ts";
 * throw new RowIntegrityError("does not match the recomputed task", { path: "q1__confidence", field: "case_id" });
 * ```
 */
export class RowIntegrityError extends InputError {
  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, options);
    this.name = "RowIntegrityError";
  }
}

/**
 * An output location that must not be overwritten already holds a file.
 *
 * @example
 * ```ts
 * import { OverwriteError } from "./errors.ts";
 * throw new OverwriteError("refusing to overwrite an existing file", { path: "out/summary.json" });
 * ```
 */
export class OverwriteError extends InputError {
  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, options);
    this.name = "OverwriteError";
  }
}

/**
 * A policy module cannot be loaded, or its policy breaks the contract on a case (throws, names unknown facts,
 * keeps more than the capacity, decides differently when asked twice).
 *
 * @example
 * ```ts
 * import { PolicyModuleError } from "./errors.ts";
 * const error = new PolicyModuleError("keeps 8 facts, more than the capacity 7", { path: "p.ts", field: "case c1 at capacity 7" });
 * console.log(error.message); // "p.ts: case c1 at capacity 7: keeps 8 facts, more than the capacity 7"
 * ```
 */
export class PolicyModuleError extends InputError {
  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, options);
    this.name = "PolicyModuleError";
  }
}

/**
 * The answer provider failed (network, status, malformed body). A runtime failure: exit code 1.
 *
 * @example
 * ```ts
 * import { ProviderError } from "./errors.ts";
 * const error = new ProviderError("HTTP 401", { retryable: false });
 * console.log(error.retryable); // false
 * ```
 */
export class ProviderError extends Error {
  /** Whether our retry policy may try the call again. */
  readonly retryable: boolean;
  /** HTTP status, when the provider answered. */
  readonly status?: number;
  /** The server's `Retry-After`, in seconds, when it sent one. */
  readonly retryAfterSeconds?: number;
  constructor(
    message: string,
    options: { retryable: boolean; status?: number; retryAfterSeconds?: number; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = "ProviderError";
    this.retryable = options.retryable;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * The exit code for an error: 2 for bad input, 1 for anything else.
 *
 * @example
 * ```ts
 * import { ContractError, exitCodeFor } from "./errors.ts";
 * console.log(exitCodeFor(new ContractError("bad"))); // 2
 * ```
 */
export function exitCodeFor(error: unknown): 1 | 2 {
  return error instanceof InputError ? 2 : 1;
}
