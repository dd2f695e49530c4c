/**
 * The journal of a publish in progress, and the one rule for what the next run does with a journal a killed
 * publish left behind.
 *
 * A publish writes `.publish.ID.journal` in each directory it writes into before anything else (ID a random
 * UUID; the journal names that directory's targets by name only, and the directory by its device and inode),
 * holds an exclusive `flock` on it while it runs (the kernel drops it the moment the process dies, which is how
 * a journal left by a dead publish is told from a live one), appends what each staging file `.NAME.ID.staging`
 * holds (device, inode, size, content digest) once all are written in full and fsync'd, fsyncs it — before the
 * first link — and removes it when it has finished or been undone.
 *
 * The next publish into that directory settles a dead journal, but only one it can prove is its own: a regular
 * file of this user, of this version, written in this very directory, naming plain file names, whose staging
 * files are regular files of this user holding exactly what it recorded. Anything else is refused — left as
 * it is, nothing it names touched, said in one line. A proven journal is superseded by a publish of any of the
 * same targets (the same command run again: cleared), else completed (the missing links made) when every file
 * was staged, else cleared. Clearing removes the staging files and only those targets that are still a link
 * of their staging file (same device and inode, so the content just hashed): a file at a target that this
 * publish did not create is never touched. Nothing is ever followed through a symbolic link. Then the journal
 * goes.
 *
 * @module
 */

import { InputError, IoError, isOsError } from "./errors.ts";
import { ContentDigest } from "./hash.ts";
import {
  type DirectoryIdentity,
  intentLine,
  JOURNAL_NAME,
  journalName,
  type JournalRecord,
  parseJournal,
  type StagedFile,
  stagedLine,
  stagingName,
} from "./_journal_format.ts";

export type { StagedFile };

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
  return `${directory}/${stagingName(name, id)}`;
}

/**
 * Refuses (an {@linkcode InputError} naming it, exit 2) a directory the program would write into that is a
 * symbolic link: output goes only into real directories. A missing one is left for the write to report.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { InputError } from "./errors.ts";
 * import { refuseLinkedDirectory } from "./journal.ts";
 * const directory = await Deno.makeTempDir();
 * await Deno.symlink(directory, `${directory}/link`);
 * await refuseLinkedDirectory(directory); // a real directory: fine
 * await rejects(refuseLinkedDirectory(`${directory}/link`), InputError);
 * ```
 */
export async function refuseLinkedDirectory(path: string): Promise<void> {
  const info = await lstatOrNull(path);
  if (info?.isSymlink) {
    throw new InputError(
      "is a symbolic link, not a directory: output is written only into real directories",
      {
        path,
      },
    );
  }
}

/** Far above any journal this tool writes (a line per target): anything larger is not one of ours. */
const JOURNAL_CAP = 1 << 20;
/** New journals taken for dead ones by a concurrent recovery before giving up (each race takes microseconds). */
const ATTEMPTS = 8;

/** The journal of one publish in progress; only the process that began it holds its locks. */
export interface PublishJournal {
  /** The publish's id, in its journals' and its staging files' names. */
  readonly id: string;
  /** Its journal files, one per directory it writes into. */
  readonly paths: readonly string[];
  /** The staging path of each target, in the targets' order. */
  readonly staging: readonly string[];
  /** Records (fsync'd) that every staging file is written in full, and what each holds: call before linking. */
  recordStaged(files: readonly StagedFile[]): Promise<void>;
  /**
   * Removes the journals: the publish has finished or been undone. Synchronous, so that nothing runs between a
   * publish's last look for a signal and the end of its hold on signals.
   */
  remove(): void;
  /** Drops the locks and leaves the journals for the next run to settle, as a killed process does. */
  abandon(): void;
}

const encoder = new TextEncoder();

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.length;) offset += await file.write(bytes.subarray(offset));
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new IoError("inspect", path, error);
  }
}

const sameFile = (a: Deno.FileInfo, b: { dev: number; ino: number | null }) =>
  a.ino !== null && a.dev === b.dev && a.ino === b.ino;

