/** Faults a test passes in through the publish hook: the nth write, link, removal or mkdir fails as the OS would. */

import type { FileOperation, FileOperationHook } from "../../lib/base/fs.ts";

/** The OS errors a test can simulate by errno name, with the OS's own wording. */
const SIMULATED: Record<string, string> = {
  ENOSPC: "No space left on device (os error 28)",
  EROFS: "Read-only file system (os error 30)",
  EACCES: "Permission denied (os error 13)",
  EIO: "Input/output error (os error 5)",
  ENOTDIR: "Not a directory (os error 20)",
  EISDIR: "Is a directory (os error 21)",
};

/** An error shaped like one the OS gives (message and errno `code`). */
export function simulatedOsError(code: string): Error {
  return Object.assign(new Error(SIMULATED[code] ?? `${code} (simulated)`), { code });
}

/** One fault: the `nth` (1-based) `operation` fails with `error`. */
export interface Fault {
  operation: FileOperation;
  nth: number;
  error?: Error;
}

/** A hook that fails each listed operation at its count (default error: no space left on device). */
export function faultHook(faults: readonly Fault[]): FileOperationHook {
  const seen = new Map<FileOperation, number>();
  return (operation) => {
    const count = (seen.get(operation) ?? 0) + 1;
    seen.set(operation, count);
    const fault = faults.find((entry) => entry.operation === operation && entry.nth === count);
    if (fault !== undefined) throw fault.error ?? simulatedOsError("ENOSPC");
  };
}

/** `OPERATION:N:ERRNO` (ERRNO `TypeError` throws a non-OS error, as a bug would) as a fault. */
export function parseFault(spec: string): Fault {
  const [operation, nth, code] = spec.split(":");
  return {
    operation: operation as FileOperation,
    nth: Number(nth),
    error: code === "TypeError" ? new TypeError("simulated bug") : simulatedOsError(code),
  };
}
