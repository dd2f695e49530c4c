/**
 * File I/O at the edge, in one import: reading through caps and strict UTF-8 (`read.ts`, `utf8.ts`), publishing
 * all or nothing without overwriting (`publish.ts`), and the hook a caller passes to see (or, in a test, fail) each publishing operation.
 *
 * @module
 */

export * from "./read.ts";
export * from "./publish.ts";
export * from "./run_files.ts";
export { decodeUtf8, firstInvalidUtf8 } from "./utf8.ts";
export type { FileOperation, FileOperationHook } from "./_os_call.ts";
