/**
 * File I/O at the edge. Reads go through a size cap and strict UTF-8; writes never overwrite and publish a set of
 * files all together or not at all; every operating-system failure becomes an {@linkcode IoError} naming the path
 * and the OS's reason. Every operation passes through one counted layer, so a test can make the Nth write (or
 * link, remove, read…) fail with a chosen OS error, in process, without root or a mount.
 *
 * @module
 */

import { InputError, IoError, isOsError, OverwriteError, UnreadableFileError } from "./errors.ts";
import { sha256HexAsync } from "./hash.ts";

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

/** The operations the layer counts; a fault names one of them. */
export type FsOperation = "read" | "write" | "link" | "remove" | "mkdir";

interface Fault {
  operation: FsOperation;
  nth: number;
  error: Error;
  seen: number;
}

const faults: Fault[] = [];

/** The OS errors a test can inject by errno name, with the OS's own wording. */
const SIMULATED: Record<string, string> = {
  ENOSPC: "No space left on device (os error 28)",
  EROFS: "Read-only file system (os error 30)",
  EACCES: "Permission denied (os error 13)",
  EIO: "Input/output error (os error 5)",
  ENOTDIR: "Not a directory (os error 20)",
  EISDIR: "Is a directory (os error 21)",
};

/**
 * An error shaped like one the OS gives (message and errno `code`), for fault injection.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { simulatedOsError } from "./fs.ts";
 * deepStrictEqual(simulatedOsError("ENOSPC").message, "No space left on device (os error 28)");
 * ```
 */
export function simulatedOsError(code: keyof typeof SIMULATED | string): Error {
  return Object.assign(new Error(SIMULATED[code] ?? `${code} (simulated)`), { code });
}

/**
 * Makes the `nth` (1-based) call of `operation` from now on fail with `error` (default: no space left on
 * device). Test-only; {@linkcode clearFaults} removes every injected fault.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { clearFaults, injectFault, writeFileAtomic } from "./fs.ts";
 * import { IoError } from "./errors.ts";
 * const directory = await Deno.makeTempDir();
 * injectFault("write", 2); // the second file written fails with ENOSPC
 * await writeFileAtomic(`${directory}/a.json`, "{}\n");
 * await rejects(writeFileAtomic(`${directory}/b.json`, "{}\n"), IoError);
 * clearFaults();
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export function injectFault(
  operation: FsOperation,
  nth: number,
  error: Error = simulatedOsError("ENOSPC"),
): void {
  faults.push({ operation, nth, error, seen: 0 });
}

/**
 * Removes every injected fault.
 *
 * @example
 * ```ts
 * import { clearFaults } from "./fs.ts";
 * clearFaults();
 * ```
 */
export function clearFaults(): void {
  faults.length = 0;
}

function countOperation(operation: FsOperation): void {
  for (const fault of faults) {
    if (fault.operation === operation && ++fault.seen === fault.nth) throw fault.error;
  }
}

/** Runs one OS operation through the layer: counted for faults, any OS failure rethrown as an IoError. */
async function osCall<T>(
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

/** Reads at most `cap` bytes; more is an InputError. */
async function readCappedInto(path: string, what: string, cap: number): Promise<Uint8Array> {
  let file: Deno.FsFile | undefined;
  try {
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
 * import { readBytes } from "./fs.ts";
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
 * import { readBytesHashed } from "./fs.ts";
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
    return { bytes, sha256: await sha256HexAsync(bytes) };
  } catch (error) {
    throw missingAsInput(error, path, what);
  }
}

const CHUNK = 1 << 20;

const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The byte offset of the first invalid UTF-8 sequence, or -1 when the bytes are valid UTF-8.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { firstInvalidUtf8 } from "./fs.ts";
 * deepStrictEqual(firstInvalidUtf8(new Uint8Array([0x61, 0xff])), 1);
 * ```
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index];
    if (lead < 0x80) {
      index++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f; // no surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return index;
    if (index + length > bytes.length) return index;
    const second = bytes[index + 1];
    if (second < low || second > high) return index;
    for (let next = 2; next < length; next++) {
      const byte = bytes[index + next];
      if (byte < 0x80 || byte > 0xbf) return index;
    }
    index += length;
  }
  return -1;
}

/**
 * Decodes UTF-8 strictly: an invalid byte is an {@linkcode UnreadableFileError} naming the file, the line and the byte
 * offset — never a replacement character.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { decodeUtf8 } from "./fs.ts";
 * deepStrictEqual(decodeUtf8(new TextEncoder().encode("é"), "x.txt"), "é");
 * ```
 */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch (error) {
    const offset = firstInvalidUtf8(bytes);
    let line = 1;
    for (let index = 0; index < offset; index++) if (bytes[index] === 0x0a) line++;
    throw new UnreadableFileError(
      offset < 0 ? "not valid UTF-8" : `not valid UTF-8: line ${line}, byte offset ${offset}`,
      { path, cause: error },
    );
  }
}

