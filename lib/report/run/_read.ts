/**
 * How the report reads a JSON record it only quotes from (unreadable is no record): from the run's files as the
 * checks read them.
 *
 * @module
 */

import type { RunFiles } from "../../base/mod.ts";

/**
 * A JSON object file's value (from the run's files, as they were read once), or `undefined` when it is missing,
 * not JSON or not an object.
 */
export async function readJsonObject(
  files: RunFiles,
  name: string,
): Promise<Record<string, unknown> | undefined> {
  const text = await files.text(name);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}
