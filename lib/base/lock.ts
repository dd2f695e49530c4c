/**
 * The run directory's lock: `run-qa` holds `run-qa.lock` (its pid and start time) for as long as it works in a
 * directory, so that a second `run-qa` or a `grade-qa` refuses at once instead of racing it. The file is created
 * exclusively (written under a temporary name, then linked into place) and the holder keeps an exclusive
 * `flock` on it: the kernel drops that the moment the holder dies, which is how a stale lock is told from a live
 * one. (Asking whether the pid still runs would need `/proc` or `Deno.kill`, i.e. `--allow-all` or `--allow-run`,
 * which `run-qa` does not have; the flock needs no permission beyond the directory's, and survives pid reuse.)
 *
 * @module
 */

import { DirectoryLockedError } from "./errors.ts";
import { IoError, isOsError } from "./os_errors.ts";
import { decodeStrictUtf8 } from "./utf8.ts";

/** The lock's file name inside a run directory. */
export const LOCK_FILE = "run-qa.lock";

/** Who holds a lock, as its file records it. */
export interface LockHolder {
  /** The command holding it (`run-qa`). */
  command: string;
  pid: number;
  /** When the holder took the lock, ISO 8601 UTC. */
  started_at: string;
}

/** A lock this process holds; {@linkcode DirectoryLock.release} removes it (also run on `Deno.exit`). */
export interface DirectoryLock {
  /** The lock file. */
  readonly path: string;
  readonly holder: LockHolder;
  /**
   * The dead holder whose stale lock was taken over (pid 0 and "unknown" when its file was unreadable), or
   * `null` when the lock was simply free.
   */
  readonly tookOver: LockHolder | null;
  /** Removes the lock file and drops the flock; idempotent, synchronous so an exit path can run it. */
  release(): void;
}

/** How often a held lock is looked at again before refusing: a run may be replacing a stale lock this moment. */
const ATTEMPTS = 8;
const RETRY_MS = 25;

function lockPath(directory: string): string {
  return `${directory}/${LOCK_FILE}`;
}

/** Parses a lock file's text; `null` when it is not a lock this tool wrote. */
function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text);
    if (
      value !== null && typeof value === "object" && Number.isSafeInteger(value.pid) && value.pid > 0 &&
      typeof value.started_at === "string" && typeof value.command === "string"
    ) {
      return { command: value.command, pid: value.pid, started_at: value.started_at };
    }
  } catch {
    // Not JSON: an unreadable lock, reported as such.
  }
  return null;
}

/**
 * Takes an exclusive flock without waiting: `true` taken, `false` held by a live process, `undefined` when
 * unsupported here. The one lock primitive: run-qa's lock and the publish journal both take it.
 */
export async function tryFlock(file: Deno.FsFile): Promise<boolean | undefined> {
  try {
    return await file.tryLock(true);
  } catch {
    return undefined;
  }
}

/** The lock file's text (at most 64 KiB), or `null` when it is not UTF-8: an unreadable lock, not a bug. */
function readAll(file: Deno.FsFile): string | null {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(4096);
  for (let total = 0; total < 65536;) {
    const read = file.readSync(buffer);
    if (read === null || read === 0) break;
    chunks.push(buffer.slice(0, read));
    total += read;
  }
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  try {
    return decodeStrictUtf8(bytes);
  } catch {
    return null;
  }
}

/** Who an open lock file names, read from its start; `null` when it is unreadable. */
function holderOf(file: Deno.FsFile): LockHolder | null {
  try {
    file.seekSync(0, Deno.SeekMode.Start);
    const text = readAll(file);
    return text === null ? null : parseHolder(text);
  } catch {
    return null;
  }
}

/** What a name that is not a regular file is, as a person calls it. */
function kindOf(info: Deno.FileInfo): string {
  if (info.isSymlink) return "a symbolic link";
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

function notALockFile(path: string, info: Deno.FileInfo): DirectoryLockedError {
  return new DirectoryLockedError(
    `is ${kindOf(info)}, not a lock file run-qa writes: remove it if no run-qa is running`,
    { path },
  );
}

/**
 * Whether the lock's name is there, refusing (without opening it) anything but a regular file: opening a FIFO
 * waits for a writer, and a symlink's target is not the name the lock is taken on.
 */
async function lockPresent(path: string): Promise<boolean> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return false;
    throw isOsError(error) ? new IoError("inspect", path, error) : error;
  }
  if (!info.isFile) throw notALockFile(path, info);
  return true;
}

/** Opens the lock file to read, refusing what is not a regular file once open; `undefined` when it is gone. */
async function openLock(path: string): Promise<Deno.FsFile | undefined> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return undefined;
    throw isOsError(error) ? new IoError("open", path, error) : error;
  }
  const info = file.statSync();
  if (!info.isFile) {
    file.close();
    throw notALockFile(path, info);
  }
  return file;
}

function sameFile(file: Deno.FsFile, path: string): boolean {
  try {
    const open = file.statSync();
    const named = Deno.lstatSync(path);
    return open.ino === named.ino && open.dev === named.dev;
  } catch {
    return false;
  }
}

function lockedError(
  path: string,
  holder: LockHolder | null,
  action: string,
  flockSupported = true,
): DirectoryLockedError {
  const who = holder === null
    ? "another process (its lock file is unreadable)"
    : `${holder.command} (pid ${holder.pid}, started ${holder.started_at})`;
  // Without flock a dead holder cannot be told from a live one: then only a person can.
  const hint = flockSupported
    ? ""
    : " (this file system cannot tell whether it still runs: if not, remove the lock file)";
  return new DirectoryLockedError(`locked by ${who}: ${action}${hint}`, { path });
}

