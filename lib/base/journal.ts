/**
 * The journal of a publish in progress, and the one rule for what the next run does with a journal a killed
 * publish left behind.
 *
 * A publish writes `.publish.ID.journal` beside its first target before anything else (the targets),
 * holds an exclusive `flock` on it while it runs (the kernel drops it the moment the process dies, which is how
 * a journal left by a dead publish is told from a live one), appends the identity (inode, size, mtime) of every
 * staging file once all are written in full and fsync'd, fsyncs it — before the first link — and removes it when
 * it has finished or been undone. Its staging files are `.NAME.ID.staging` beside each target.
 *
 * The next publish into any of those directories recovers a dead journal: a publish of any of the same targets
 * (the same command run again) supersedes it, so the dead one is cleared; otherwise it is completed (the
 * missing links made) when every staging file was complete, else cleared. Clearing removes the staging files
 * and only those targets that are still the very file it staged (same inode, size and mtime): a file at a
 * target that this publish did not create is never touched. Then the journal goes.
 *
 * @module
 */

import { IoError, isOsError } from "./errors.ts";

/** What tells a file this publish staged from one someone else put at the same name. */
export interface FileIdentity {
  /** The inode number; `null` where the platform gives none (such a file is never taken for ours). */
  readonly ino: number | null;
  /** The size in bytes. */
  readonly size: number;
  /** The modification time, milliseconds since the epoch (`null` when unknown). */
  readonly mtime: number | null;
}

/**
 * A file's identity as the journal records it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { fileIdentity } from "./journal.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "abc");
 * strictEqual(fileIdentity(await Deno.stat(path)).size, 3);
 * ```
 */
export function fileIdentity(info: Deno.FileInfo): FileIdentity {
  return { ino: info.ino, size: info.size, mtime: info.mtime?.getTime() ?? null };
}

function sameIdentity(seen: FileIdentity | null, recorded: FileIdentity | undefined): boolean {
  return seen !== null && recorded !== undefined && seen.ino !== null && seen.ino === recorded.ino &&
    seen.size === recorded.size && seen.mtime === recorded.mtime;
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

/**
 * Where the publish `id` stages `target`: `.NAME.ID.staging` beside it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { stagingPath } from "./journal.ts";
 * strictEqual(stagingPath("out/run.json", "0f0e"), "out/.run.json.0f0e.staging");
 * ```
 */
export function stagingPath(target: string, id: string): string {
  const { directory, name } = splitPath(target);
  return `${directory}/.${name}.${id}.staging`;
}

const JOURNAL_NAME = /^\.publish\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.journal$/;
const MARK = "deermem-eval publish";
/** Far above any journal this tool writes (a line per target): anything larger is not one of ours. */
const JOURNAL_CAP = 1 << 20;
/** New journals taken for dead ones by a concurrent recovery before giving up (each race takes microseconds). */
const ATTEMPTS = 8;

/** The journal of one publish in progress; only the process that began it holds its lock. */
export interface PublishJournal {
  /** The publish's id, in its journal's and its staging files' names. */
  readonly id: string;
  /** The journal file. */
  readonly path: string;
  /** The staging path of each target, in the targets' order. */
  readonly staging: readonly string[];
  /** Records (fsync'd) that every staging file is written in full, with their identities: call before linking. */
  recordStaged(identities: readonly FileIdentity[]): Promise<void>;
  /**
   * Removes the journal: the publish has finished or been undone. Synchronous, so that nothing runs between a
   * publish's last look for a signal and the end of its hold on signals.
   */
  remove(): void;
  /** Drops the lock and leaves the journal for the next run to settle, as a killed process does. */
  abandon(): void;
}

const encoder = new TextEncoder();

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.length;) offset += await file.write(bytes.subarray(offset));
}

/** The directory with symbolic links resolved, so two spellings of one file compare equal. */
async function canonicalDirectory(directory: string): Promise<string> {
  try {
    return await Deno.realPath(directory);
  } catch {
    return directory;
  }
}

async function canonicalPath(path: string): Promise<string> {
  const { directory, name } = splitPath(path);
  return `${await canonicalDirectory(directory)}/${name}`;
}

/** Whether `path` still names the file open as `file` (a recovery may have removed it meanwhile). */
async function stillAt(file: Deno.FsFile, path: string): Promise<boolean> {
  try {
    return (await file.stat()).ino === (await Deno.lstat(path)).ino;
  } catch {
    return false;
  }
}

/** Locks without waiting: `true` taken, `false` held by a live process, `undefined` when unsupported here. */
async function tryLock(file: Deno.FsFile): Promise<boolean | undefined> {
  try {
    return await file.tryLock(true);
  } catch {
    return undefined;
  }
}

