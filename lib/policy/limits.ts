/**
 * A policy module's sandbox limits, in one object: the flags, the help, the errors and docs/reference.md read
 * these numbers (`tests/unit/policy/limits_test.ts` holds the page to them).
 *
 * @module
 */

const MIB = 1024 * 1024;

/**
 * The limits a policy module runs under.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { SANDBOX_LIMITS, sandboxMemoryBound } from "./limits.ts";
 * strictEqual(SANDBOX_LIMITS.defaultSecondsPerCase, 5);
 * strictEqual(sandboxMemoryBound(), "1024 MiB in all, 512 MiB of it heap");
 * ```
 */
export const SANDBOX_LIMITS: {
  /** The module's source, in bytes. */
  readonly moduleBytes: number;
  /** One answer line from the sandbox, in bytes. */
  readonly answerLineBytes: number;
  /** The child's writable memory (RLIMIT_DATA), in MiB. */
  readonly memoryMiB: number;
  /** Of it, the V8 heap, in MiB. */
  readonly heapMiB: number;
  /** The time per case without `--policy-time-limit`, in seconds. */
  readonly defaultSecondsPerCase: number;
  /** The most `--policy-time-limit` may give, in seconds. */
  readonly maxSecondsPerCase: number;
  /** The time the module has to load, in seconds. */
  readonly startSeconds: number;
} = {
  moduleBytes: MIB,
  answerLineBytes: 16 * MIB,
  memoryMiB: 1024,
  heapMiB: 512,
  defaultSecondsPerCase: 5,
  maxSecondsPerCase: 3600,
  startSeconds: 60,
};

/** The memory bound as messages state it: `1024 MiB in all, 512 MiB of it heap`. */
export function sandboxMemoryBound(): string {
  return `${SANDBOX_LIMITS.memoryMiB} MiB in all, ${SANDBOX_LIMITS.heapMiB} MiB of it heap`;
}
