/**
 * The publish journal's format, the one place it is spelled: its name and staging names, its two lines, and
 * the reading that accepts only what a publish of this program could have written there.
 *
 * ```text
 * DIR/.publish.ID.journal          line 1: {"journal":"deermem-eval publish","version":2,"id":ID,
 *                                           "directory":{"dev":…,"ino":…},"targets":["NAME",…]}
 *                                  line 2: {"staged":[{"dev":…,"ino":…,"size":…,"digest":HEX},…]}
 * DIR/.NAME.ID.staging             one per target, ID the journal's random id
 * ```
 *
 * @module
 */

/** What ties a journal's entry to the file the publish wrote: where it is on disk and what it holds. */
export interface StagedFile {
  /** The device and inode of the staging file (the target is linked to the same inode). */
  readonly dev: number;
  readonly ino: number;
  /** Its size in bytes. */
  readonly size: number;
  /** Its content digest (`ContentDigest` in hash.ts). */
  readonly digest: string;
}

/** A directory's identity: a journal is valid only in the directory it was written in. */
export interface DirectoryIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** A journal as read: its own directory's targets by name, and what was staged (`null`: not every file yet). */
export interface JournalRecord {
  readonly targets: readonly string[];
  readonly staged: readonly StagedFile[] | null;
}

const ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** A journal's file name; its id is a random UUID, which also names its staging files. */
export const JOURNAL_NAME: RegExp = new RegExp(`^\\.publish\\.(${ID})\\.journal$`);
const MARK = "deermem-eval publish";
const VERSION = 2;

/** A journal's name for the publish `id`. */
export function journalName(id: string): string {
  return `.publish.${id}.journal`;
}

/** Where the publish `id` stages the target `name`, in the same directory. */
export function stagingName(name: string, id: string): string {
  return `.${name}.${id}.staging`;
}

/** Whether `name` is one a publish could have chosen for a target: a plain name in its directory. */
export function isTargetName(name: unknown): name is string {
  return typeof name === "string" && name !== "" && name !== "." && name !== ".." && !name.includes("/") &&
    !name.includes("\0") && name.length <= 255;
}

/** The journal's first line: written before any staging file. */
export function intentLine(id: string, directory: DirectoryIdentity, targets: readonly string[]): string {
  const identity = { dev: directory.dev, ino: directory.ino };
  return `${JSON.stringify({ journal: MARK, version: VERSION, id, directory: identity, targets })}\n`;
}

/** The journal's second line: every staging file written in full, fsync'd, and what each holds. */
export function stagedLine(files: readonly StagedFile[]): string {
  const staged = files.map(({ dev, ino, size, digest }) => ({ dev, ino, size, digest }));
  return `${JSON.stringify({ staged })}\n`;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function isStagedFile(value: unknown): value is StagedFile {
  const item = value as StagedFile | null;
  return typeof item === "object" && item !== null && isCount(item.dev) && isCount(item.ino) &&
    isCount(item.size) && typeof item.digest === "string" && /^[0-9a-f]{64}$/.test(item.digest);
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a journal's text (named for `id`, found in the directory `directory`): its record, `"empty"` for a
 * journal killed before its first line was written, or why it is not one this program wrote there.
 */
export function parseJournal(
  text: string,
  id: string,
  directory: DirectoryIdentity,
): JournalRecord | "empty" | { refused: string } {
  if (text === "") return "empty";
  const lines = text.split("\n");
  if (lines.length < 2) return { refused: "its first line is incomplete" };
  if (lines.length > 3 || (lines.length === 3 && lines[2] !== "")) {
    return { refused: "it has more lines than a publish writes" };
  }
  const intent = parseLine(lines[0]);
  if (intent?.journal !== MARK || intent.version !== VERSION || intent.id !== id) {
    return { refused: "it is not a publish journal of this version with the id of its name" };
  }
  const at = intent.directory as DirectoryIdentity | undefined;
  if (typeof at !== "object" || at === null || at.dev !== directory.dev || at.ino !== directory.ino) {
    return { refused: "it was written in another directory" };
  }
  const targets = intent.targets;
  if (!Array.isArray(targets) || targets.length === 0 || !targets.every(isTargetName)) {
    return { refused: "it names a file outside its directory" };
  }
  if (new Set(targets).size !== targets.length) return { refused: "it names a file twice" };
  // Two complete lines: staged. A second line torn while appended: not every file is known to be staged.
  if (lines.length < 3) return { targets, staged: null };
  const staged = parseLine(lines[1])?.staged;
  if (!Array.isArray(staged) || staged.length !== targets.length || !staged.every(isStagedFile)) {
    return { refused: "its record of the staged files is malformed" };
  }
  return { targets, staged };
}
