/**
 * The answering stage's errors: the provider's failures, a call stopped, a body too large, a budget spent.
 *
 * @module
 */

import { OperationError, StoppedShortError } from "../../base/mod.ts";

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
export class ProviderError extends OperationError {
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
/**
 * A run that stopped before a call would pass the budget `--max-cost` gave (it said so, and how many rows are
 * left): exit 3, no further line. The rows written stay valid; the same command with a larger budget resumes.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { BudgetExceededError } from "./errors.ts";
 * import { describeFailure } from "../../base/mod.ts";
 * deepStrictEqual(describeFailure("run-qa", new BudgetExceededError("80 rows left")), { code: 3, lines: [] });
 * ```
 */
export class BudgetExceededError extends StoppedShortError {
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
