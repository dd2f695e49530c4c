/**
 * The one place an error becomes an exit code and the lines for stderr: bad input (any {@linkcode InputError})
 * exits 2, a command that did not succeed and said why ({@linkcode CommandFailedError}) 1, a run stopped by its
 * budget ({@linkcode BudgetExceededError}) 3, a command a signal stopped ({@linkcode StoppedError}, or a publish
 * it interrupted, {@linkcode InterruptedError}) 130 for SIGINT or 143 for SIGTERM, everything else 1; no command
 * picks its own, and {@linkcode exitAtOnce} is the one way to end the program early.
 *
 * @module
 */

import {
  CommandFailedError,
  InputError,
  InterruptedError,
  OperationError,
  StoppedError,
  StoppedShortError,
} from "./errors.ts";
import { isOsError } from "./os_errors.ts";
import { visible } from "./visible.ts";

/**
 * The exit code for an error, as {@linkcode describeFailure} maps it: 2 for bad input, 1 for anything else.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { ContractError } from "./errors.ts";
 * import { exitCodeFor } from "./failure.ts";
 * deepStrictEqual(exitCodeFor(new ContractError("bad")), 2);
 * ```
 */
export function exitCodeFor(error: unknown): FailureReport["code"] {
  return describeFailure("", error).code;
}

/** The exit code of a command a signal ended, as a shell reports it: 128 plus the signal's number. */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** The environment variable that makes an unexpected error print its stack trace. */
export const DEBUG_ENV = "DEERMEM_EVAL_DEBUG";

/** How a command's failure is reported: its exit code and the lines for stderr. */
export interface FailureReport {
  code: 1 | 2 | 3 | 130 | 143;
  lines: string[];
}

/**
 * The one place an error becomes an exit code and a message. Bad input: exit 2, one line. An I/O failure:
 * exit 1, one line with the path and the OS's reason. A provider failure: exit 1, one line. Anything else is a
 * bug: exit 1, one line and the hint to set {@linkcode DEBUG_ENV} (with it set, the stack trace follows). A
 * control character in the message (a path's, a server's) is shown as an escape (see {@linkcode visible}).
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { InputError } from "./errors.ts";
 * import { describeFailure } from "./failure.ts";
 * deepStrictEqual(describeFailure("verify", new InputError("bad", { path: "x.json" })), {
 *   code: 2,
 *   lines: ["deermem-eval verify: x.json: bad"],
 * });
 * strictEqual(describeFailure("verify", new TypeError("oops")).code, 1); // a bug: exit 1
 * deepStrictEqual(describeFailure("", new InputError("missing", { path: "a\x1b[2J\nb" })).lines, [
 *   "deermem-eval: a\\u001b[2J b: missing",
 * ]);
 * ```
 */
export function describeFailure(command: string, error: unknown, debug = false): FailureReport {
  if (error instanceof CommandFailedError) return { code: 1, lines: [] };
  if (error instanceof StoppedShortError) return { code: 3, lines: [] };
  if (error instanceof StoppedError) return { code: SIGNAL_EXIT_CODES[error.signal], lines: [] };
  const prefix = command === "" ? "deermem-eval" : `deermem-eval ${command}`;
  // A path or a server's message comes from outside: one line, every control in it shown as an escape.
  const oneLine = (text: string) => visible(text.replace(/\s*\n\s*/g, " "));
  if (error instanceof InputError) return { code: 2, lines: [`${prefix}: ${oneLine(error.message)}`] };
  if (error instanceof InterruptedError) {
    return { code: SIGNAL_EXIT_CODES[error.signal], lines: [`${prefix}: ${oneLine(error.message)}`] };
  }
  if (error instanceof OperationError) {
    return { code: 1, lines: [`${prefix}: ${oneLine(error.message)}`] };
  }
  if (isOsError(error)) return { code: 1, lines: [`${prefix}: ${oneLine((error as Error).message)}`] };
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const lines = [`${prefix}: unexpected error: ${oneLine(text)} (set ${DEBUG_ENV}=1 for a trace)`];
  if (debug && error instanceof Error && error.stack !== undefined) {
    lines.push(visible(error.stack, { keepLines: true }));
  }
  return { code: 1, lines };
}

/**
 * Ends the program now, with the exit code {@linkcode describeFailure} gives `error` and no further line: for a
 * command that has said all it will and must not wait (run-qa's second Ctrl-C). Every `finally` is skipped, but
 * the `unload` listeners run, so a held lock is released and a publish in progress undone.
 */
export function exitAtOnce(error: StoppedError): never {
  Deno.exit(describeFailure("", error).code);
}
