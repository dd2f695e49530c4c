/**
 * A K-run directory (`run-qa --epochs K`): run 1 is the directory itself, exactly as a one-run directory, and
 * run r > 1 is the complete run directory `epoch-r/` inside it, so the reference's own grader can grade any one
 * of them. `epochs.json` (written only when K > 1; no reference tool reads it) records K, so a run that goes
 * missing is found.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import { ContractError, exists, InputError, type RunFiles, runFilesOf, type Schema } from "../../base/mod.ts";
import { MARKER_FILE } from "./run_dir.ts";
import { dumps, parseJsonTextWith } from "../../py/mod.ts";

/** The record's name in the directory of run 1. */
export const EPOCHS_FILE = "epochs.json";

/** The most runs `--epochs` takes. */
export const MAX_EPOCHS = 100;

/** `epochs.json`: how many runs the directory holds. */
export interface EpochsRecord {
  epochs: number;
  schema_version: 1;
}

const epochsRecordSchema = z.strictObject({
  epochs: z.int().check(z.minimum(2), z.maximum(MAX_EPOCHS)),
  schema_version: z.literal(1),
});

/** The record's schema (K from 2 to {@linkcode MAX_EPOCHS}). */
export const EpochsRecord: Schema<EpochsRecord> = epochsRecordSchema;

/**
 * The directory of run `run` (from 1): the directory itself for run 1, `epoch-<run>/` inside it after.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { epochDirectory } from "./epochs.ts";
 * strictEqual(epochDirectory("out", 1), "out");
 * strictEqual(epochDirectory("out", 3), "out/epoch-3");
 * ```
 */
export function epochDirectory(directory: string, run: number): string {
  return run === 1 ? directory : `${directory}/epoch-${run}`;
}

/**
 * The directories of runs 1 to K, in run order.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { epochDirectories } from "./epochs.ts";
 * deepStrictEqual(epochDirectories("out", 2), ["out", "out/epoch-2"]);
 * ```
 */
export function epochDirectories(directory: string, epochs: number): string[] {
  return Array.from({ length: epochs }, (_, index) => epochDirectory(directory, index + 1));
}

/**
 * `epochs.json` as written: sorted keys, two-space indent, a final newline.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { epochsRecordJson } from "./epochs.ts";
 * strictEqual(epochsRecordJson(3), '{\n  "epochs": 3,\n  "schema_version": 1\n}\n');
 * ```
 */
export function epochsRecordJson(epochs: number): string {
  return dumps({ epochs, schema_version: 1 }, { indent: 2 }) + "\n";
}

/**
 * How many runs a directory holds: K from its `epochs.json` (read once when the directory's files are held), 1
 * without one. A malformed record is a {@linkcode ContractError} naming the file and the field.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { EPOCHS_FILE, epochsRecordJson, readEpochs } from "./epochs.ts";
 * const dir = await Deno.makeTempDir();
 * strictEqual(await readEpochs(dir), 1);
 * await Deno.writeTextFile(`${dir}/${EPOCHS_FILE}`, epochsRecordJson(3));
 * strictEqual(await readEpochs(dir), 3);
 * await Deno.writeTextFile(`${dir}/${EPOCHS_FILE}`, '{"epochs": 1, "schema_version": 1}');
 * await rejects(readEpochs(dir), { message: /epochs\.json: epochs: / });
 * ```
 */
export async function readEpochs(directory: string | RunFiles): Promise<number> {
  const files = runFilesOf(directory);
  const path = files.path(EPOCHS_FILE);
  const text = await files.text(EPOCHS_FILE, "epochs record");
  if (text === undefined) return 1;
  return parseJsonTextWith(EpochsRecord, text, path).epochs;
}

/**
 * The K a run-qa invocation uses: `asked` (from `--epochs`) when given, else what the directory records. A
 * directory that records another K is refused; a one-run directory may become run 1 of K.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { EPOCHS_FILE, epochsRecordJson, settleEpochs } from "./epochs.ts";
 * const dir = await Deno.makeTempDir();
 * strictEqual(await settleEpochs(dir, 3), 3); // a one-run (or new) directory
 * await Deno.writeTextFile(`${dir}/${EPOCHS_FILE}`, epochsRecordJson(3));
 * strictEqual(await settleEpochs(dir, undefined), 3);
 * await rejects(settleEpochs(dir, 2), { message: /epochs\.json: epochs: holds 3 runs, --epochs asks for 2/ });
 * ```
 */
export async function settleEpochs(directory: string, asked: number | undefined): Promise<number> {
  const recorded = await readEpochs(directory);
  if (asked === undefined) return recorded;
  if (recorded !== 1 && recorded !== asked) {
    throw new ContractError(
      `holds ${recorded} runs, --epochs asks for ${asked}: give --epochs ${recorded} or a fresh output directory`,
      { path: `${directory}/${EPOCHS_FILE}`, field: "epochs" },
    );
  }
  return asked;
}

/**
 * The run directories a directory holds, run 1 (the directory itself) first: one without `epochs.json`, else the
 * K it records (read once when the directory's files are held). A recorded run with no `qa_run.json` is an
 * {@linkcode InputError} naming it.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 * import { EPOCHS_FILE, epochRunDirectories, epochsRecordJson } from "./epochs.ts";
 * const dir = await Deno.makeTempDir();
 * deepStrictEqual(await epochRunDirectories(dir), [dir]);
 * await Deno.writeTextFile(`${dir}/${EPOCHS_FILE}`, epochsRecordJson(2));
 * await rejects(epochRunDirectories(dir), { message: /epochs\.json records 2 runs/ }); // epoch-2/ is missing
 * await Deno.mkdir(`${dir}/epoch-2`);
 * await Deno.writeTextFile(`${dir}/epoch-2/qa_run.json`, "{}");
 * deepStrictEqual(await epochRunDirectories(dir), [dir, `${dir}/epoch-2`]);
 * ```
 */
export async function epochRunDirectories(source: string | RunFiles): Promise<string[]> {
  const files = runFilesOf(source);
  const epochs = await readEpochs(files);
  const directories = epochDirectories(files.directory, epochs);
  for (const run of directories.slice(1)) {
    if (!await exists(`${run}/${MARKER_FILE}`)) {
      throw new InputError(`missing: ${EPOCHS_FILE} records ${epochs} runs`, { path: run });
    }
  }
  return directories;
}
