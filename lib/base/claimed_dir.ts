/**
 * A directory a command claims whole: new or empty when it starts, so everything in it is the command's own and
 * can be removed when the command is stopped, leaving the path as it was.
 *
 * @module
 */

import { InputError } from "./errors.ts";
import { osCall } from "./_os_call.ts";

/** A directory claimed by {@linkcode claimDirectory}. */
export interface ClaimedDirectory {
  /** The directory's path. */
  readonly path: string;
  /** Removes what was written into it, and the directory too when the claim made it. Synchronous: a signal's
   * listener calls it just before the program ends. */
  removeSync(): void;
}

/**
 * Claims `path` for a command's outputs: makes it when it does not exist (with its parents), takes it when it
 * is an empty real directory (`made` says the caller just made it, a temporary directory), and refuses
 * anything else before anything is written.
 *
 * @throws {InputError} `PATH: refusing to write WHAT into anything but a new or empty directory`.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { claimDirectory } from "./claimed_dir.ts";
 * const root = await Deno.makeTempDir();
 * const claimed = await claimDirectory(`${root}/out`, "the demo");
 * await Deno.writeTextFile(`${root}/out/a.txt`, "a");
 * await rejects(claimDirectory(`${root}/out`, "the demo"), {
 *   message: `${root}/out: refusing to write the demo into anything but a new or empty directory`,
 * });
 * claimed.removeSync();
 * strictEqual([...Deno.readDirSync(root)].length, 0);
 * ```
 */
export async function claimDirectory(path: string, what: string, made = false): Promise<ClaimedDirectory> {
  const refuse = () =>
    new InputError(`refusing to write ${what} into anything but a new or empty directory`, { path });
  const found = await osCall("read", "inspect", path, () => Deno.lstat(path)).catch((error) => {
    if (error instanceof Error && error.cause instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  let own = made;
  if (found === undefined) {
    await osCall("mkdir", "create directory", path, () => Deno.mkdir(path, { recursive: true }));
    own = true;
  } else if (!found.isDirectory || !(await isEmpty(path))) {
    throw refuse();
  }
  return { path, removeSync: () => removeSync(path, own) };
}

async function isEmpty(path: string): Promise<boolean> {
  const entries = await osCall("read", "list", path, async () => {
    for await (const _ of Deno.readDir(path)) return 1;
    return 0;
  });
  return entries === 0;
}

function removeSync(path: string, own: boolean): void {
  try {
    if (own) return Deno.removeSync(path, { recursive: true });
    for (const entry of Deno.readDirSync(path)) Deno.removeSync(`${path}/${entry.name}`, { recursive: true });
  } catch {
    // What cannot be removed stays; the next claim of the path names it.
  }
}
