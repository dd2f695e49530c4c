/**
 * Policy modules: a TypeScript or JavaScript file whose default export is a {@linkcode Policy}, read once,
 * identified (name and SHA-256) and run only in a sandbox holding nothing (sandbox.ts), from the bytes hashed.
 *
 * @module
 */

import { readBytes, sha256Hex } from "../base/mod.ts";
import { SANDBOX_LIMITS } from "./limits.ts";
import { PolicyModuleError } from "./errors.ts";
import type { Policy } from "./contract.ts";
import { EVICTION_POLICY_CONFIDENCE, EVICTION_POLICY_HYBRID_V1 } from "./selection_types.ts";
import { DEFAULT_POLICY_TIME_LIMIT_SECONDS, PolicySandbox, type SandboxModule } from "./sandbox.ts";
import { printable } from "./_sandbox_codec.ts";

/** The longest policy name, in UTF-16 code units: it is written in every row and printed in tables. */
const NAME_MAX = 128;

/** A module's policy as the host holds it: its name (checked) and the sandbox input; never the module's code. */
export interface ModulePolicy {
  /** The policy's name, printable, not a published policy's. */
  readonly name: string;
  /** The bytes that were hashed and the limits they run under. */
  readonly module: SandboxModule;
}

/** A policy loaded from a module file, with what identifies it in the rows. */
export interface LoadedPolicyModule {
  /** The policy, to run through {@linkcode PolicySandbox}. */
  policy: ModulePolicy;
  /** The module's file name (its last path segment). */
  moduleName: string;
  /** The path as given. */
  path: string;
  /** SHA-256 of the module's source bytes. */
  sha256: string;
}

/** Options of {@linkcode loadPolicyModule}. */
export interface PolicyModuleOptions {
  /** The per-case time limit, in seconds (default {@linkcode DEFAULT_POLICY_TIME_LIMIT_SECONDS}). */
  timeLimitSeconds?: number;
}

function mediaType(path: string): string {
  if (/\.m?ts$/.test(path)) return "application/typescript";
  if (/\.m?js$/.test(path)) return "application/javascript";
  throw new PolicyModuleError("must be a .ts, .mts, .js or .mjs file", { path });
}

/** Characters that look like nothing or like a space, the plain space aside (refused apart). */
const INVISIBLE = /(?! )[\p{White_Space}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Refuses a policy name that is not printable text of 1 to 128 characters (no control, format, invisible or
 * space-like character but single inner spaces), or is a published policy's once NFKC-normalised and
 * lower-cased (`ｈｙｂｒｉｄ-v1` and `Hybrid-V1` would pass for it wherever a reader only sees the name).
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { checkPolicyName } from "./module.ts";
 * checkPolicyName("recency", "recency.ts");
 * throws(() => checkPolicyName("a\x1b[2J\nb", "p.ts"), /p\.ts: default\.name: must be printable text/);
 * throws(() => checkPolicyName("hybrid-v1", "p.ts"), /must not take a published policy's name/);
 * throws(() => checkPolicyName("hybrid-v1\u00a0", "p.ts"), /invisible or space-like/);
 * throws(() => checkPolicyName("\uff48\uff59\uff42\uff52\uff49\uff44-v1", "p.ts"), /published policy's name/);
 * ```
 */
export function checkPolicyName(name: string, path: string): void {
  const refuse = (message: string): never => {
    throw new PolicyModuleError(message, { path, field: "default.name" });
  };
  if (/\p{C}/u.test(name)) {
    refuse(`must be printable text without control characters: "${printable(name)}"`);
  }
  if (INVISIBLE.test(name)) {
    const shown = name.replace(
      new RegExp(INVISIBLE.source, "gu"),
      (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`,
    );
    refuse(`must not hold invisible or space-like characters: "${printable(shown)}"`);
  }
  if (/^ | $| {2}/.test(name)) refuse("must not start or end with a space, or hold two in a row");
  if (name.length > NAME_MAX) refuse(`must be at most ${NAME_MAX} characters, got ${name.length}`);
  const comparable = name.normalize("NFKC").toLowerCase();
  for (const published of [EVICTION_POLICY_CONFIDENCE, EVICTION_POLICY_HYBRID_V1]) {
    // Its rows would pass for the published policy's wherever only the name is read.
    if (comparable === published) refuse(`must not take a published policy's name (${published})`);
  }
}

/**
 * Loads a policy module: reads it once (capped), hashes those bytes, and loads them in a sandbox that holds no
 * permission, to see that the default export is a {@linkcode Policy} (`{ name, select }`) with a proper name;
 * the sandbox is then killed. A module that fails to load or exports something else is a
 * {@linkcode PolicyModuleError} naming it; a file that cannot be read is refused as any input is. Starting the
 * sandbox needs Linux and run permission for `prlimit` (`--allow-run=/usr/bin/prlimit`).
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { InputError } from "../base/errors.ts";
 * import { PolicyModuleError } from "./errors.ts";
 * import { loadPolicyModule } from "./module.ts";
 * const directory = await Deno.makeTempDir();
 * await rejects(loadPolicyModule(`${directory}/missing.js`), InputError); // not found, as any input
 * await Deno.writeTextFile(`${directory}/none.py`, "");
 * await rejects(loadPolicyModule(`${directory}/none.py`), PolicyModuleError);
 * ```
 */
export async function loadPolicyModule(
  path: string,
  options: PolicyModuleOptions = {},
): Promise<LoadedPolicyModule> {
  const source = await readBytes(path, "policy module", SANDBOX_LIMITS.moduleBytes);
  const sha256 = await sha256Hex(source);
  const module: SandboxModule = {
    source,
    mediaType: mediaType(path),
    origin: path,
    timeLimitSeconds: options.timeLimitSeconds ?? DEFAULT_POLICY_TIME_LIMIT_SECONDS,
  };
  const { sandbox, loaded } = await PolicySandbox.open(module);
  await sandbox.close();
  const { name } = loaded;
  if (typeof name !== "string" || name === "" || !loaded.select) {
    throw new PolicyModuleError(
      "must export default a policy { name: non-empty string, select: function }",
      { path, field: "default" },
    );
  }
  checkPolicyName(name, path);
  return { policy: { name, module }, moduleName: path.slice(path.lastIndexOf("/") + 1), path, sha256 };
}

/** Whether a policy is a module's (run in a sandbox) rather than one in this process. */
export function isModulePolicy(policy: Policy | ModulePolicy): policy is ModulePolicy {
  return !("select" in policy) && "module" in policy;
}
