/**
 * Publishing at the edge: writes never overwrite, and a set of files is published all together or not at all
 * (staged beside their targets, then linked into place); every OS failure is an {@linkcode IoError} naming the
 * path and the OS's reason.
 *
 * @module
 */

import { OverwriteError } from "./errors.ts";
import { exists } from "./read.ts";
import { type FileOperationHook, osCall } from "./_os_call.ts";

/**
 * Refuses when any of the paths exists, naming the first one.
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

/** How a publish runs: by default with nothing between it and the file system. */
export interface PublishOptions {
  /** Sees each write, link, removal and directory creation before it runs; what it throws fails it. */
  readonly beforeOperation?: FileOperationHook;
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

/**
 * Publishes files at any paths all together or not at all, never overwriting: the rule of
 * {@linkcode writeAllOrNothing} for files in several directories (each is staged beside its own target).
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
  const hook = options.beforeOperation;
  await refuseExisting(files.map(([path]) => path));
  const id = crypto.randomUUID();
  const staged: string[] = [];
  const placed: string[] = [];
  try {
    for (const [target, content] of files) {
      const { directory, name } = splitPath(target);
      const staging = `${directory}/.${name}.${id}.staging`;
      staged.push(staging);
      // Named by its target: the staging name is ours, the target is what the user asked for.
      await osCall(
        "write",
        "write",
        target,
        () => Deno.writeFile(staging, contentBytes(content), { createNew: true }),
        hook,
      );
    }
    for (const [index, [target]] of files.entries()) {
      await osCall("link", "link", target, () => Deno.link(staged[index], target), hook);
      placed.push(target);
    }
    while (staged.length > 0) {
      const staging = staged[staged.length - 1];
      await osCall("remove", "remove", staging, () => Deno.remove(staging), hook);
      staged.pop();
    }
  } catch (error) {
    // Undo: what this call placed and what it staged; a path it never created is never touched.
    for (const path of [...placed, ...staged]) await Deno.remove(path).catch(() => {});
    throw error;
  }
}

const encoder = new TextEncoder();

function contentBytes(content: FileContent): Uint8Array | ReadableStream<Uint8Array> {
  if (typeof content === "string") return encoder.encode(content);
  if (content instanceof Uint8Array) return content;
  // Chunks are streamed: a sweep's rows run to tens of megabytes, too many to join into one string first.
  return ReadableStream.from(content).pipeThrough(new TextEncoderStream());
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
 * Creates a directory (and its parents) if missing; an OS failure is an {@linkcode IoError}.
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
  await osCall("mkdir", "create directory", path, mkdir, options.beforeOperation);
}
