/**
 * How the sandbox's child is started: `prlimit` bounding its writable memory (RLIMIT_DATA, which counts every
 * private writable mapping: V8's heap, ArrayBuffers, Wasm memory, workers; not V8's PROT_NONE reservations, which
 * break RLIMIT_AS), then `deno run` granted nothing (sandbox.ts runs it in `/`, telling nothing of the user's
 * directory, with a fresh Deno dir removed after, so web storage, were it reached, keeps nothing).
 *
 * @module
 */

import { SANDBOX_LIMITS, sandboxMemoryBound } from "./limits.ts";
import { decodeStrictUtf8 } from "../base/mod.ts";
import { PolicyModuleError } from "./errors.ts";
import { printable } from "./_sandbox_codec.ts";

// node:process's execPath cannot be withheld in place: the import map gives a module a stand-in that refuses.
const PROCESS_STAND_IN = "data:text/javascript,export default new Proxy({}, { get() { throw new " +
  'Deno.errors.NotCapable("node:process is not available to a policy module"); } });';
const PROCESS_WITHHELD = `data:application/json,${
  encodeURIComponent(
    JSON.stringify({ imports: { "node:process": PROCESS_STAND_IN, process: PROCESS_STAND_IN } }),
  )
}`;

/** The one-line statement of the bounds, for messages and help. */
export const POLICY_MEMORY_BOUND: string = sandboxMemoryBound();

const granted = (command: string): boolean =>
  Deno.permissions.querySync({ name: "run", command }).state === "granted";

/**
 * Where util-linux installs `prlimit`, the first the one the tasks grant: the sandbox runs it by its absolute
 * path, never a `prlimit` found on PATH (one there could set no limit).
 */
export const PRLIMIT_PATHS = ["/usr/bin/prlimit", "/bin/prlimit"] as const;

/** The first of {@linkcode PRLIMIT_PATHS} granted (and present, when more than one is granted). */
function prlimitPath(): string | undefined {
  const allowed = PRLIMIT_PATHS.filter(granted);
  return allowed.find((path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  }) ?? allowed[0];
}

let resolvedDeno: Promise<string> | undefined;

/** The `deno` on PATH, as an absolute path (prlimit runs it with an empty environment, so without PATH). */
function denoOnPath(origin: string): Promise<string> {
  resolvedDeno ??= new Deno.Command("deno", {
    args: ["eval", "--quiet", "--no-config", "console.log(Deno.execPath())"],
    clearEnv: true,
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output().then((output) => {
    const path = decodeStrictUtf8(output.stdout).trim();
    if (!output.success || !path.startsWith("/")) throw new Error(`deno eval exited ${output.code}`);
    return path;
  });
  return resolvedDeno.catch((error) => {
    resolvedDeno = undefined;
    throw new PolicyModuleError(`cannot find the sandbox's deno: ${printable(String(error))}`, {
      path: origin,
    });
  });
}

/**
 * The program and arguments starting `script` in the sandbox: `/usr/bin/prlimit` (or `/bin/prlimit`) running
 * this very `deno` (so only `prlimit` need be granted), or, in a compiled program, the `deno` on PATH (granted
 * too, to find it).
 *
 * @throws {PolicyModuleError} When not on Linux, or without `--allow-run=/usr/bin/prlimit` (and `deno`,
 * compiled).
 */
export async function sandboxCommand(script: string, origin: string): Promise<[string, string[]]> {
  if (Deno.build.os !== "linux") {
    throw new PolicyModuleError(
      "a policy module's memory is bounded with Linux's RLIMIT_DATA (prlimit), so running one needs Linux",
      { path: origin },
    );
  }
  const prlimit = prlimitPath();
  if (prlimit === undefined || (Deno.build.standalone && !granted("deno"))) {
    const needed = Deno.build.standalone ? [PRLIMIT_PATHS[0], "deno"] : [PRLIMIT_PATHS[0]];
    throw new PolicyModuleError(
      "a policy module runs in a child deno with no permissions under prlimit (util-linux), which needs " +
        `--allow-run=${needed.join(",")}`,
      { path: origin },
    );
  }
  const deno = Deno.build.standalone ? await denoOnPath(origin) : Deno.execPath();
  // An idle `deno` maps about 545 MiB of it (mostly reserved), so a module has about 480 MiB, heap and buffers.
  const bytes = SANDBOX_LIMITS.memoryMiB * 1024 * 1024;
  return [prlimit, [
    `--data=${bytes}:${bytes}`,
    "--",
    deno,
    "run",
    "--quiet",
    "--no-config",
    "--no-remote",
    "--no-npm",
    "--no-prompt",
    `--import-map=${PROCESS_WITHHELD}`,
    `--v8-flags=--max-old-space-size=${SANDBOX_LIMITS.heapMiB}`,
    script,
  ]];
}
