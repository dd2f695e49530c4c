/**
 * What the next run does with a journal a killed publish left (the rule is `journal.ts`'s): settle it only if
 * it proves to be this user's publish's, written in that directory; else leave it, and say why.
 *
 * @module
 */

import { IoError } from "./os_errors.ts";
import { ContentDigest } from "./hash.ts";
import {
  type DirectoryIdentity,
  JOURNAL_NAME,
  journalName,
  type JournalRecord,
  parseJournal,
  type StagedFile,
  stagingName,
} from "./_journal_format.ts";
import { directoryIdentity, lstatOrNull, sameFile, splitPath, stillAt } from "./_journal_fs.ts";
import { tryFlock } from "./lock.ts";
import { decodeStrictUtf8 } from "./utf8.ts";
import { JOURNAL_CAP } from "./read.ts";

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
    if (!found.isFile) return `its staging file for ${entry.name} is not a regular file`;
    if (found.uid !== uid) return `its staging file for ${entry.name} belongs to uid ${found.uid}`;
    if (!staged) {
      if (found.nlink !== null && found.nlink > 1) {
        return `its staging file for ${entry.name} has another name: it is not one being written`;
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
  // Not every file staged: nothing was linked. A staging name gone: the publish had made every link (or its undo
  // had removed every target it placed); either way no target is touched.
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
    return decodeStrictUtf8(bytes.subarray(0, offset));
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
    if (await tryFlock(file) !== true || !await stillAt(file, path)) return undefined;
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
