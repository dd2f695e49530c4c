/**
 * Publishing at the edge: writes never overwrite, and a set of files is published all together or not at all
 * (staged beside their targets, then linked into place) — also when a signal comes: SIGINT or SIGTERM during a
 * publish undo it before the program ends, and what a SIGKILL left is settled by the next publish into the same
 * directory (`journal.ts`). Every OS failure is an {@linkcode IoError} naming the path and the OS's reason.
 *
 * @module
 */

import { InterruptedError, OverwriteError } from "./errors.ts";
import { ContentDigest } from "./hash.ts";
import { exists } from "./read.ts";
import { type FileOperationHook, osCall } from "./_os_call.ts";
import {
  beginJournal,
  recoverInterruptedPublishes,
  refuseLinkedDirectory,
  splitPath,
  type StagedFile,
} from "./journal.ts";
import { holdSignals, type PublishSignal, type SignalGuard } from "./_signal_guard.ts";

export type { PublishSignal };

/**
 * Refuses when any of the paths exists, naming the first one, or when a directory of theirs is a symbolic link.
 * What a killed publish left in their directories is settled first (a rerun of the same command clears it), so
 * a leftover of a dead run is never in the way; a journal that cannot be proved this user's publish's is left
 * as it is, said once through `options.warn`.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { OverwriteError } from "./errors.ts";
 * import { refuseExisting } from "./publish.ts";
 * await refuseExisting(["/definitely/not/here"]); // nothing there: fine
 * const path = await Deno.makeTempFile();
 * await rejects(refuseExisting(["/definitely/not/here", path]), OverwriteError);
 * await Deno.remove(path);
 * ```
 */
export async function refuseExisting(paths: readonly string[], options: PublishOptions = {}): Promise<void> {
  for (const directory of new Set(paths.map((path) => splitPath(path).directory))) {
    await refuseLinkedDirectory(directory);
  }
  await settleJournals(paths, options);
  for (const path of paths) {
    if (await exists(path)) throw new OverwriteError("refusing to overwrite an existing file", { path });
  }
}

/**
 * Settles what killed publishes left in the directories of `paths`, superseded by a publish of those paths, and
 * in the directories `alsoIn`, which no publish supersedes (see `journal.ts`); a journal refused is named
 * through `options.warn`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { settleJournals } from "./publish.ts";
 * const directory = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${directory}/.publish.${crypto.randomUUID()}.journal`, "not one of ours\n");
 * const warnings: string[] = [];
 * await settleJournals([`${directory}/a.json`], { warn: (line) => warnings.push(line) });
 * deepStrictEqual(warnings.length, 1);
 * ```
 */
export async function settleJournals(
  paths: readonly string[],
  options: PublishOptions = {},
  alsoIn: readonly string[] = [],
): Promise<void> {
  for (const recovery of await recoverInterruptedPublishes(paths, alsoIn)) {
    if (recovery.outcome === "refused") {
      options.warn?.(
        `${recovery.journal}: a publish journal left as it is, nothing it names touched: ${recovery.reason}`,
      );
    }
  }
}

/** How a publish runs: by default with nothing between it and the file system. */
export interface PublishOptions {
  /** Sees each write, link, removal and directory creation before it runs; what it throws fails it. */
  readonly beforeOperation?: FileOperationHook;
  /**
   * The signals that, arriving during the publish, undo it and then end the command (130 for SIGINT, 143 for
   * SIGTERM); default both. A caller with its own handler for one (run-qa's Ctrl-C) leaves it out.
   */
  readonly signals?: readonly PublishSignal[];
  /** Told (one line each) of a journal found that is not provably this user's publish's, left as it is. */
  readonly warn?: (line: string) => void;
}

/** What a file is written from: text, bytes, or text chunks streamed to the file in order. */
export type FileContent = string | Uint8Array | Iterable<string>;