/** Whether `path` still names the file open as `file` (a recovery may have removed it meanwhile). */
async function stillAt(file: Deno.FsFile, path: string): Promise<boolean> {
  try {
    return sameFile(await Deno.lstat(path), await file.stat());
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

/** A directory's device and inode, read without following a link (a link is refused before any publish). */
async function directoryIdentity(directory: string): Promise<DirectoryIdentity | null> {
  const info = await lstatOrNull(directory);
  return info !== null && info.isDirectory && info.ino !== null ? { dev: info.dev, ino: info.ino } : null;
}

/** The targets of one directory of a publish: their indexes among all targets, and their names. */
interface Part {
  directory: string;
  indexes: number[];
  names: string[];
}

function partsOf(targets: readonly string[]): Part[] {
  const parts = new Map<string, Part>();
  for (const [index, target] of targets.entries()) {
    const { directory, name } = splitPath(target);
    const part = parts.get(directory) ?? { directory, indexes: [], names: [] };
    part.indexes.push(index);
    part.names.push(name);
    parts.set(directory, part);
  }
  return [...parts.values()];
}

/** One journal file per part, created under `id` and locked; `undefined` when a recovery took one meanwhile. */
async function createJournals(parts: readonly Part[], id: string): Promise<Deno.FsFile[] | undefined> {
  const files: Deno.FsFile[] = [];
  const giveUp = async () => {
    for (const [index, file] of files.entries()) {
      const path = `${parts[index].directory}/${journalName(id)}`;
      if (await stillAt(file, path)) await Deno.remove(path).catch(() => {});
      file.close();
    }
    return undefined;
  };
  for (const part of parts) {
    const path = `${part.directory}/${journalName(id)}`;
    let file: Deno.FsFile;
    try {
      // Opened first: a missing directory fails here with the system's own reason.
      file = await Deno.open(path, { createNew: true, read: true, write: true });
    } catch (error) {
      await giveUp(); // the journals already made in the other directories go too
      throw error;
    }
    files.push(file);
    const identity = await directoryIdentity(part.directory);
    if (identity === null) {
      await giveUp();
      throw new IoError("write", `${part.directory}/${part.names[0]}`, new Error("not a real directory"));
    }
    // A recovery that found it before the lock took it for a dead one: begin again under another id.
    if (await tryLock(file) === false || !await stillAt(file, path)) return await giveUp();
    // Not fsync'd yet: recordStaged's fsync makes both lines durable before the first link.
    await writeAll(file, encoder.encode(intentLine(id, identity, part.names)));
  }
  return files;
}

/**
 * Begins the journals of a publish of `targets` (written before any staging file); an OS failure is
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
  const parts = partsOf(targets);
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const id = crypto.randomUUID();
      const files = await createJournals(parts, id);
      if (files !== undefined) return openJournal(files, parts, id, targets);
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
  files: readonly Deno.FsFile[],
  parts: readonly Part[],
  id: string,
  targets: readonly string[],
): PublishJournal {
  const paths = parts.map((part) => `${part.directory}/${journalName(id)}`);
  let open = true;
  const close = () => {
    if (open) { for (const file of files) file.close(); }
    open = false;
  };
  return {
    id,
    paths,
    staging: targets.map((target) => stagingPath(target, id)),
    recordStaged: async (staged) => {
      try {
        for (const [index, part] of parts.entries()) {
          await writeAll(files[index], encoder.encode(stagedLine(part.indexes.map((at) => staged[at]))));
          await files[index].sync();
        }
      } catch (error) {
        if (!isOsError(error)) throw error;
        throw new IoError("write", targets[0], error);
      }
    },
    remove: () => {
      try {
        for (const path of paths) Deno.removeSync(path);
      } catch (error) {
        if (!isOsError(error)) throw error;
        throw new IoError("remove", paths[0], error);
      } finally {
        close();
      }
    },
    abandon: close,
  };
}

/** What the next run did with a journal a dead publish left. */
export interface Recovery {
  /** The journal file (removed, unless refused). */
  journal: string;
  /**
   * `completed`: every file linked into place; `cleared`: everything it staged and placed removed; `refused`:
   * not provably a journal of this user's publish here, so left as it is with everything it names.
   */
  outcome: "completed" | "cleared" | "refused";
  /** Why it was refused. */
  reason?: string;
}

/** A settled journal's outcome, or why it cannot be proved one's own. */
type Settled = Recovery["outcome"] | { refused: string };

async function removeIfPresent(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new IoError("remove", path, error);
  }
}

/** The content digest of the file at `path`, read only if it is still the file `expected` names. */
async function digestOf(path: string, expected: Deno.FileInfo): Promise<string | undefined> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return undefined;
  }
  try {
    if (!sameFile(await file.stat(), expected)) return undefined;
    const digest = new ContentDigest();
    const buffer = new Uint8Array(1 << 20);
    for (let read = await file.read(buffer); read !== null; read = await file.read(buffer)) {
      await digest.update(buffer.subarray(0, read));
    }
    return await digest.hex();
  } finally {
    file.close();
  }
}

