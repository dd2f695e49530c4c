/**
 * How the report reads a run's files: a file it needs (missing is bad input), and a JSON record it only
 * quotes from (unreadable is no record).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { INPUT_CAP, readTextIfExists } from "../base/fs.ts";

/** A file's text (through `cap`, named `what` in a refusal); a missing one is an {@linkcode InputError}. */
export async function readRequired(path: string, what = "file", cap: number = INPUT_CAP): Promise<string> {
  const text = await readTextIfExists(path, what, cap);
  if (text === undefined) throw new InputError("missing", { path });
  return text;
}

/** A JSON object file's value, or `undefined` when it is missing, not JSON or not an object. */
export async function readJsonObject(path: string): Promise<Record<string, unknown> | undefined> {
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}
