/**
 * Reading at the edge: every read checks the file's type first (a FIFO, a device or a socket is refused, never
 * opened) and goes through a size cap (the caps a user sees are declared here, once, derived together), and text
 * through strict UTF-8 ({@linkcode decodeUtf8}, a leading BOM kept for the format's parser to judge); a missing
 * file is an {@linkcode InputError} naming it, any other OS failure an {@linkcode IoError}.
 *
 * @module
 */

import { compareCodePoints } from "./order.ts";
import { InputError, UnreadableFileError } from "./errors.ts";
import { IoError, isOsError } from "./os_errors.ts";
import { sha256Hex } from "./hash.ts";
import { decodeUtf8, utf8Length } from "./utf8.ts";
import { osCall } from "./_os_call.ts";

/** A mebibyte. */
export const MIB: number = 1 << 20;
/** The cap on a run marker and a results file (`summary.json`, `run.json`, `qa.summary.json` …): 16 MiB. */
export const INPUT_CAP: number = 16 * MIB;
/**
 * The cap on the config, a manifest and a `--grid` file: 256 KiB. The protocol's own are about 2 KB; the cap is
 * what bounds the YAML reader, which holds some 600 bytes per list item (about 260 MB at this cap, 630 MB at 1 MiB).
 */
export const CONTRACT_CAP: number = 256 * 1024;
/** The cap on an answer's response body (decoded): 4 MiB. */
export const ANSWER_BODY_CAP: number = 4 * MIB;
/** The cap on an answer row file: 16 MiB, room for a body at its cap twice over (its usage is re-indented). */
export const ANSWER_ROW_CAP: number = INPUT_CAP;
/**
 * The cap on `qa.rows.jsonl`, and on a run's answer rows read together to grade them: 96 MiB. One total, not
 * the row cap × rows (90 rows of 16 MiB would be 1.4 GiB, and grading, verifying and reporting hold every row:
 * about 7 times the file at most): `grade-qa` refuses to read past it or to write more, so what it writes
 * `verify` and `report` read.
 */
export const GRADED_ROWS_CAP: number = 96 * MIB;
/**
 * The cap on the dataset: 128 MiB (the pinned file is 15 MB). Preparing a dataset holds about five times the
 * file (its bytes, its rows and their evidence), so a pinned one at the cap stays under 1 GB.
 */
export const DATASET_CAP: number = 128 * MIB;
/**
 * The cap on a conformance vector file: 64 MiB, 25 times the largest shipped one; `conformance` holds about four
 * times the file (1.1 GB at 256 MiB).
 */
export const VECTOR_CAP: number = 64 * MIB;
/**
 * The cap on a sweep's output read back by `report`: 192 MiB (the default grid writes about 78 MB; `report`
 * holds about five times what it reads). The grid's own bound (sweep/grid.ts) keeps a sweep's output under it.
 */
export const SWEEP_OUTPUT_CAP: number = 192 * MIB;
/** The cap on a publish journal read back to recover a killed publish: 1 MiB; a larger one is not one of ours. */
export const JOURNAL_CAP: number = MIB;

/** A file's bytes and their SHA-256, computed while reading. */
export interface HashedBytes {
  /** The file's bytes. */
  bytes: Uint8Array;
  /** Their SHA-256 (64 lowercase hex digits). */
  sha256: string;
}

function capText(cap: number): string {
  if (cap % MIB !== 0) return cap % 1024 === 0 && cap >= 1024 ? `${cap / 1024} KiB` : `${cap} bytes`;
  return cap >= 1024 * MIB && cap % (1024 * MIB) === 0 ? `${cap / 1024 / MIB} GiB` : `${cap / MIB} MiB`;
}

/**
 * A total several reads share (say, a run's answer rows, which `grade-qa` holds together): a read that would
 * take the total past it is refused, naming that file, before its bytes are held.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { UnreadableFileError } from "./errors.ts";
 * import { ReadBudget, readText } from "./read.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "{}\n");
 * const budget = new ReadBudget(5, "the run's answer rows", "qa.rows.jsonl");
 * await readText(path, "answer row", 16, budget); // 3 of 5 bytes
 * await rejects(readText(path, "answer row", 16, budget), UnreadableFileError); // 6 would be past it
 * await Deno.remove(path);
 * ```
 */