/**
 * Begins the journal of a publish of `targets` (written before any staging file); an OS failure is
 * an {@linkcode IoError} named by the first target, the file the user asked for.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { beginJournal } from "./journal.ts";
 * const directory = await Deno.makeTempDir();
 * const journal = await beginJournal([`${directory}/a.json`]);
 * strictEqual(journal.staging[0], `${directory}/.a.json.${journal.id}.staging`);
 * journal.remove();
 * ```
 */
export async function beginJournal(targets: readonly string[]): Promise<PublishJournal> {
  const { directory } = splitPath(targets[0]);
  try {
    // A target beside the journal is named by its name (the directory may move); any other by its full path.
    const entries = await Promise.all(targets.map((target) => {
      const split = splitPath(target);
      return split.directory === directory ? split.name : canonicalPath(target);
    }));
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const id = crypto.randomUUID();
      const path = `${directory}/.publish.${id}.journal`;
      const file = await Deno.open(path, { createNew: true, read: true, write: true });
      // A recovery that found it before the lock took it for a dead one: begin again under another id.
      if (await tryLock(file) === false || !await stillAt(file, path)) {
        file.close();
        continue;
      }
      // Not fsync'd yet: recordStaged's fsync makes both lines durable before the first link.
      await writeAll(file, encoder.encode(`${JSON.stringify({ journal: MARK, id, targets: entries })}\n`));
      return openJournal(file, path, id, targets);
    }
    throw new IoError(
      "write",
      targets[0],
      new Error("another process keeps taking its new journal for a dead one"),
    );
  } catch (error) {
    if (error instanceof IoError || !isOsError(error)) throw error;
    throw new IoError("write", targets[0], error);
  }
}

function openJournal(
  file: Deno.FsFile,
  path: string,
  id: string,
  targets: readonly string[],
): PublishJournal {
  let open = true;
  const close = () => {
    if (open) file.close();
    open = false;
  };
  return {
    id,
    path,
    staging: targets.map((target) => stagingPath(target, id)),
    recordStaged: async (identities) => {
      try {
        await writeAll(file, encoder.encode(`${JSON.stringify({ staged: identities })}\n`));
        await file.sync();
      } catch (error) {
        if (!isOsError(error)) throw error;
        throw new IoError("write", targets[0], error);
      }
    },
    remove: () => {
      try {
        Deno.removeSync(path);
      } catch (error) {
        if (!isOsError(error)) throw error;
        throw new IoError("remove", path, error);
      } finally {
        close();
      }
    },
    abandon: close,
  };
}

/** What the next run did with a journal a dead publish left. */
export interface Recovery {
  /** The journal file (now removed). */
  journal: string;
  /** `completed`: every file linked into place; `cleared`: everything it staged and placed removed. */
  outcome: "completed" | "cleared";
}

/** A dead publish as its journal records it: `staged` is `null` when it died before every file was staged. */
interface JournalRecord {
  targets: string[];
  staged: FileIdentity[] | null;
}

function isIdentity(value: unknown): value is FileIdentity {
  const item = value as FileIdentity | null;
  return typeof item === "object" && item !== null && Number.isSafeInteger(item.size) &&
    (item.ino === null || Number.isSafeInteger(item.ino)) &&
    (item.mtime === null || Number.isFinite(item.mtime));
}

function isTarget(entry: unknown): entry is string {
  if (typeof entry !== "string" || entry === "") return false;
  const { name } = splitPath(entry);
  return name !== "" && name !== "." && name !== ".." && (!entry.includes("/") || entry.startsWith("/"));
}

/** Reads a journal's text; `undefined` when it is not one this tool wrote (then it is left alone). */
function parseJournal(text: string, id: string, directory: string): JournalRecord | null | undefined {
  const lines = text.split("\n");
  // No complete first line: the publish died writing it, before any staging file existed.
  if (lines.length < 2) return null;
  let intent;
  try {
    intent = JSON.parse(lines[0]);
  } catch {
    return undefined;
  }
  if (intent?.journal !== MARK || intent.id !== id || !Array.isArray(intent.targets)) return undefined;
  if (intent.targets.length === 0 || !intent.targets.every(isTarget)) return undefined;
  const targets = (intent.targets as string[]).map((entry) =>
    entry.includes("/") ? entry : `${directory}/${entry}`
  );
  let staged: FileIdentity[] | null = null;
  if (lines.length >= 3) {
    try {
      const record = JSON.parse(lines[1]);
      const identities = record?.staged;
      if (Array.isArray(identities) && identities.length === targets.length && identities.every(isIdentity)) {
        staged = identities;
      }
    } catch {
      // Torn while being appended: not every file is known to be staged.
    }
  }
  return { targets, staged };
}

async function identityAt(path: string): Promise<FileIdentity | null> {
  try {
    const info = await Deno.lstat(path);
    return info.isFile ? fileIdentity(info) : { ino: null, size: -1, mtime: null };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new IoError("inspect", path, error);
  }
}

