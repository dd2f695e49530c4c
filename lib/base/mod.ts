/**
 * The base layer's public surface.
 *
 * @module
 */

export { type FileOperationHook } from "./_os_call.ts";
export {
  CommandFailedError,
  ContractError,
  type DomainErrorOptions,
  InputError,
  OperationError,
  OverwriteError,
  RowIntegrityError,
  StoppedError,
  StoppedShortError,
  UnreadableFileError,
} from "./errors.ts";
export { claimDirectory, type ClaimedDirectory } from "./claimed_dir.ts";
export { IoError } from "./os_errors.ts";
export { DEBUG_ENV, describeFailure, exitAtOnce } from "./failure.ts";
export { groupBy } from "./group.ts";
export { fnv1a, sha256Bytes, sha256Hex } from "./hash.ts";
export { appendLine } from "./append.ts";
export { acquireDirectoryLock, LOCK_FILE, type LockHolder, refuseIfLocked } from "./lock.ts";
export { compareCodePoints } from "./order.ts";
export {
  ensureDir,
  type FileContent,
  moveAside,
  publishFiles,
  type PublishOptions,
  refuseExisting,
  settleJournals,
  writeAllOrNothing,
  writeFileAtomic,
} from "./publish.ts";
export {
  ANSWER_BODY_CAP,
  ANSWER_ROW_CAP,
  CONTRACT_CAP,
  DATASET_CAP,
  exists,
  GRADED_ROWS_CAP,
  type HashedBytes,
  INPUT_CAP,
  listDirectory,
  MIB,
  ReadBudget,
  readBytes,
  readBytesIfExists,
  readText,
  readTextIfExists,
  refuseOverCap,
  SWEEP_OUTPUT_CAP,
  VECTOR_CAP,
} from "./read.ts";
export { RunFiles, runFilesOf } from "./run_files.ts";
export { parseJsonLines, parseWith, type SameType, type Schema } from "./schema.ts";
export { columnsOf, describeStream, printable, styleLine, wrapLine } from "./terminal.ts";
export {
  BOM,
  decodeForSearch,
  decodeStrictUtf8,
  decodeUtf8,
  firstInvalidUtf8,
  invalidUtf8Text,
  startsWithBom,
} from "./utf8.ts";
export { visible } from "./visible.ts";
export { type SchemaIssue, type SchemaResult } from "./schema.ts";
