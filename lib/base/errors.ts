/**
 * Domain errors, every class in one place. Each carries the file (or row) and the field it is about;
 * `failure.ts` maps them to exit codes in one place: {@linkcode InputError} subclasses are bad input (exit 2),
 * everything else is a runtime failure (exit 1).
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
 * Base class of every error that is the caller's input's fault: exit code 2. Its `name` is its class's, so each
 * kind of bad input below is declared in one line.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { InputError } from "./errors.ts";
 * const error = new InputError("must be a list", { path: "data.json", field: "root" });
 * strictEqual(error.message, "data.json: root: must be a list");
 * strictEqual(error.name, "InputError");
 * ```
 */
export class InputError extends Error {
  /** The file, directory or row the error is about. */
  readonly path?: string;
  /** The field path inside that file. */
  readonly field?: string;
  /** The message without the path and field prefix. */
  readonly detail: string;
  /**
   * Creates the error.
   *
   * @param message What is wrong.
   * @param options The file, field and cause.
   */
  constructor(message: string, options: DomainErrorOptions = {}) {
    super(compose(message, options), { cause: options.cause });
    // The bundle is built with --keep-names, so a subclass's name survives minifying.
    this.name = new.target.name;
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
 * import { strictEqual } from "node:assert/strict";
 * import { ContractError, InputError } from "./errors.ts";
 * const error = new ContractError("must be one of pool.capacities", { path: "configs/x.yaml", field: "pool.qa_capacity" });
 * strictEqual(error.message, "configs/x.yaml: pool.qa_capacity: must be one of pool.capacities");
 * strictEqual(error.name, "ContractError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class ContractError extends InputError {}

/**
 * The dataset does not match its pin or is malformed.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { DatasetIntegrityError, InputError } from "./errors.ts";
 * const error = new DatasetIntegrityError("haystack_sessions must be a list", { path: "question q1" });
 * strictEqual(error.message, "question q1: haystack_sessions must be a list");
 * strictEqual(error.name, "DatasetIntegrityError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class DatasetIntegrityError extends InputError {}

/**
 * A stored or published row does not match what the protocol recomputes.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { RowIntegrityError, InputError } from "./errors.ts";
 * const error = new RowIntegrityError("does not match the recomputed task", { path: "q1__confidence", field: "case_id" });
 * strictEqual(error.message, "q1__confidence: case_id: does not match the recomputed task");
 * strictEqual(error.name, "RowIntegrityError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class RowIntegrityError extends InputError {}

/**
 * A file that cannot be read as the text it must be: invalid UTF-8, or larger than its size cap. Bad input
 * (exit 2) wherever it is read, `verify` included.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { UnreadableFileError, InputError } from "./errors.ts";
 * const error = new UnreadableFileError("not valid UTF-8: line 3, byte offset 120", { path: "run/qa_run.json" });
 * strictEqual(error.message, "run/qa_run.json: not valid UTF-8: line 3, byte offset 120");
 * strictEqual(error.name, "UnreadableFileError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class UnreadableFileError extends InputError {}

/**
 * An output location that must not be overwritten already holds a file.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { OverwriteError, InputError } from "./errors.ts";
 * const error = new OverwriteError("refusing to overwrite an existing file", { path: "out/summary.json" });
 * strictEqual(error.message, "out/summary.json: refusing to overwrite an existing file");
 * strictEqual(error.name, "OverwriteError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class OverwriteError extends InputError {}

/**
 * Another live process holds the run directory's lock (`run-qa.lock`); the message names its pid and start time.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { DirectoryLockedError } from "./errors.ts";
 * const error = new DirectoryLockedError("locked by run-qa (pid 7, started 2026-01-01T00:00:00.000Z)", {
 *   path: "d/run-qa.lock",
 * });
 * strictEqual(error.message, "d/run-qa.lock: locked by run-qa (pid 7, started 2026-01-01T00:00:00.000Z)");
 * ```
 */
export class DirectoryLockedError extends InputError {}

/**
 * A policy module cannot be loaded, or its policy breaks the contract on a case (throws, names unknown facts,
 * keeps more than the capacity, decides differently when asked twice).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { PolicyModuleError, InputError } from "./errors.ts";
 * const error = new PolicyModuleError("keeps 8 facts, more than the capacity 7", { path: "p.ts", field: "case c1 at capacity 7" });
 * strictEqual(error.message, "p.ts: case c1 at capacity 7: keeps 8 facts, more than the capacity 7");
 * strictEqual(error.name, "PolicyModuleError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class PolicyModuleError extends InputError {}

/**
 * The answer provider failed (network, status, malformed body). A runtime failure: exit code 1.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ProviderError } from "./errors.ts";
 * const error = new ProviderError("HTTP 429", { retryable: true, status: 429, retryAfterSeconds: 2 });
 * strictEqual(error.message, "HTTP 429");
 * strictEqual(error.retryable, true);
 * strictEqual(error.retryAfterSeconds, 2);
 * ```
 */
export class ProviderError extends Error {
  /** Whether our retry policy may try the call again. */
  readonly retryable: boolean;
  /** HTTP status, when the provider answered. */
  readonly status?: number;
  /** The server's `Retry-After`, in seconds, when it sent one. */
  readonly retryAfterSeconds?: number;
  /** The endpoint could not be reached at all (refused, no such host, TLS): no request got to a server. */
  readonly unreachable: boolean;
  /**
   * Creates the error.
   *
   * @param message What failed.
   * @param options Whether a retry may help, the HTTP status and `Retry-After`, unreachable, and the cause.
   */
  constructor(
    message: string,
    options: {
      retryable: boolean;
      status?: number;
      retryAfterSeconds?: number;
      unreachable?: boolean;
      cause?: unknown;
    },
  ) {
    super(message, { cause: options.cause });
    this.name = "ProviderError";
    this.retryable = options.retryable;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.unreachable = options.unreachable ?? false;
  }
}

/**
 * An operating-system failure on a path (permission, read-only, no space, not a directory, is a directory…):
 * a runtime failure, exit code 1. The message is `path: cannot OPERATION: reason`, the reason as the OS gives it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { IoError } from "./errors.ts";
 * const cause = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * const error = new IoError("write", "out/run.json", cause);
 * strictEqual(error.message, "out/run.json: cannot write: No space left on device (os error 28)");
 * strictEqual(error.path, "out/run.json");
 * strictEqual(error.errno, "ENOSPC");
 * ```
 */
export class IoError extends Error {
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
 * import { isOsError } from "./errors.ts";
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
 * import { osReason } from "./errors.ts";
 * deepStrictEqual(osReason(new Error("Is a directory (os error 21): readfile '/etc'")), "Is a directory (os error 21)");
 * ```
 */
export function osReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^(.*?\(os error \d+\))/.exec(message);
  return match ? match[1] : message.replace(/: [a-z_]+ '.*'$/, "");
}

/**
 * A command that ran but did not succeed, and has already said why (a check that does not hold, a QA run with
 * failed rows): exit 1, with no further line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { CommandFailedError } from "./errors.ts";
 * import { describeFailure } from "./failure.ts";
 * deepStrictEqual(describeFailure("verify", new CommandFailedError("2 checks fail")), { code: 1, lines: [] });
 * ```
 */
export class CommandFailedError extends Error {
  /**
   * Creates the error.
   *
   * @param message What did not succeed (for a debugger; the command has printed it already).
   */
  constructor(message: string) {
    super(message);
    this.name = "CommandFailedError";
  }
}

/**
 * A command a signal stopped cleanly, which has already said what was done and what is left (run-qa's Ctrl-C:
 * the rows written stay valid, the same command resumes): exits as the signal asks, with no further line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { StoppedError } from "./errors.ts";
 * import { describeFailure } from "./failure.ts";
 * deepStrictEqual(describeFailure("run-qa", new StoppedError("SIGINT")), { code: 130, lines: [] });
 * ```
 */
export class StoppedError extends Error {
  /** The signal that stopped the command. */
  readonly signal: "SIGINT" | "SIGTERM";
  /**
   * Creates the error.
   *
   * @param signal The signal received.
   */
  constructor(signal: "SIGINT" | "SIGTERM") {
    super(`stopped by ${signal}`);
    this.name = "StoppedError";
    this.signal = signal;
  }
}

/**
 * A run that stopped before a call would pass the budget `--max-cost` gave (it said so, and how many rows are
 * left): exit 3, no further line. The rows written stay valid; the same command with a larger budget resumes.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { BudgetExceededError } from "./errors.ts";
 * import { describeFailure } from "./failure.ts";
 * deepStrictEqual(describeFailure("run-qa", new BudgetExceededError("80 rows left")), { code: 3, lines: [] });
 * ```
 */
export class BudgetExceededError extends Error {
  /**
   * Creates the error.
   *
   * @param message What was left (the command has printed it already).
   */
  constructor(message: string) {
    super(message);
    this.name = "BudgetExceededError";
  }
}

/**
 * A publish that SIGINT or SIGTERM interrupted: undone before the program ends (or, when the signal came as the
 * last file was placed, complete), so the command exits as the signal asks — 130 or 143 — with this one line.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { InterruptedError } from "./errors.ts";
 * const error = new InterruptedError("SIGTERM", ["out/a.json", "out/b.json"], false);
 * strictEqual(error.message, "interrupted by SIGTERM while publishing out/a.json, out/b.json: nothing was published; run the same command again");
 * ```
 */
export class InterruptedError extends Error {
  /** The signal that ended the command. */
  readonly signal: "SIGINT" | "SIGTERM";
  /**
   * Creates the error.
   *
   * @param signal The signal received.
   * @param paths The files being published.
   * @param published Whether they were all in place already (the signal came too late to undo them).
   */
  constructor(signal: "SIGINT" | "SIGTERM", paths: readonly string[], published: boolean) {
    super(
      published
        ? `interrupted by ${signal} just after publishing ${paths.join(", ")}: they are complete`
        : `interrupted by ${signal} while publishing ${
          paths.join(", ")
        }: nothing was published; run the same command again`,
    );
    this.name = "InterruptedError";
    this.signal = signal;
  }
}

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

/**
 * A conformance vector file is malformed (not UTF-8, bad JSON, a missing or mistyped field, over its size cap):
 * bad input, exit code 2.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { InputError, VectorFormatError } from "./errors.ts";
 * const error = new VectorFormatError("line 2: expected: missing field", { path: "bounded-number.jsonl" });
 * strictEqual(error.message, "bounded-number.jsonl: line 2: expected: missing field");
 * strictEqual(error.name, "VectorFormatError");
 * strictEqual(error instanceof InputError, true); // exit code 2
 * ```
 */
export class VectorFormatError extends InputError {}

/**
 * A call stopped by the caller (Ctrl-C), not a provider failure: its row is not attempted.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { CallAbortedError } from "./errors.ts";
 * strictEqual(new CallAbortedError().message, "interrupted");
 * ```
 */
export class CallAbortedError extends Error {
  /** Creates the error. */
  constructor() {
    super("interrupted");
    this.name = "CallAbortedError";
  }
}

/**
 * A response body went past the provider's cap; the rest of it is not read.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ResponseTooLargeError } from "./errors.ts";
 * strictEqual(new ResponseTooLargeError(4 * 1024 * 1024).message, "response too large (over 4 MiB)");
 * strictEqual(new ResponseTooLargeError(10).message, "response too large (over 10 bytes)");
 * ```
 */
export class ResponseTooLargeError extends Error {
  /** The cap, in bytes. */
  readonly limit: number;
  /**
   * Creates the error.
   *
   * @param limit The cap the body went past, in bytes.
   */
  constructor(limit: number) {
    const mib = 1024 * 1024;
    super(`response too large (over ${limit % mib === 0 ? `${limit / mib} MiB` : `${limit} bytes`})`);
    this.name = "ResponseTooLargeError";
    this.limit = limit;
  }
}

/**
 * A call that failed after our retry policy gave up, with the number of attempts made; the cause is the last
 * {@linkcode ProviderError}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { AnswerFailedError, ProviderError } from "./errors.ts";
 * const error = new AnswerFailedError(new ProviderError("HTTP 503 from llm.test", { retryable: true }), 3);
 * strictEqual(error.message, "HTTP 503 from llm.test (3 attempts)");
 * ```
 */
export class AnswerFailedError extends Error {
  /** Attempts made, the first included. */
  readonly attempts: number;
  /**
   * Creates the error.
   *
   * @param cause The last attempt's failure.
   * @param attempts Attempts made.
   */
  constructor(cause: ProviderError, attempts: number) {
    super(`${cause.message} (${attempts} attempt${attempts === 1 ? "" : "s"})`, { cause });
    this.name = "AnswerFailedError";
    this.attempts = attempts;
  }
}
