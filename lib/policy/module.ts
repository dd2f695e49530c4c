/**
 * Policy modules: a TypeScript or JavaScript file whose default export is a {@linkcode Policy}, loaded and
 * identified (name and SHA-256) for `run-policy --policy-module`.
 *
 * @module
 */

import { PolicyModuleError } from "../base/errors.ts";
import { readBytes } from "../base/fs.ts";
import { sha256Hex } from "../base/hash.ts";
import type { Policy } from "./contract.ts";
import { EVICTION_POLICY_CONFIDENCE, EVICTION_POLICY_HYBRID_V1 } from "./selection_types.ts";
import { firstLine } from "./_messages.ts";

/** A policy loaded from a module file, with what identifies it in the rows. */
export interface LoadedPolicyModule {
  policy: Policy;
  /** The module's file name (its last path segment). */
  moduleName: string;
  /** The path as given. */
  path: string;
  /** SHA-256 of the module's source bytes. */
  sha256: string;
}

/** A path as a `file:` URL (the pathname setter percent-encodes what a URL cannot hold), without node:url. */
function fileUrl(path: string): string {
  const url = new URL("file:///");
  url.pathname = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  return url.href;
}

/**
 * Loads a policy module: its default export must be a {@linkcode Policy} (`{ name, select }`). The source is
 * hashed from the bytes read; the module is then imported (it runs with the caller's permissions, so the CLI
 * gives up network and environment first). A module that fails to load or exports something else is a
 * {@linkcode PolicyModuleError} naming it; a file that cannot be read is refused as any input is.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { InputError, PolicyModuleError } from "../base/errors.ts";
 * import { sha256Hex } from "../base/hash.ts";
 * import { loadPolicyModule } from "./module.ts";
 * const directory = await Deno.makeTempDir();
 * const source = 'export default { name: "none", select: () => ({}) };\n';
 * await Deno.writeTextFile(`${directory}/none.js`, source);
 * strictEqual((await loadPolicyModule(`${directory}/none.js`)).sha256, await sha256Hex(source));
 * await Deno.writeTextFile(`${directory}/nothing.js`, "export default 42;\n");
 * await rejects(loadPolicyModule(`${directory}/nothing.js`), PolicyModuleError); // not a policy
 * await rejects(loadPolicyModule(`${directory}/missing.js`), InputError); // not found, as any input
 * ```
 */
export async function loadPolicyModule(path: string): Promise<LoadedPolicyModule> {
  const bytes = await readBytes(path, "policy module");
  const sha256 = await sha256Hex(bytes);
  let module: Record<string, unknown>;
  try {
    module = await import(fileUrl(path));
  } catch (error) {
    throw new PolicyModuleError(`cannot load the module: ${firstLine(error)}`, { path, cause: error });
  }
  const policy = module.default as Partial<Policy> | undefined;
  if (
    policy === null || typeof policy !== "object" || typeof policy.name !== "string" || policy.name === "" ||
    typeof policy.select !== "function"
  ) {
    throw new PolicyModuleError(
      "must export default a policy { name: non-empty string, select: function }",
      { path, field: "default" },
    );
  }
  if (policy.name === EVICTION_POLICY_CONFIDENCE || policy.name === EVICTION_POLICY_HYBRID_V1) {
    // Its rows would pass for the published policy's wherever only the name is read.
    throw new PolicyModuleError(`must not take a published policy's name (${policy.name})`, {
      path,
      field: "default.name",
    });
  }
  return { policy: policy as Policy, moduleName: path.slice(path.lastIndexOf("/") + 1), path, sha256 };
}
