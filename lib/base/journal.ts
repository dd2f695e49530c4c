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

import { InputError } from "./errors.ts";
import { IoError, isOsError } from "./os_errors.ts";
import { intentLine, journalName, type StagedFile, stagedLine, stagingName } from "./_journal_format.ts";
import { directoryIdentity, lstatOrNull, splitPath, stillAt } from "./_journal_fs.ts";
import { tryFlock } from "./lock.ts";

export type { StagedFile };
export { splitPath };
export { recoverInterruptedPublishes, type Recovery } from "./_journal_recovery.ts";

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
    if (await tryFlock(file) === false || !await stillAt(file, path)) return await giveUp();
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
