/**
 * The one passage from the file layer to the OS: each operation counted for fault injection, and an OS
 * failure rethrown as an {@linkcode IoError} naming the path (or an {@linkcode OverwriteError} where a write
 * or link met an existing name).
 *
 * @module
 */

import { IoError, isOsError, OverwriteError } from "./errors.ts";
import { countOperation, type FsOperation } from "./_faults.ts";

/** Runs one OS operation through the layer: counted for faults, any OS failure rethrown as an IoError. */
export async function osCall<T>(
  operation: FsOperation,
  verb: string,
  path: string,
  body: () => Promise<T>,
): Promise<T> {
  try {
    countOperation(operation);
    return await body();
  } catch (error) {
    if (!isOsError(error)) throw error;
    if (error instanceof Deno.errors.AlreadyExists && (operation === "link" || operation === "write")) {
      throw new OverwriteError("refusing to overwrite an existing file", { path, cause: error });
    }
    throw new IoError(verb, path, error);
  }
}
