/**
 * Fault injection for the file layer: every file operation is counted here, so a test can make the Nth write
 * (or link, remove, read…) fail with a chosen OS error, in process, without root or a mount. Re-exported by
 * `fs.ts`.
 *
 * @module
 */

/** The operations the layer counts; a fault names one of them. */
export type FsOperation = "read" | "write" | "link" | "remove" | "mkdir";

interface Fault {
  operation: FsOperation;
  nth: number;
  error: Error;
  seen: number;
}

const faults: Fault[] = [];

/** The OS errors a test can inject by errno name, with the OS's own wording. */
const SIMULATED: Record<string, string> = {
  ENOSPC: "No space left on device (os error 28)",
  EROFS: "Read-only file system (os error 30)",
  EACCES: "Permission denied (os error 13)",
  EIO: "Input/output error (os error 5)",
  ENOTDIR: "Not a directory (os error 20)",
  EISDIR: "Is a directory (os error 21)",
};

/**
 * An error shaped like one the OS gives (message and errno `code`), for fault injection.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { simulatedOsError } from "./fs.ts";
 * deepStrictEqual(simulatedOsError("ENOSPC").message, "No space left on device (os error 28)");
 * ```
 */
export function simulatedOsError(code: keyof typeof SIMULATED | string): Error {
  return Object.assign(new Error(SIMULATED[code] ?? `${code} (simulated)`), { code });
}

/**
 * Makes the `nth` (1-based) call of `operation` from now on fail with `error` (default: no space left on
 * device). Test-only; {@linkcode clearFaults} removes every injected fault.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { clearFaults, injectFault, writeFileAtomic } from "./fs.ts";
 * import { IoError } from "./errors.ts";
 * const directory = await Deno.makeTempDir();
 * injectFault("write", 2); // the second file written fails with ENOSPC
 * await writeFileAtomic(`${directory}/a.json`, "{}\n");
 * await rejects(writeFileAtomic(`${directory}/b.json`, "{}\n"), IoError);
 * clearFaults();
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export function injectFault(
  operation: FsOperation,
  nth: number,
  error: Error = simulatedOsError("ENOSPC"),
): void {
  faults.push({ operation, nth, error, seen: 0 });
}

/**
 * Removes every injected fault.
 *
 * @example
 * ```ts
 * import { clearFaults } from "./fs.ts";
 * clearFaults();
 * ```
 */
export function clearFaults(): void {
  faults.length = 0;
}

/** Counts one call of `operation`; throws the injected error when this is the call a fault names. */
export function countOperation(operation: FsOperation): void {
  for (const fault of faults) {
    if (fault.operation === operation && ++fault.seen === fault.nth) throw fault.error;
  }
}