/**
 * Publishes a set of files in one directory all together or not at all, never overwriting. Each file is first
 * written in full under a staging name beside its target (`.NAME.UUID.staging`), then each is linked into place
 * (a link refuses an existing name, so the no-overwrite check and the publish are one step), then the staging
 * names are removed. On any failure, and on SIGINT or SIGTERM, every file it placed and every staging file is
 * removed, so the directory is as before and a rerun just works. An existing target is an
 * {@linkcode OverwriteError}; an OS failure an {@linkcode IoError}; a signal an {@linkcode InterruptedError}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { writeAllOrNothing } from "./publish.ts";
 * const directory = await Deno.makeTempDir();
 * await writeAllOrNothing(directory, { "a.json": "{}\n", "b.json": "[]\n" });
 * strictEqual(await Deno.readTextFile(`${directory}/b.json`), "[]\n");
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function writeAllOrNothing(
  directory: string,
  files: Readonly<Record<string, FileContent>>,
  options: PublishOptions = {},
): Promise<void> {
  const names = Object.keys(files);
  for (const name of names) {
    if (name === "" || name.includes("/") || name === "." || name === "..") {
      throw new RangeError(`not a file name: ${JSON.stringify(name)}`);
    }
  }
  await publishFiles(names.map((name) => [`${directory}/${name}`, files[name]]), options);
}

/** What a publish has done so far: what it must remove to undo it. */
interface Progress {
  staged: string[];
  placed: string[];
  journal?: Awaited<ReturnType<typeof beginJournal>>;
}

/**
 * Publishes files at any paths all together or not at all, never overwriting: the rule of
 * {@linkcode writeAllOrNothing} for files in several directories (each is staged beside its own target). A
 * journal beside the first target names them all until the publish has finished or been undone, so a publish a
 * SIGKILL stopped is settled by the next one into any of those directories.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { publishFiles } from "./publish.ts";
 * const directory = await Deno.makeTempDir();
 * await publishFiles([[`${directory}/a.md`, "# a\n"], [`${directory}/b.html`, "<p>b</p>\n"]]);
 * strictEqual(await Deno.readTextFile(`${directory}/b.html`), "<p>b</p>\n");
 * ```
 */
export async function publishFiles(
  files: readonly (readonly [path: string, content: FileContent])[],
  options: PublishOptions = {},
): Promise<void> {
  const targets = files.map(([path]) => path);
  await refuseExisting(targets, options);
  if (files.length === 0) return;
  const progress: Progress = { staged: [], placed: [] };
  const guard = holdSignals(options.signals ?? ["SIGINT", "SIGTERM"], targets, () => undoSync(progress));
  try {
    await publishSteps(files, progress, guard, options.beforeOperation);
  } catch (error) {
    await undo(progress);
    throw error;
  } finally {
    guard.release();
  }
  // The signal came after the last check: too late to undo, the files are complete.
  if (guard.received !== undefined) throw new InterruptedError(guard.received, targets, true);
}

async function publishSteps(
  files: readonly (readonly [path: string, content: FileContent])[],
  progress: Progress,
  guard: SignalGuard,
  hook: FileOperationHook | undefined,
): Promise<void> {
  const journal = progress.journal = await beginJournal(files.map(([path]) => path));
  const identities: StagedFile[] = [];
  for (const [index, [target, content]] of files.entries()) {
    guard.check();
    const staging = journal.staging[index];
    progress.staged.push(staging);
    // Named by its target: the staging name is ours, the target is what the user asked for.
    identities.push(
      await osCall("write", "write", target, () => writeStaging(staging, content, guard), hook),
    );
  }
  guard.check();
  await journal.recordStaged(identities);
  for (const [index, [target]] of files.entries()) {
    guard.check();
    await osCall("link", "link", target, () => Deno.link(journal.staging[index], target), hook);
    progress.placed.push(target);
  }
  while (progress.staged.length > 0) {
    const staging = progress.staged[progress.staged.length - 1];
    await osCall("remove", "remove", staging, () => Deno.remove(staging), hook);
    progress.staged.pop();
  }
  // One turn of the event loop: a signal that came during the file operations reaches its listener here. From
  // the check to the end of the hold nothing awaits, so no signal can be taken in and then dropped unseen.
  await new Promise((resolve) => setTimeout(resolve, 0));
  guard.check();
  journal.remove();
  progress.journal = undefined;
}

/** Undoes a publish: what it placed and what it staged; a path it never created is never touched. */
async function undo(progress: Progress): Promise<void> {
  let complete = true;
  for (const path of [...progress.placed, ...progress.staged]) {
    await Deno.remove(path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) complete = false;
    });
  }
  // What could not be removed stays named in the journal: the next publish here clears it.
  if (complete) removeJournal(progress);
  else progress.journal?.abandon();
}

