/**
 * File I/O at the edge: reads that fail with the path in the message, atomic writes that never overwrite.
 *
 * @module
 */

import { InputError, OverwriteError } from "./errors.ts";
import { sha256Hex } from "./hash.ts";

/** A file's bytes and their SHA-256, computed while reading. */
export interface HashedBytes {
  bytes: Uint8Array;
  sha256: string;
}

/**
 * Reads a file's bytes; a missing or unreadable file is an {@linkcode InputError} naming it.
 *
 * @example
 * ```ts ignore
 * import { readBytes } from "./fs.ts";
 * const bytes = await readBytes("data.json", "dataset");
 * ```
 */
export async function readBytes(path: string, what = "file"): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound ? "not found" : (error as Error).message;
    throw new InputError(`cannot read ${what}: ${reason}`, { path, cause: error });
  }
}

/**
 * Reads a file's bytes a megabyte at a time into one buffer, then hashes them; failures as
 * {@linkcode readBytes}.
 *
 * @example
 * ```ts ignore
 * import { readBytesHashed } from "./fs.ts";
 * const { bytes, sha256 } = await readBytesHashed("longmemeval_oracle.json", "dataset");
 * ```
 */
export async function readBytesHashed(path: string, what = "file"): Promise<HashedBytes> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path);
    const size = (await file.stat()).size;
    const bytes = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const read = file.readSync(bytes.subarray(at, Math.min(size, at + CHUNK)));
      if (read === null || read === 0) break;
      at += read;
    }
    if (at !== size) throw new Error(`file changed while reading (${at} of ${size} bytes)`);
    return { bytes, sha256: await sha256Hex(bytes) };
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound ? "not found" : (error as Error).message;
    throw new InputError(`cannot read ${what}: ${reason}`, { path, cause: error });
  } finally {
    file?.close();
  }
}

const CHUNK = 1 << 20;

/**
 * Reads a UTF-8 text file, or `undefined` when there is none (any other failure is thrown).
 *
 * @example
 * ```ts
 * import { readTextIfExists } from "./fs.ts";
 * console.log(await readTextIfExists("/definitely/not/here")); // undefined
 * ```
 */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * Whether a path exists (any kind of entry).
 *
 * @example
 * ```ts
 * import { exists } from "./fs.ts";
 * console.log(await exists("/definitely/not/here")); // false
 * ```
 */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Refuses when any of the paths exists, naming the first one.
 *
 * @example
 * ```ts
 * import { refuseExisting } from "./fs.ts";
 * await refuseExisting(["/definitely/not/here"]);
 * ```
 */
export async function refuseExisting(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    if (await exists(path)) throw new OverwriteError("refusing to overwrite an existing file", { path });
  }
}

/**
 * Writes a file atomically (a temporary file in the same directory, then a rename) and never overwrites:
 * with `overwrite: false` (the default) an existing file is an {@linkcode OverwriteError}. A failure leaves
 * no partial file behind.
 *
 * @example
 * ```ts ignore
 * import { writeFileAtomic } from "./fs.ts";
 * await writeFileAtomic("out/summary.json", "{}\n");
 * ```
 */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  options: { overwrite?: boolean } = {},
): Promise<void> {
  const directory = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".";
  const name = path.slice(path.lastIndexOf("/") + 1);
  const temporary = `${directory}/.${name}.${crypto.randomUUID()}.tmp`;
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  try {
    await Deno.writeFile(temporary, bytes, { createNew: true });
    if (!options.overwrite) {
      // link() fails if the target exists, so the no-overwrite check and the publish are one atomic step.
      try {
        await Deno.link(temporary, path);
      } catch (error) {
        if (error instanceof Deno.errors.AlreadyExists) {
          throw new OverwriteError("refusing to overwrite an existing file", { path });
        }
        throw error;
      }
      await Deno.remove(temporary);
    } else {
      await Deno.rename(temporary, path);
    }
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

/**
 * Creates a directory (and its parents) if missing.
 *
 * @example
 * ```ts ignore
 * import { ensureDir } from "./fs.ts";
 * await ensureDir("out/responses");
 * ```
 */
export async function ensureDir(path: string): Promise<void> {
  try {
    await Deno.mkdir(path, { recursive: true });
  } catch (error) {
    throw new InputError(`cannot create directory: ${(error as Error).message}`, { path, cause: error });
  }
}
