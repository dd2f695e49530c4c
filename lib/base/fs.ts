/**
 * File I/O at the edge, in one import: reading through caps and strict UTF-8 (`read.ts`, `utf8.ts`), publishing
 * all or nothing without overwriting (`publish.ts`), and the counted layer a test injects OS faults into.
 *
 * @module
 */

export * from "./read.ts";
export * from "./publish.ts";
export { decodeUtf8, firstInvalidUtf8 } from "./utf8.ts";
export { clearFaults, type FsOperation, injectFault, simulatedOsError } from "./_faults.ts";
