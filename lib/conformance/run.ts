/**
 * The conformance run over a directory: which files it holds and which of them this build knows, each read
 * (capped, strict UTF-8, through base/fs.ts) and checked, and the report of the whole.
 *
 * @module
 */

import {
  compareCodePoints,
  decodeUtf8,
  firstInvalidUtf8,
  InputError,
  IoError,
  MIB,
  readBytes,
  UnreadableFileError,
  VECTOR_CAP,
} from "../base/mod.ts";
import { VectorFormatError } from "./errors.ts";
import { checkVectorText } from "./check.ts";
import type { ConformanceOptions, ConformanceReport, FileReport } from "./report.ts";
import { VECTOR_CHECKERS } from "./vectors.ts";

/**
 * Reads a vector file of at most `capBytes` (default {@linkcode VECTOR_CAP}, 64 MiB); a larger one is a
 * {@linkcode VectorFormatError}, a missing or unreadable one an {@linkcode InputError}, each naming the path.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { readVectorFile } from "./run.ts";
 * import { VectorFormatError } from "./errors.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "{}\n");
 * strictEqual((await readVectorFile(path)).length, 3);
 * await rejects(readVectorFile(path, 2), VectorFormatError); // over the cap
 * await Deno.remove(path);
 * ```
 */
export async function readVectorFile(path: string, capBytes: number = VECTOR_CAP): Promise<Uint8Array> {
  try {
    return await readBytes(path, "vector file", capBytes);
  } catch (error) {
    // base/fs.ts's refusals, in the words (and exit code) conformance has always used.
    if (error instanceof UnreadableFileError) {
      const cap = capBytes % MIB === 0 ? `${capBytes / MIB} MiB` : `${capBytes}-byte`;
      throw new VectorFormatError(`larger than the ${cap} cap on a vector file`, { path, cause: error });
    }
    if (error instanceof IoError) {
      const reason = error.cause instanceof Error ? error.cause.message : error.reason;
      throw new InputError(`cannot read vector file: ${reason}`, { path, cause: error });
    }
    throw error;
  }
}

/**
 * A vector file's bytes as text, strictly decoded by base/fs.ts (a leading byte order mark is kept: it is not
 * JSON, so the first line then fails as such); bytes that are not UTF-8 are a {@linkcode VectorFormatError}
 * naming the file and the line.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { decodeVectorFile } from "./run.ts";
 * strictEqual(decodeVectorFile("libm.jsonl", new TextEncoder().encode("{}\n")), "{}\n");
 * throws(() => decodeVectorFile("libm.jsonl", new Uint8Array([0x7b, 0x7d, 0x0a, 0xff])), /libm\.jsonl: line 2: not valid UTF-8/);
 * ```
 */
export function decodeVectorFile(file: string, bytes: Uint8Array): string {
  let text: string;
  try {
    text = decodeUtf8(bytes, file);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    const offset = firstInvalidUtf8(bytes);
    if (offset < 0) throw new VectorFormatError(`not valid UTF-8`, { path: file, cause: error });
    const line = bytes.subarray(0, offset).reduce((count, byte) => byte === 0x0a ? count + 1 : count, 1);
    throw new VectorFormatError(`line ${line}: not valid UTF-8`, { path: file, cause: error });
  }
  return text;
}

/** The names of the regular files in a directory, symlinks followed (a dangling one is an error naming it). */
async function listFiles(directory: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(directory)) {
      if (entry.isFile) names.push(entry.name);
      else if (entry.isSymlink && await isFileBehind(`${directory}/${entry.name}`)) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    const reason = error instanceof Deno.errors.NotFound ? "not found" : (error as Error).message;
    throw new InputError(`cannot read the vector directory: ${reason}`, { path: directory, cause: error });
  }
  return names.sort(compareCodePoints);
}

async function isFileBehind(link: string): Promise<boolean> {
  try {
    return (await Deno.stat(link)).isFile;
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound ? "a dangling symlink" : (error as Error).message;
    throw new InputError(`cannot read vector file: ${reason}`, { path: link, cause: error });
  }
}

/** The files a run expects: every known one, or exactly those `only` names (each must be known). */
function expectedFiles(only: readonly string[] | undefined): string[] {
  const known = Object.keys(VECTOR_CHECKERS);
  if (only !== undefined && only.length === 0) {
    throw new InputError(`names no vector file`, { field: "--only" });
  }
  for (const name of only ?? []) {
    if (!known.includes(name)) {
      throw new InputError(`not a known vector file: ${JSON.stringify(name)} (known: ${known.join(", ")})`, {
        field: "--only",
      });
    }
  }
  return only === undefined ? known : [...new Set(only)];
}

/**
 * Checks the known vector files in a directory. Every known file must be present and hold at least one line
 * (or, with `only`, exactly the files named), and the directory must hold a vector file at all; otherwise the
 * report fails and `problems` says why. Unknown files are listed as skipped, never passed; symlinks are
 * followed; each file is read up to a 64 MiB cap and must be UTF-8.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { runConformance } from "./run.ts";
 * const directory = await Deno.makeTempDir();
 * const lines = '{"expected": "3fe6666666666666", "input": 0.7}\n{"expected": "3fe0000000000000", "input": "nan"}\n';
 * await Deno.writeTextFile(`${directory}/bounded-number.jsonl`, lines);
 * const report = await runConformance(directory, { only: ["bounded-number.jsonl"] });
 * deepStrictEqual([report.ok, report.problems], [true, []]); // 0.7 is kept, "nan" falls back to 0.5
 * strictEqual((await runConformance(directory)).ok, false); // every known file must be present
 * ```
 */
export async function runConformance(
  directory: string,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const strict = options.strict ?? false;
  // A whole number ≥ 0 from the command line: the `--tolerate-ulps` declaration's parser refuses anything else.
  const tolerateUlps = options.tolerateUlps ?? 0;
  const known = Object.keys(VECTOR_CHECKERS);
  const expected = expectedFiles(options.only);
  const present = await listFiles(directory);
  const files: FileReport[] = [];
  const problems: string[] = [];
  for (const name of present.filter((name) => expected.includes(name))) {
    const text = decodeVectorFile(name, await readVectorFile(`${directory}/${name}`));
    const report = await checkVectorText(name, text, { tolerateUlps });
    if (report.total === 0) problems.push(`${name}: empty (no vector lines)`);
    files.push(report);
  }
  const missing = expected.filter((name) => !present.includes(name));
  for (const name of missing) problems.push(`${name}: missing from ${directory}`);
  if (!present.some((name) => known.includes(name))) problems.unshift(`${directory}: holds no vector file`);
  const ok = problems.length === 0 &&
    files.every((file) => file.coreFailures === 0 && (!strict || file.exoticFailures === 0));
  return {
    files,
    skipped: present.filter((name) => !known.includes(name)),
    notSelected: present.filter((name) => known.includes(name) && !expected.includes(name)),
    missing,
    problems,
    ok,
    strict,
    tolerateUlps,
  };
}
