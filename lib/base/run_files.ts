/**
 * A run directory's files as one command sees them: each read at most once (through its cap, its type checked,
 * strictly decoded, as `read.ts` reads) and held, so every check and every renderer that asks for a file gets the
 * same bytes. A verdict is computed from the bytes that are shown, whatever happens to the file after its read.
 *
 * @module
 */

import { INPUT_CAP, readBytesIfExists } from "./read.ts";
import { decodeUtf8 } from "./utf8.ts";

/**
 * The files of one directory, each read once and held (a missing file is `undefined`, every time; a failed read
 * fails the same way every time, without a second open).
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { RunFiles } from "./run_files.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/qa_run.json`, "{}\n");
 * const files = new RunFiles(dir);
 * strictEqual(await files.text("qa_run.json", "run marker"), "{}\n");
 * await Deno.writeTextFile(`${dir}/qa_run.json`, "[]\n"); // changed after the read: not seen
 * strictEqual(await files.text("qa_run.json", "run marker"), "{}\n");
 * deepStrictEqual(await files.bytes("absent.json"), undefined);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class RunFiles {
  readonly #held = new Map<string, { cap: number; bytes: Promise<Uint8Array | undefined> }>();

  /** @param directory The run directory the names are in. */
  constructor(readonly directory: string) {}

  /** The path of `name` in the directory. */
  path(name: string): string {
    return `${this.directory}/${name}`;
  }

  /** The file's bytes (read through `cap` the first time, held after), or `undefined` when there is none. */
  bytes(name: string, what = "file", cap: number = INPUT_CAP): Promise<Uint8Array | undefined> {
    const held = this.#held.get(name);
    if (held !== undefined) {
      // One file, one cap: two would make the verdict depend on which reader came first.
      if (held.cap !== cap) throw new RangeError(`${this.path(name)} asked for through two caps`);
      return held.bytes;
    }
    const bytes = readBytesIfExists(this.path(name), what, cap);
    this.#held.set(name, { cap, bytes });
    return bytes;
  }

  /** The file's text (strict UTF-8, from the held bytes), or `undefined` when there is none. */
  async text(name: string, what = "file", cap: number = INPUT_CAP): Promise<string | undefined> {
    const bytes = await this.bytes(name, what, cap);
    return bytes === undefined ? undefined : decodeUtf8(bytes, this.path(name));
  }
}

/** `source` as held files: a directory's own, or the ones already held. */
export function runFilesOf(source: string | RunFiles): RunFiles {
  return typeof source === "string" ? new RunFiles(source) : source;
}