function removeJournal(progress: Progress): void {
  try {
    progress.journal?.remove();
  } catch {
    // Left for the next run, which settles it.
  }
}

function undoSync(progress: Progress): void {
  for (const path of [...progress.placed, ...progress.staged]) {
    try {
      Deno.removeSync(path);
    } catch {
      // Named in the journal, which the next run settles.
    }
  }
  removeJournal(progress);
}

const encoder = new TextEncoder();
/** Streamed text is written in pieces of about this many characters. */
const PIECE = 1 << 20;

function* pieces(content: FileContent): Iterable<Uint8Array> {
  if (typeof content === "string") yield encoder.encode(content);
  else if (content instanceof Uint8Array) yield content;
  else {
    // Chunks are streamed: a sweep's rows run to tens of megabytes, too many to join into one string first.
    let buffer: string[] = [];
    let length = 0;
    for (const chunk of content) {
      buffer.push(chunk);
      length += chunk.length;
      if (length >= PIECE) {
        yield encoder.encode(buffer.join(""));
        [buffer, length] = [[], 0];
      }
    }
    if (length > 0) yield encoder.encode(buffer.join(""));
  }
}

/** Writes a staging file in full and fsyncs it (the journal then calls it staged); a signal stops it. */
async function writeStaging(path: string, content: FileContent, guard: SignalGuard): Promise<StagedFile> {
  const file = await Deno.open(path, { createNew: true, write: true });
  try {
    const digest = new ContentDigest();
    for (const bytes of pieces(content)) {
      guard.check();
      for (let offset = 0; offset < bytes.length;) offset += await file.write(bytes.subarray(offset));
      await digest.update(bytes);
    }
    await file.sync();
    const { dev, ino, size } = await file.stat();
    return { dev, ino: ino ?? -1, size, digest: await digest.hex() };
  } finally {
    file.close();
  }
}

/**
 * Writes one file atomically and never overwrites: {@linkcode writeAllOrNothing} with a single file.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { writeFileAtomic } from "./publish.ts";
 * const directory = await Deno.makeTempDir();
 * await writeFileAtomic(`${directory}/summary.json`, "{}\n");
 * strictEqual(await Deno.readTextFile(`${directory}/summary.json`), "{}\n");
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  options: PublishOptions = {},
): Promise<void> {
  const { directory, name } = splitPath(path);
  await writeAllOrNothing(directory, { [name]: content }, options);
}

/**
 * Moves a file aside into `asideDirectory` under `asideName` without ever replacing anything: a link (which
 * refuses an existing name, where a rename would replace it), then removal of the original. If the removal
 * fails, the new link is removed again, so the file is either moved or left where it was.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { exists } from "./read.ts";
 * import { moveAside } from "./publish.ts";
 * const directory = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${directory}/x.json`, "{}\n");
 * await moveAside(`${directory}/x.json`, `${directory}/superseded`, "x.1700000000000.json");
 * strictEqual(await exists(`${directory}/x.json`), false);
 * strictEqual(await Deno.readTextFile(`${directory}/superseded/x.1700000000000.json`), "{}\n");
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function moveAside(
  path: string,
  asideDirectory: string,
  asideName: string,
  options: PublishOptions = {},
): Promise<void> {
  const hook = options.beforeOperation;
  await ensureDir(asideDirectory, options);
  const target = `${asideDirectory}/${asideName}`;
  await osCall("link", "link", target, () => Deno.link(path, target), hook);
  try {
    await osCall("remove", "remove", path, () => Deno.remove(path), hook);
  } catch (error) {
    await Deno.remove(target).catch(() => {});
    throw error;
  }
}

/**
 * Creates a directory (and its parents) if missing; a symbolic link there is an `InputError` (output
 * goes only into real directories), an OS failure an {@linkcode IoError}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ensureDir } from "./publish.ts";
 * const directory = await Deno.makeTempDir();
 * await ensureDir(`${directory}/out/responses`);
 * await ensureDir(`${directory}/out/responses`); // already there: fine
 * strictEqual((await Deno.stat(`${directory}/out/responses`)).isDirectory, true);
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function ensureDir(path: string, options: PublishOptions = {}): Promise<void> {
  const mkdir = () => Deno.mkdir(path, { recursive: true });
  await refuseLinkedDirectory(path);
  await osCall("mkdir", "create directory", path, mkdir, options.beforeOperation);
}
