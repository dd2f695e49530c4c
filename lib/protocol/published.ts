/**
 * The published run, `results/pr4789-reproduction-v1`, embedded in the program: a reviewer with only the one
 * file can verify and report it. The files are the shipped ones, byte for byte (tests/unit/cli/shipped_artifacts_test
 * holds them to their pins).
 *
 * @module
 */

import rows from "../../results/pr4789-reproduction-v1/qa.rows.jsonl" with { type: "text" };
import stats from "../../results/pr4789-reproduction-v1/qa.stats.json" with { type: "text" };
import summary from "../../results/pr4789-reproduction-v1/qa.summary.json" with { type: "text" };
import marker from "../../results/pr4789-reproduction-v1/qa_run.json" with { type: "text" };
import { exists, publishFiles } from "../base/mod.ts";

/** Where the published run lives in the repository, and how the program names it. */
export const PUBLISHED_RUN = "results/pr4789-reproduction-v1";

/**
 * `path`, or `undefined` (the embedded run) where `path` names the published run (`results/pr4789-reproduction-v1`,
 * also with `./` or a trailing `/`) and nothing is there: a program run outside the checkout (the bundle) reads
 * its embedded copy, so the README's commands run as shown.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedOr } from "./published.ts";
 * strictEqual(await embeddedOr(undefined), undefined);
 * strictEqual(await embeddedOr("results/pr4789-reproduction-v2"), "results/pr4789-reproduction-v2");
 * ```
 */
export async function embeddedOr(path: string | undefined): Promise<string | undefined> {
  if (path === undefined) return undefined;
  const named = path.replace(/^\.\//, "").replace(/\/+$/, "") === PUBLISHED_RUN;
  return named && !await exists(path) ? undefined : path;
}

/** The published run's files by name. */
export const PUBLISHED_FILES: Readonly<Record<string, string>> = Object.freeze({
  "qa.rows.jsonl": rows,
  "qa.stats.json": stats,
  "qa.summary.json": summary,
  "qa_run.json": marker,
});

/**
 * Writes the embedded published run into `directory` (which must not hold its files), for the checks that read a
 * run directory; returns `directory`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { readTextIfExists } from "../base/mod.ts";
 * import { PUBLISHED_FILES, writePublishedRun } from "./published.ts";
 * const directory = await writePublishedRun(await Deno.makeTempDir());
 * strictEqual(await readTextIfExists(`${directory}/qa_run.json`), PUBLISHED_FILES["qa_run.json"]);
 * ```
 */
export async function writePublishedRun(directory: string): Promise<string> {
  await publishFiles(Object.entries(PUBLISHED_FILES).map(([name, text]) => [`${directory}/${name}`, text]));
  return directory;
}

/**
 * Runs `body` on a temporary copy of the embedded published run, removed afterwards whatever happens.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { withPublishedRun } from "./published.ts";
 * strictEqual(await withPublishedRun(async (directory) => (await Deno.stat(`${directory}/qa.rows.jsonl`)).isFile), true);
 * ```
 */
export async function withPublishedRun<T>(body: (directory: string) => Promise<T>): Promise<T> {
  const directory = await Deno.makeTempDir({ prefix: "deermem-eval-published-" });
  try {
    return await body(await writePublishedRun(directory));
  } finally {
    await Deno.remove(directory, { recursive: true }).catch(() => {});
  }
}