export class ReadBudget {
  #left: number;
  /**
   * @param total The most bytes the reads may take together.
   * @param what What the reads are, for the message (e.g. "the run's answer rows").
   * @param bound What the total bounds, for the message (e.g. "qa.rows.jsonl").
   */
  constructor(readonly total: number, readonly what: string, readonly bound: string) {
    this.#left = total;
  }
  /** The bytes still to be had. */
  get left(): number {
    return this.#left;
  }
  /** Takes `bytes` from the total, or refuses naming `path`. */
  take(bytes: number, path: string): void {
    if (bytes > this.#left) throw this.refusal(path);
    this.#left -= bytes;
  }
  /** The refusal for the file that would take the total past it. */
  refusal(path: string): UnreadableFileError {
    return new UnreadableFileError(
      `${this.what} total more than ${capText(this.total)}, the cap of ${this.bound}`,
      { path },
    );
  }
}

/**
 * Refuses (an {@linkcode UnreadableFileError} naming the file and the cap) text that would be more than `cap`
 * bytes as UTF-8: a writer checks what it is about to write (one string, or the lines it streams) against the
 * cap its reader reads it through.
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { refuseOverCap } from "./read.ts";
 * refuseOverCap("run/qa.rows.jsonl", "graded rows", "{}\n", 3);
 * throws(() => refuseOverCap("run/qa.rows.jsonl", "graded rows", "é\n", 2)); // 3 bytes as UTF-8
 * ```
 */
export function refuseOverCap(
  path: string,
  what: string,
  text: string | Iterable<string>,
  cap: number,
): void {
  const parts = typeof text === "string" ? [text] : text;
  let units = 0;
  for (const part of parts) units += part.length;
  // At most 3 bytes per UTF-16 unit: the count is needed only when the text might be over.
  if (units * 3 <= cap) return;
  let bytes = 0;
  for (const part of parts) bytes += utf8Length(part);
  if (bytes > cap) {
    throw new UnreadableFileError(`${what} would be ${bytes} bytes, over the ${capText(cap)} cap`, { path });
  }
}

/** The kind of a file that is not a regular file or a directory, as a person calls it; `undefined` for those. */
function oddKind(info: Deno.FileInfo): string | undefined {
  if (info.isFile || info.isDirectory) return undefined;
  if (info.isFifo) return "a FIFO";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "of another kind";
}

// The most one read asks for, and the step by which a file that grows while it is read grows the buffer.
const CHUNK = 1 << 20;

function refuseOdd(info: Deno.FileInfo, path: string, what: string): void {
  const kind = oddKind(info);
  if (kind !== undefined) throw new UnreadableFileError(`${what} is ${kind}, not a regular file`, { path });
}

/**
 * Reads at most `cap` bytes (and no more than `budget` has left); more is an InputError. The type is checked on
 * the name before it is opened: opening a FIFO waits for a writer, and a device may never end. (A FIFO put in
 * its place between the check and the open still waits: Deno has no non-blocking open.)
 */
async function readCappedInto(
  path: string,
  what: string,
  cap: number,
  budget?: ReadBudget,
): Promise<Uint8Array> {
  let file: Deno.FsFile | undefined;
  try {
    const named = await osCall("read", `read ${what}`, path, () => Deno.stat(path));
    refuseOdd(named, path, what);
    file = await osCall("read", `read ${what}`, path, () => Deno.open(path));
    const opened = file;
    const stat = await osCall("read", `read ${what}`, path, () => opened.stat());
    refuseOdd(stat, path, what);
    if (stat.isFile && stat.size > cap) {
      throw new UnreadableFileError(`${what} is ${stat.size} bytes, over the ${capText(cap)} cap`, { path });
    }
    if (budget !== undefined && stat.size > budget.left) throw budget.refusal(path);
    // The size is known; a file that grows while it is read grows the buffer chunk by chunk up to the cap.
    let bytes = new Uint8Array(stat.size);
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
    budget?.take(at, path);
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  } catch (error) {
    if (!isOsError(error)) throw error;
    throw new IoError(`read ${what}`, path, error);
  } finally {
    file?.close();
  }
}

/**
 * What a read takes: the path, what the file is (named in messages: "config", "run marker"; default "file"), its
 * size cap (default {@linkcode INPUT_CAP}), and a {@linkcode ReadBudget} it shares with other reads.
 */
export type ReadArgs = [path: string, what?: string, cap?: number, budget?: ReadBudget];

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
export function readBytes(...args: ReadArgs): Promise<Uint8Array> {
  return readOr(args, (path, what, error) => {
    throw new InputError(`cannot read ${what}: not found`, { path, cause: error });
  });
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
  const bytes = await readBytes(path, what, cap);
  return { bytes, sha256: await sha256Hex(bytes) };
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
export async function readText(...args: ReadArgs): Promise<string> {
  return decodeUtf8(await readBytes(...args), args[0]);
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
export async function readTextIfExists(...args: ReadArgs): Promise<string | undefined> {
  const bytes = await readBytesIfExists(...args);
  return bytes === undefined ? undefined : decodeUtf8(bytes, args[0]);
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
export function readBytesIfExists(...args: ReadArgs): Promise<Uint8Array | undefined> {
  return readOr(args, () => undefined);
}

/** Reads as {@linkcode ReadArgs} say; a missing file is what `missing` makes of it, any other failure thrown. */
async function readOr<T>(
  [path, what = "file", cap = INPUT_CAP, budget]: ReadArgs,
  missing: (path: string, what: string, error: IoError) => T,
): Promise<Uint8Array | T> {
  try {
    return await readCappedInto(path, what, cap, budget);
  } catch (error) {
    if (error instanceof IoError && error.cause instanceof Deno.errors.NotFound) {
      return missing(path, what, error);
    }
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