/**
 * Reads a UTF-8 text file through a cap (default {@linkcode INPUT_CAP}), strictly decoded.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { UnreadableFileError } from "./errors.ts";
 * import { readText } from "./fs.ts";
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
 * import { readTextIfExists } from "./fs.ts";
 * deepStrictEqual(await readTextIfExists("/definitely/not/here"), undefined);
 * ```
 */
export async function readTextIfExists(
  path: string,
  what = "file",
  cap: number = INPUT_CAP,
): Promise<string | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readCappedInto(path, what, cap);
  } catch (error) {
    if (error instanceof IoError && error.cause instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  return decodeUtf8(bytes, path);
}

/**
 * Whether a path exists (any kind of entry); an OS failure other than "not found" is an {@linkcode IoError}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { exists } from "./fs.ts";
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
 * import { listDirectory } from "./fs.ts";
 * deepStrictEqual(await listDirectory("/definitely/not/here"), undefined);
 * ```
 */
export async function listDirectory(path: string): Promise<string[] | undefined> {
  try {
    const names: string[] = [];
    countOperation("read");
    for await (const entry of Deno.readDir(path)) names.push(entry.name);
    return names.sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw isOsError(error) ? new IoError("list directory", path, error) : error;
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

function splitPath(path: string): { directory: string; name: string } {
  const slash = path.lastIndexOf("/");
  return slash < 0
    ? { directory: ".", name: path }
    : { directory: path.slice(0, slash) || "/", name: path.slice(slash + 1) };
}

/** What a file is written from: text, bytes, or text chunks streamed to the file in order. */
export type FileContent = string | Uint8Array | Iterable<string>;

/**
 * Publishes a set of files in one directory all together or not at all, never overwriting. Each file is first
 * written in full under a staging name beside its target (`.NAME.UUID.staging`), then each is linked into place
 * (a link refuses an existing name, so the no-overwrite check and the publish are one step), then the staging
 * names are removed. On any failure every file it placed and every staging file is removed, so the directory
 * is as before and a rerun just works. An existing target is an {@linkcode OverwriteError}; an OS failure an
 * {@linkcode IoError}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { writeAllOrNothing } from "./fs.ts";
 * const directory = await Deno.makeTempDir();
 * await writeAllOrNothing(directory, { "a.json": "{}\n", "b.json": "[]\n" });
 * strictEqual(await Deno.readTextFile(`${directory}/b.json`), "[]\n");
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function writeAllOrNothing(
  directory: string,
  files: Readonly<Record<string, FileContent>>,
): Promise<void> {
  const names = Object.keys(files);
  for (const name of names) {
    if (name === "" || name.includes("/") || name === "." || name === "..") {
      throw new RangeError(`not a file name: ${JSON.stringify(name)}`);
    }
  }
  await refuseExisting(names.map((name) => `${directory}/${name}`));
  const encoder = new TextEncoder();
  const id = crypto.randomUUID();
  const staged: string[] = [];
  const placed: string[] = [];
  try {
    for (const name of names) {
      const staging = `${directory}/.${name}.${id}.staging`;
      const content = files[name];
      // Chunks are streamed: a sweep's rows run to tens of megabytes, too many to join into one string first.
      const bytes = typeof content === "string"
        ? encoder.encode(content)
        : content instanceof Uint8Array
        ? content
        : ReadableStream.from(content).pipeThrough(new TextEncoderStream());
      staged.push(staging);
      // Named by its target: the staging name is ours, the target is what the user asked for.
      await osCall(
        "write",
        "write",
        `${directory}/${name}`,
        () => Deno.writeFile(staging, bytes, { createNew: true }),
      );
    }
    for (const [index, name] of names.entries()) {
      const target = `${directory}/${name}`;
      await osCall("link", "link", target, () => Deno.link(staged[index], target));
      placed.push(target);
    }
    while (staged.length > 0) {
      const staging = staged[staged.length - 1];
      await osCall("remove", "remove", staging, () => Deno.remove(staging));
      staged.pop();
    }
  } catch (error) {
    // Undo: what this call placed and what it staged; a path it never created is never touched.
    for (const path of [...placed, ...staged]) await Deno.remove(path).catch(() => {});
    throw error;
  }
}

/**
 * Writes one file atomically and never overwrites: {@linkcode writeAllOrNothing} with a single file.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { writeFileAtomic } from "./fs.ts";
 * const directory = await Deno.makeTempDir();
 * await writeFileAtomic(`${directory}/summary.json`, "{}\n");
 * strictEqual(await Deno.readTextFile(`${directory}/summary.json`), "{}\n");
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const { directory, name } = splitPath(path);
  await writeAllOrNothing(directory, { [name]: content });
}

/**
 * Moves a file aside into `asideDirectory` under `asideName` without ever replacing anything: a link (which
 * refuses an existing name, where a rename would replace it), then removal of the original. If the removal
 * fails, the new link is removed again, so the file is either moved or left where it was.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { exists, moveAside } from "./fs.ts";
 * const directory = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${directory}/x.json`, "{}\n");
 * await moveAside(`${directory}/x.json`, `${directory}/superseded`, "x.1700000000000.json");
 * strictEqual(await exists(`${directory}/x.json`), false);
 * strictEqual(await Deno.readTextFile(`${directory}/superseded/x.1700000000000.json`), "{}\n");
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function moveAside(path: string, asideDirectory: string, asideName: string): Promise<void> {
  await ensureDir(asideDirectory);
  const target = `${asideDirectory}/${asideName}`;
  await osCall("link", "link", target, () => Deno.link(path, target));
  try {
    await osCall("remove", "remove", path, () => Deno.remove(path));
  } catch (error) {
    await Deno.remove(target).catch(() => {});
    throw error;
  }
}

/**
 * Creates a directory (and its parents) if missing; an OS failure is an {@linkcode IoError}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ensureDir } from "./fs.ts";
 * const directory = await Deno.makeTempDir();
 * await ensureDir(`${directory}/out/responses`);
 * await ensureDir(`${directory}/out/responses`); // already there: fine
 * strictEqual((await Deno.stat(`${directory}/out/responses`)).isDirectory, true);
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function ensureDir(path: string): Promise<void> {
  await osCall("mkdir", "create directory", path, () => Deno.mkdir(path, { recursive: true }));
}

/**
 * Publishes files at any paths all together or not at all, never overwriting: each is staged beside its
 * target, then all are linked into place, then the staging names go; any failure undoes what this call did.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { publishFiles } from "./fs.ts";
 * const directory = await Deno.makeTempDir();
 * await publishFiles([[`${directory}/a.md`, "# a\n"], [`${directory}/b.html`, "<p>b</p>\n"]]);
 * strictEqual(await Deno.readTextFile(`${directory}/a.md`), "# a\n");
 * ```
 */
export async function publishFiles(
  entries: readonly (readonly [path: string, content: string])[],
): Promise<void> {
  await refuseExisting(entries.map(([path]) => path));
  const encoder = new TextEncoder();
  const id = crypto.randomUUID();
  const staged: string[] = [];
  const placed: string[] = [];
  try {
    for (const [path, content] of entries) {
      const { directory, name } = splitPath(path);
      const staging = `${directory}/.${name}.${id}.staging`;
      staged.push(staging);
      await osCall(
        "write",
        "write",
        path,
        () => Deno.writeFile(staging, encoder.encode(content), { createNew: true }),
      );
    }
    for (const [index, [path]] of entries.entries()) {
      await osCall("link", "link", path, () => Deno.link(staged[index], path));
      placed.push(path);
    }
    for (const staging of staged) await osCall("remove", "remove", staging, () => Deno.remove(staging));
  } catch (error) {
    for (const path of [...placed, ...staged]) await Deno.remove(path).catch(() => {});
    throw error;
  }
}
