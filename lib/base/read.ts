/**
 * Reading at the edge: every read goes through a size cap (the caps a user sees are declared here, once) and
 * text through strict UTF-8 ({@linkcode decodeUtf8}, a leading BOM kept for the format's parser to judge); a
 * missing file is an {@linkcode InputError} naming it, any other OS failure an {@linkcode IoError}.
 *
 * @module
 */

import { compareCodePoints } from "./order.ts";
import { InputError, IoError, isOsError, UnreadableFileError } from "./errors.ts";
import { sha256Hex } from "./hash.ts";
import { decodeUtf8 } from "./utf8.ts";
import { osCall } from "./_os_call.ts";

/** A mebibyte. */
export const MIB: number = 1 << 20;
/** The cap on a config, a manifest, a run marker, a row file or a results file: 16 MiB. */
export const INPUT_CAP: number = 16 * MIB;
/** The cap on the dataset: 2 GiB (the pinned file is 15 MB). */
export const DATASET_CAP: number = 2048 * MIB;
/** The cap on a conformance vector file: 256 MiB. */
export const VECTOR_CAP: number = 256 * MIB;
/** The cap on a sweep's own output read back by `report`: 1 GiB (the default grid writes about 78 MB). */
export const SWEEP_OUTPUT_CAP: number = 1024 * MIB;

/** A file's bytes and their SHA-256, computed while reading. */
export interface HashedBytes {
  /** The file's bytes. */
  bytes: Uint8Array;
  /** Their SHA-256 (64 lowercase hex digits). */
  sha256: string;
}

function capText(cap: number): string {
  return cap % MIB === 0
    ? (cap >= 1024 * MIB && cap % (1024 * MIB) === 0 ? `${cap / 1024 / MIB} GiB` : `${cap / MIB} MiB`)
    : `${cap} bytes`;
}

// The most one read asks for, and the first buffer for a device or pipe, whose size is unknown.
const CHUNK = 1 << 20;

/** Reads at most `cap` bytes; more is an InputError. */
async function readCappedInto(path: string, what: string, cap: number): Promise<Uint8Array> {
  let file: Deno.FsFile | undefined;
  try {
    // Opening a FIFO waits for a writer: its type is checked before anything opens it.
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.isFifo === true || info?.isSocket === true) {
      throw new UnreadableFileError(`${what} is a FIFO or socket, not a regular file`, { path });
    }
    file = await osCall("read", `read ${what}`, path, () => Deno.open(path));
    const opened = file;
    const stat = await osCall("read", `read ${what}`, path, () => opened.stat());
    if (stat.isFile && stat.size > cap) {
      throw new UnreadableFileError(`${what} is ${stat.size} bytes, over the ${capText(cap)} cap`, { path });
    }
    // A regular file's size is known; a device or pipe (size 0) grows chunk by chunk up to the cap.
    let bytes = new Uint8Array(stat.isFile ? stat.size : Math.min(cap + 1, CHUNK));
    const probe = new Uint8Array(1);
    let at = 0;
    while (at <= cap) {
      if (at === bytes.length) {
        // Full: one byte more tells the end of the file from a file that grew (or never ends).
        const more = opened.readSync(probe);
        if (more === null || more === 0) break;
        const grown = new Uint8Array(Math.min(cap + 1, Math.max(bytes.length * 2, CHUNK)));
        grown.set(bytes);
        bytes = grown;
        bytes[at] = probe[0];
        at += 1;
        continue;
      }
      const read = opened.readSync(bytes.subarray(at, Math.min(bytes.length, at + CHUNK)));
      if (read === null || read === 0) break;
      at += read;
    }
    if (at > cap) throw new UnreadableFileError(`${what} is larger than the ${capText(cap)} cap`, { path });
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  } catch (error) {
    if (!isOsError(error)) throw error;
    throw new IoError(`read ${what}`, path, error);
  } finally {
    file?.close();
  }
}

/**
 * Reads a file's bytes through a size cap (default {@linkcode INPUT_CAP}); a missing file is an
 * {@linkcode InputError} naming it, a file over the cap an InputError, any other OS failure an IoError.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { readBytes } from "./read.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "pool: 1\n");
 * deepStrictEqual(await readBytes(path, "config"), new TextEncoder().encode("pool: 1\n"));
 * await Deno.remove(path);
 * ```
 */
