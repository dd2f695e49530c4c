/**
 * The one passage from the file layer to the OS: the caller's hook runs before each publishing operation (the
 * seam a test uses to make one fail), and an OS failure is rethrown as an {@linkcode IoError} naming the path
 * (or an {@linkcode OverwriteError} where a write or link met an existing name).
 *
 * @module
 */

import { OverwriteError } from "./errors.ts";
import { IoError, isOsError } from "./os_errors.ts";

/** The file operations a publish makes; a {@linkcode FileOperationHook} sees each before it runs. */
export type FileOperation = "write" | "link" | "remove" | "mkdir";

/** Called before each file operation with its kind and path (awaited); what it throws fails that operation. */
export type FileOperationHook = (operation: FileOperation, path: string) => void | Promise<void>;

/** Runs one OS operation through the layer: the hook first, any OS failure rethrown as an IoError. */
export async function osCall<T>(
  operation: FileOperation | "read",
  verb: string,
  path: string,
  body: () => Promise<T>,
  hook?: FileOperationHook,
): Promise<T> {
  try {
    if (operation !== "read") await hook?.(operation, path);
    return await body();
  } catch (error) {
    if (!isOsError(error)) throw error;
    if (error instanceof Deno.errors.AlreadyExists && (operation === "link" || operation === "write")) {
      throw new OverwriteError("refusing to overwrite an existing file", { path, cause: error });
    }
    throw new IoError(verb, path, error);
  }
}
