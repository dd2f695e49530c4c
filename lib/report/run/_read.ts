/**
 * How the report reads a JSON record it only quotes from (unreadable is no record): from the run's files as the
 * checks read them.
 *
 * @module
 */

import type { RunFiles } from "../../base/mod.ts";
import { jsonObjectOf } from "../../py/mod.ts";

/**
 * A JSON object file's value (from the run's files, as they were read once), or `undefined` when it is missing,
 * not JSON or not an object.
 */
export async function readJsonObject(
  files: RunFiles,
  name: string,
): Promise<Record<string, unknown> | undefined> {
  return jsonObjectOf(await files.text(name));
}
