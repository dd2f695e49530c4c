/**
 * The base classes of every folder's errors (each folder owns its own classes), and base's own. Each carries
 * the file (or row) and the field it is about; `failure.ts` maps them to exit codes in one place:
 * {@linkcode InputError} is bad input (exit 2), {@linkcode OperationError} a runtime failure (exit 1).
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
 * const error = new DirectoryLockedError("locked by run-qa (pid 7)", { path: "d/run-qa.lock" });
 * strictEqual(error.message, "d/run-qa.lock: locked by run-qa (pid 7)");
 * ```
 */
export class DirectoryLockedError extends InputError {}

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
 * A run that stopped short of a limit the user set, said so, and resumes when the limit is raised (run-qa's
 * spent budget): no further line; `failure.ts` gives its exit code.
 */
export class StoppedShortError extends Error {}

/**
 * A runtime failure named in one line (an OS call, the answer provider): exit code 1. Each folder's runtime
 * failures extend it.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { OperationError } from "./errors.ts";
 * import { describeFailure } from "./failure.ts";
 * const { code, lines } = describeFailure("run-qa", new OperationError("refused"));
 * deepStrictEqual([code, lines], [1, ["deermem-eval run-qa: refused"]]);
 * ```
 */
export class OperationError extends Error {
  /**
   * Creates the error.
   *
   * @param message What failed.
   * @param options The cause.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
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
