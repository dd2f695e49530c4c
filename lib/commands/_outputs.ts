/**
 * A command's output directory checked before any work: a file where the directory belongs, or any output
 * already there, refuses the command at once (the final publish refuses again if one appeared meanwhile).
 *
 * @module
 */

import { ensureDir, type PublishOptions, refuseExisting } from "../base/mod.ts";

/**
 * Refuses `directory` when it is not a directory (as creating it would) or holds any of `names`; an absent
 * directory is created only by the publish.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { OverwriteError } from "../base/errors.ts";
 * import { refuseExistingOutputs } from "./_outputs.ts";
 * const dir = await Deno.makeTempDir();
 * await refuseExistingOutputs(`${dir}/absent`, ["a.json"]); // nothing there yet: fine, and nothing created
 * await Deno.writeTextFile(`${dir}/a.json`, "{}");
 * await rejects(refuseExistingOutputs(dir, ["a.json"]), OverwriteError);
 * ```
 */
export async function refuseExistingOutputs(
  directory: string,
  names: readonly string[],
  publish: PublishOptions = {},
): Promise<void> {
  const info = await Deno.lstat(directory).catch(() => undefined);
  if (info === undefined) return;
  // Over a file, creating the directory fails as the publish would fail, and creates nothing.
  if (!info.isDirectory && !info.isSymlink) await ensureDir(directory, publish);
  await refuseExisting(names.map((name) => `${directory}/${name}`));
}
