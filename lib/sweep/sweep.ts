/**
 * `sweep`: `hybrid-v1` over a grid of its parameters — weights on the simplex, both half-lives, the correction
 * reserve fraction and cap — at every capacity, against `confidence`, on the protocol's cases. Support retention
 * needs no model, so the grid is cheap; what costs is the production selector, so each distinct decision is
 * asked of it once (engine.ts). This module writes the two files; the `sweep` command reads and evaluates.
 *
 * @module
 */

import { ensureDir, type FileContent, type PublishOptions, writeAllOrNothing } from "../base/mod.ts";

/** The two files `sweep` writes. */
export const SWEEP_OUTPUTS = ["sweep.jsonl", "sweep.json"] as const;

/**
 * Writes the sweep's files into `directory` (created if missing), all or nothing and never over an existing file.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { OverwriteError, readTextIfExists } from "../base/mod.ts";
 * import { writeSweepFiles } from "./sweep.ts";
 * const dir = `${await Deno.makeTempDir()}/sweep`; // created if missing
 * await writeSweepFiles(dir, { "sweep.jsonl": ["{}\n", "{}\n"], "sweep.json": "{}\n" });
 * strictEqual(await readTextIfExists(`${dir}/sweep.jsonl`), "{}\n{}\n");
 * await rejects(writeSweepFiles(dir, { "sweep.jsonl": "", "sweep.json": "" }), OverwriteError); // never over a file
 * ```
 */
export async function writeSweepFiles(
  directory: string,
  files: Readonly<Record<(typeof SWEEP_OUTPUTS)[number], FileContent> & Record<string, FileContent>>,
  publish: PublishOptions = {},
): Promise<void> {
  await ensureDir(directory, publish);
  await writeAllOrNothing(directory, files, publish);
}