async function removeIfPresent(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new IoError("remove", path, error);
  }
}

/** Settles one dead publish: completes or clears it as the module's rule says. */
async function settle(
  record: JournalRecord,
  id: string,
  superseding: ReadonlySet<string>,
): Promise<Recovery["outcome"]> {
  const files = record.targets.map((target, index) => ({
    target,
    staging: stagingPath(target, id),
    staged: record.staged?.[index],
  }));
  const look = () =>
    Promise.all(files.map(async (file) => ({
      target: await identityAt(file.target),
      staging: await identityAt(file.staging),
    })));
  let seen = await look();
  const ours = (index: number) => sameIdentity(seen[index].target, files[index].staged);
  const completable = record.staged !== null &&
    files.every((file, index) =>
      ours(index) || (seen[index].target === null && sameIdentity(seen[index].staging, file.staged))
    );
  const superseded = (await Promise.all(files.map((file) => canonicalPath(file.target))))
    .some((path) => superseding.has(path));
  if (completable && !superseded) {
    if (await linkMissing(files.filter((_, index) => seen[index].target === null))) {
      for (const file of files) await removeIfPresent(file.staging);
      return "completed";
    }
    seen = await look(); // a target appeared meanwhile: clear what is ours, including links just made
  }
  for (const [index, file] of files.entries()) {
    if (ours(index)) await removeIfPresent(file.target);
    await removeIfPresent(file.staging);
  }
  return "cleared";
}

/** Links each staged file into its target; `false` when one could not be. */
async function linkMissing(files: readonly { target: string; staging: string }[]): Promise<boolean> {
  for (const file of files) {
    try {
      await Deno.link(file.staging, file.target);
    } catch {
      return false;
    }
  }
  return true;
}

async function readJournal(file: Deno.FsFile): Promise<string | undefined> {
  const size = (await file.stat()).size;
  if (size > JOURNAL_CAP) return undefined;
  const bytes = new Uint8Array(size);
  for (let offset = 0; offset < size;) {
    const read = await file.read(bytes.subarray(offset));
    if (read === null) break;
    offset += read;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined; // not UTF-8: not a journal this tool wrote
  }
}

async function recoverJournal(
  directory: string,
  name: string,
  id: string,
  superseding: ReadonlySet<string>,
): Promise<Recovery | undefined> {
  const path = `${directory}/${name}`;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return undefined; // gone meanwhile, or not ours to open
  }
  try {
    // Locked: its publish is still running (here or in another process). Unlockable here: it cannot be told.
    if (await tryLock(file) !== true || !await stillAt(file, path)) return undefined;
    const text = await readJournal(file);
    const record = text === undefined ? undefined : parseJournal(text, id, directory);
    if (record === undefined) return undefined;
    const outcome = record === null ? "cleared" : await settle(record, id, superseding);
    await removeIfPresent(path);
    return { journal: path, outcome };
  } finally {
    file.close();
  }
}

async function journalsIn(directory: string): Promise<{ name: string; id: string }[]> {
  const found: { name: string; id: string }[] = [];
  try {
    for await (const entry of Deno.readDir(directory)) {
      const match = JOURNAL_NAME.exec(entry.name);
      if (match !== null && entry.isFile) found.push({ name: entry.name, id: match[1] });
    }
  } catch {
    // An unlistable directory holds no journal we can settle; the publish itself reports what is wrong.
  }
  return found.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * Settles every journal a dead publish left in the directories of `paths` (the targets of the publish about to
 * run): superseded by this publish when it names any of the same targets (cleared), otherwise completed when
 * every file was staged, else cleared. A journal of a publish still running is left alone. A failure to remove
 * something is an {@linkcode IoError} naming it (the journal stays for the next run).
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { beginJournal, recoverInterruptedPublishes } from "./journal.ts";
 * const directory = await Deno.makeTempDir();
 * const journal = await beginJournal([`${directory}/a.json`]);
 * await Deno.writeTextFile(journal.staging[0], "{"); // killed while staging: not every file complete
 * journal.abandon(); // as a killed process would
 * const [recovery] = await recoverInterruptedPublishes([`${directory}/b.json`]);
 * strictEqual(recovery.outcome, "cleared");
 * deepStrictEqual([...Deno.readDirSync(directory)], []);
 * ```
 */
export async function recoverInterruptedPublishes(paths: readonly string[]): Promise<Recovery[]> {
  const superseding = new Set(await Promise.all(paths.map(canonicalPath)));
  const recovered: Recovery[] = [];
  for (const directory of new Set(paths.map((path) => splitPath(path).directory))) {
    for (const { name, id } of await journalsIn(directory)) {
      const recovery = await recoverJournal(directory, name, id, superseding);
      if (recovery !== undefined) recovered.push(recovery);
    }
  }
  return recovered;
}