/**
 * Refuses (a {@linkcode DirectoryLockedError} naming the holder's pid and start time) when a live process holds
 * `directory`'s lock; a missing or stale lock passes. Reads only: for commands that must not run beside a
 * `run-qa` and for `run-qa`'s own early check.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { DirectoryLockedError } from "./errors.ts";
 * import { acquireDirectoryLock, refuseIfLocked } from "./lock.ts";
 * const directory = await Deno.makeTempDir();
 * await refuseIfLocked(directory, "grade it after that run has ended"); // no lock: fine
 * const lock = await acquireDirectoryLock(directory, "run-qa", "wait for it to finish");
 * await rejects(refuseIfLocked(directory, "grade it after that run has ended"), DirectoryLockedError);
 * lock.release();
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function refuseIfLocked(directory: string, action: string): Promise<void> {
  const path = lockPath(directory);
  if (!await lockPresent(path)) return;
  const file = await openLock(path);
  if (file === undefined) return;
  try {
    // Free means its holder is gone (stale: the next run-qa takes it over); held or unknowable means refuse.
    const free = await tryFlock(file);
    if (free === true) return;
    throw lockedError(path, holderOf(file), action, free === false);
  } finally {
    file.close();
  }
}

async function createLockFile(
  directory: string,
  holder: LockHolder,
): Promise<{ file: Deno.FsFile; temporary: string }> {
  const temporary = `${directory}/.${LOCK_FILE}.${crypto.randomUUID()}.tmp`;
  const file = await Deno.open(temporary, { createNew: true, write: true, read: true });
  try {
    // Locked before it is visible under the lock's name, so a live holder's lock is never seen unlocked.
    await tryFlock(file);
    const bytes = new TextEncoder().encode(`${JSON.stringify(holder)}\n`);
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
    return { file, temporary };
  } catch (error) {
    file.close();
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

/**
 * Takes `directory`'s lock for `command` or refuses with a {@linkcode DirectoryLockedError} naming the live
 * holder's pid and start time. A stale lock (no process holds its flock: its holder died) is replaced atomically
 * and reported in `tookOver`. The directory must exist.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { DirectoryLockedError } from "./errors.ts";
 * import { acquireDirectoryLock } from "./lock.ts";
 * const directory = await Deno.makeTempDir();
 * const lock = await acquireDirectoryLock(directory, "run-qa", "wait for it to finish");
 * // … work in the directory; a second holder is refused meanwhile …
 * await rejects(acquireDirectoryLock(directory, "run-qa", "wait for it to finish"), DirectoryLockedError);
 * lock.release();
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function acquireDirectoryLock(
  directory: string,
  command: string,
  action: string,
  now: () => Date = () => new Date(),
): Promise<DirectoryLock> {
  const path = lockPath(directory);
  const holder: LockHolder = { command, pid: Deno.pid, started_at: now().toISOString() };
  for (let attempt = 0;; attempt++) {
    // Each pass takes the lock or sees it change hands; a name that keeps changing is refused, not chased.
    if (attempt > ATTEMPTS) {
      throw new DirectoryLockedError(`the lock kept changing hands over ${ATTEMPTS} attempts: ${action}`, {
        path,
      });
    }
    const created = await createLockFile(directory, holder);
    let tookOver: LockHolder | null = null;
    let placed = false;
    let existing: Deno.FsFile | undefined;
    try {
      try {
        // link() refuses an existing name: taking a free lock is one atomic step.
        await Deno.link(created.temporary, path);
        placed = true;
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
      if (!placed) {
        // Released meanwhile (gone by the look or by the open): try again.
        if (!await lockPresent(path) || (existing = await openLock(path)) === undefined) continue;
        const free = await tryFlock(existing);
        if (free !== true) {
          // Held: a live holder, or a run replacing a stale lock right now (then the name changes hands soon).
          if (free === false && attempt < ATTEMPTS) {
            await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
            continue;
          }
          throw lockedError(path, holderOf(existing), action, free === false);
        }
        // Holding the old file's flock, check it is still the lock: someone may have replaced it meanwhile.
        if (!sameFile(existing, path)) continue;
        const current = holderOf(existing);
        // Stale: its holder's flock died with it. Replace it in one step while holding its flock.
        await Deno.rename(created.temporary, path);
        placed = true;
        tookOver = current ?? { command: "unknown", pid: 0, started_at: "unknown" };
      }
    } finally {
      existing?.close();
      if (!placed) {
        created.file.close();
        await Deno.remove(created.temporary).catch(() => {});
      }
    }
    if (placed) {
      await Deno.remove(created.temporary).catch(() => {});
      return heldLock(path, holder, tookOver, created.file);
    }
  }
}

function heldLock(
  path: string,
  holder: LockHolder,
  tookOver: LockHolder | null,
  file: Deno.FsFile,
): DirectoryLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    globalThis.removeEventListener("unload", release);
    try {
      if (sameFile(file, path)) Deno.removeSync(path);
    } catch {
      // Already gone: nothing to release.
    } finally {
      file.close();
    }
  };
  // Deno.exit (a second Ctrl-C) skips finally blocks but dispatches "unload".
  globalThis.addEventListener("unload", release);
  return { path, holder, tookOver, release };
}