/** One target of a journal with its staging file, as the journal records it and as found now. */
interface Entry {
  name: string;
  target: string;
  staging: string;
  staged?: StagedFile;
  found: Deno.FileInfo | null;
}

/** Why the staging files found are not what the journal says the publish wrote, if they are not. */
async function disowned(
  entries: readonly Entry[],
  staged: boolean,
  uid: number,
): Promise<string | undefined> {
  for (const entry of entries) {
    const found = entry.found;
    if (found === null) continue;
    const name = stagingName(entry.name, "…");
    if (!found.isFile) return `its staging file for ${entry.name} is not a regular file`;
    if (found.uid !== uid) return `its staging file for ${entry.name} belongs to uid ${found.uid}`;
    if (!staged) {
      if (found.nlink !== null && found.nlink > 1) {
        return `${name} has another name: it is not one being staged`;
      }
      continue;
    }
    const record = entry.staged!;
    if (!sameFile(found, record) || found.size !== record.size) {
      return `its staging file for ${entry.name} is not the file it recorded`;
    }
    if (await digestOf(entry.staging, found) !== record.digest) {
      return `its staging file for ${entry.name} does not hold what it recorded`;
    }
  }
  return undefined;
}

/** Settles one proven journal's files: completes or clears them as the module's rule says. */
async function settle(
  directory: string,
  record: JournalRecord,
  id: string,
  superseded: boolean,
  uid: number,
): Promise<Settled> {
  const entries: Entry[] = await Promise.all(record.targets.map(async (name, index) => {
    const staging = `${directory}/${stagingName(name, id)}`;
    return {
      name,
      target: `${directory}/${name}`,
      staging,
      staged: record.staged?.[index],
      found: await lstatOrNull(staging),
    };
  }));
  const reason = await disowned(entries, record.staged !== null, uid);
  if (reason !== undefined) return { refused: reason };
  const removeStaging = async () => {
    for (const entry of entries) if (entry.found !== null) await removeIfPresent(entry.staging);
  };
  // Not every file staged: nothing was linked. A staging name gone: the publish had made every link.
  if (record.staged === null || entries.some((entry) => entry.found === null)) {
    await removeStaging();
    return record.staged === null ? "cleared" : "completed";
  }
  const ours = (entry: Entry, info: Deno.FileInfo | null) =>
    info !== null && info.isFile && sameFile(info, entry.staged!);
  const targets = await Promise.all(entries.map((entry) => lstatOrNull(entry.target)));
  if (!superseded && targets.every((info, index) => info === null || ours(entries[index], info))) {
    if (await linkMissing(entries.filter((_, index) => targets[index] === null))) {
      await removeStaging();
      return "completed";
    }
  }
  // Cleared: a target is removed only while it is still a link of the staging file just verified.
  for (const entry of entries) {
    if (ours(entry, await lstatOrNull(entry.target))) await removeIfPresent(entry.target);
  }
  await removeStaging();
  return "cleared";
}

/** Links each staged file into its target; `false` when one could not be. */
async function linkMissing(entries: readonly Entry[]): Promise<boolean> {
  for (const entry of entries) {
    try {
      await Deno.link(entry.staging, entry.target);
    } catch {
      return false;
    }
  }
  return true;
}

async function readJournal(file: Deno.FsFile, size: number): Promise<string | undefined> {
  if (size > JOURNAL_CAP) return undefined;
  const bytes = new Uint8Array(size);
  let offset = 0;
  while (offset < size) {
    const read = await file.read(bytes.subarray(offset));
    if (read === null) break;
    offset += read;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, offset));
  } catch {
    return undefined;
  }
}

/** Why a journal's file itself is not one this user's publish wrote, if it is not. */
function foreignFile(info: Deno.FileInfo, uid: number): string | undefined {
  if (!info.isFile) return "it is not a regular file";
  if (info.uid !== uid) return `it belongs to uid ${info.uid}, not to this user`;
  return undefined;
}