export async function readBytes(path: string, what = "file", cap: number = INPUT_CAP): Promise<Uint8Array> {
  try {
    return await readCappedInto(path, what, cap);
  } catch (error) {
    throw missingAsInput(error, path, what);
  }
}

function missingAsInput(error: unknown, path: string, what: string): unknown {
  if (error instanceof IoError && error.cause instanceof Deno.errors.NotFound) {
    return new InputError(`cannot read ${what}: not found`, { path, cause: error });
  }
  return error;
}

/**
 * Reads a file's bytes through a cap (default {@linkcode DATASET_CAP}), then hashes them; failures as
 * {@linkcode readBytes}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { readBytesHashed } from "./read.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "abc");
 * const { bytes, sha256 } = await readBytesHashed(path, "dataset");
 * strictEqual(bytes.length, 3);
 * strictEqual(sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * await Deno.remove(path);
 * ```
 */
export async function readBytesHashed(
  path: string,
  what = "file",
  cap: number = DATASET_CAP,
): Promise<HashedBytes> {
  try {
    const bytes = await readCappedInto(path, what, cap);
    return { bytes, sha256: await sha256Hex(bytes) };
  } catch (error) {
    throw missingAsInput(error, path, what);
  }
}

/**
 * Reads a UTF-8 text file through a cap (default {@linkcode INPUT_CAP}), strictly decoded.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { UnreadableFileError } from "./errors.ts";
 * import { readText } from "./read.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "{}\n");
 * strictEqual(await readText(path, "run marker"), "{}\n");
 * await Deno.writeFile(path, new Uint8Array([0x7b, 0xff, 0x7d]));
 * await rejects(readText(path, "run marker"), UnreadableFileError); // invalid UTF-8
 * await Deno.remove(path);
 * ```
 */
export async function readText(path: string, what = "file", cap: number = INPUT_CAP): Promise<string> {
  return decodeUtf8(await readBytes(path, what, cap), path);
}

/**
 * Reads a UTF-8 text file (capped, strict as {@linkcode readText}), or `undefined` when there is none; any other
 * failure is thrown (an OS failure as an {@linkcode IoError}).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { readTextIfExists } from "./read.ts";
 * deepStrictEqual(await readTextIfExists("/definitely/not/here"), undefined);
 * ```
 */
export async function readTextIfExists(
  path: string,
  what = "file",
  cap: number = INPUT_CAP,
): Promise<string | undefined> {
  const bytes = await readBytesIfExists(path, what, cap);
  return bytes === undefined ? undefined : decodeUtf8(bytes, path);
}

/**
 * Reads a file's bytes (capped as {@linkcode readBytes}), or `undefined` when there is none: what a check that
 * compares bytes reads.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { readBytesIfExists } from "./read.ts";
 * deepStrictEqual(await readBytesIfExists("/definitely/not/here"), undefined);
 * ```
 */
export async function readBytesIfExists(
  path: string,
  what = "file",
  cap: number = INPUT_CAP,
): Promise<Uint8Array | undefined> {
  try {
    return await readCappedInto(path, what, cap);
  } catch (error) {
    if (error instanceof IoError && error.cause instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * Whether a path exists (any kind of entry); an OS failure other than "not found" is an {@linkcode IoError}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { exists } from "./read.ts";
 * deepStrictEqual(await exists("/definitely/not/here"), false);
 * ```
 */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw isOsError(error) ? new IoError("inspect", path, error) : error;
  }
}

/**
 * The names in a directory (sorted), or `undefined` when it does not exist.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { listDirectory } from "./read.ts";
 * deepStrictEqual(await listDirectory("/definitely/not/here"), undefined);
 * ```
 */
export async function listDirectory(path: string): Promise<string[] | undefined> {
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(path)) names.push(entry.name);
    return names.sort(compareCodePoints);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw isOsError(error) ? new IoError("list directory", path, error) : error;
  }
}
