/**
 * The file-system looks the publish journal's writer and its recovery share: never following a link, telling
 * one file from another by device and inode.
 *
 * @module
 */

import { IoError } from "./os_errors.ts";
import type { DirectoryIdentity } from "./_journal_format.ts";

/** A path's own entry (a link is not followed), `null` when there is none; another failure is an IoError. */
export async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new IoError("inspect", path, error);
  }
}

/** Whether `a` is the file `b` names: the same device and inode (a file without an inode is no one's). */
export const sameFile = (a: Deno.FileInfo, b: { dev: number; ino: number | null }): boolean =>
  a.ino !== null && a.dev === b.dev && a.ino === b.ino;

/** Whether `path` still names the file open as `file` (a recovery may have removed it meanwhile). */
export async function stillAt(file: Deno.FsFile, path: string): Promise<boolean> {
  try {
    return sameFile(await Deno.lstat(path), await file.stat());
  } catch {
    return false;
  }
}

/** A directory's device and inode, read without following a link (a link is refused before any publish). */
export async function directoryIdentity(directory: string): Promise<DirectoryIdentity | null> {
  const info = await lstatOrNull(directory);
  return info !== null && info.isDirectory && info.ino !== null ? { dev: info.dev, ino: info.ino } : null;
}

/**
 * Splits a path at its last slash into its directory (`.` when none) and its name.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { splitPath } from "./journal.ts";
 * deepStrictEqual(splitPath("out/run.json"), { directory: "out", name: "run.json" });
 * deepStrictEqual(splitPath("run.json"), { directory: ".", name: "run.json" });
 * ```
 */
export function splitPath(path: string): { directory: string; name: string } {
  const slash = path.lastIndexOf("/");
  return slash < 0
    ? { directory: ".", name: path }
    : { directory: path.slice(0, slash) || "/", name: path.slice(slash + 1) };
}