let knownUid: number | undefined;

/**
 * This process's user id, as the owner of a file it creates (`Deno.uid()` needs a permission the commands are
 * not given): learnt once, from an empty journal made and removed in `directory`; `undefined` when it cannot
 * create one there (then nothing there could be removed either).
 */
async function ownUid(directory: string): Promise<number | undefined> {
  if (knownUid !== undefined) return knownUid;
  const path = `${directory}/${journalName(crypto.randomUUID())}`;
  try {
    const file = await Deno.open(path, { createNew: true, write: true });
    try {
      knownUid = (await file.stat()).uid ?? undefined;
    } finally {
      file.close();
      await Deno.remove(path).catch(() => {});
    }
  } catch {
    return undefined;
  }
  return knownUid;
}

async function recoverJournal(
  directory: string,
  identity: DirectoryIdentity,
  name: string,
  id: string,
  superseding: ReadonlySet<string>,
  uid: number,
): Promise<Recovery | undefined> {
  const path = `${directory}/${name}`;
  const refused = (reason: string): Recovery => ({ journal: path, outcome: "refused", reason });
  const info = await lstatOrNull(path);
  if (info === null) return undefined;
  const foreign = foreignFile(info, uid);
  if (foreign !== undefined) return refused(foreign);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return undefined; // gone meanwhile
  }
  try {
    // Locked: its publish is still running (here or in another process). Unlockable here: it cannot be told.
    if (await tryLock(file) !== true || !await stillAt(file, path)) return undefined;
    const text = await readJournal(file, (await file.stat()).size);
    const record = text === undefined
      ? { refused: "it is not UTF-8 text within 1 MiB" }
      : parseJournal(text, id, identity);
    if (typeof record === "object" && "refused" in record) return refused(record.refused);
    const superseded = record !== "empty" &&
      record.targets.some((target) => superseding.has(fileKey(identity, target)));
    const outcome = record === "empty" ? "cleared" : await settle(directory, record, id, superseded, uid);
    if (typeof outcome === "object") return refused(outcome.refused);
    await removeIfPresent(path);
    return { journal: path, outcome };
  } finally {
    file.close();
  }
}

const fileKey = (directory: DirectoryIdentity, name: string) => `${directory.dev}:${directory.ino}/${name}`;

async function journalsIn(directory: string): Promise<{ name: string; id: string }[]> {
  const found: { name: string; id: string }[] = [];
  try {
    for await (const entry of Deno.readDir(directory)) {
      const match = JOURNAL_NAME.exec(entry.name);
      if (match !== null && !entry.isDirectory) found.push({ name: entry.name, id: match[1] });
    }
  } catch {
    // An unlistable directory holds no journal we can settle; the publish itself reports what is wrong.
  }
  return found.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * Settles every journal a dead publish left in the directories of `paths` (the targets of the publish about to
 * run) and in the directories `alsoIn` (where no publish supersedes any), each only if it proves to be this user's publish's, written there: superseded by this publish when it
 * names any of the same targets (cleared), otherwise completed when every file was staged, else cleared. A
 * journal of a publish still running is left alone; one that is not provably ours is left as it is, reported
 * as `refused`. A failure to remove something is an {@linkcode IoError} naming it (the journal stays).
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
export async function recoverInterruptedPublishes(
  paths: readonly string[],
  alsoIn: readonly string[] = [],
): Promise<Recovery[]> {
  const directories = new Map<string, DirectoryIdentity | null>();
  for (const directory of [...paths.map((path) => splitPath(path).directory), ...alsoIn]) {
    if (!directories.has(directory)) directories.set(directory, await directoryIdentity(directory));
  }
  const superseding = new Set<string>();
  for (const path of paths) {
    const { directory, name } = splitPath(path);
    const identity = directories.get(directory);
    if (identity) superseding.add(fileKey(identity, name));
  }
  const recovered: Recovery[] = [];
  for (const [directory, identity] of directories) {
    if (identity === null) continue;
    const journals = await journalsIn(directory);
    const uid = journals.length === 0 ? undefined : await ownUid(directory);
    if (uid === undefined) continue;
    for (const { name, id } of journals) {
      const recovery = await recoverJournal(directory, identity, name, id, superseding, uid);
      if (recovery !== undefined) recovered.push(recovery);
    }
  }
  return recovered;
}
