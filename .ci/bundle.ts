/**
 * Builds the shipped program, `dist/deermem-eval.js`: `deno bundle` of `cli.ts` behind a shebang line that carries
 * the `run-qa` task's permission flags, made executable, and its SHA-256 printed. `deno task bundle` runs it; the
 * bundle test builds with it (twice, to prove the build reproducible) and the pipeline bench measures what it
 * builds. Run: deno task bundle [OUTPUT]
 *
 * The bundle targets the browser platform only for module resolution: npm packages then resolve to their ESM
 * builds (yaml's `browser/` build instead of its CommonJS one, which would load Node compatibility); Deno's own
 * APIs are used at run time as in `cli.ts`. It is minified (names kept, for error classes and traces): half the
 * bytes for Deno to load on every start; the source it is built from is the repository at the same commit.
 */

import denoConfig from "../deno.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url).pathname;

/**
 * The shebang: `env -S` splits the rest into words, sets the variable and runs `deno run` with the `run-qa`
 * task's flags (the program revokes the network for every other command). `--no-config` keeps a `deno.json` in
 * the caller's directory from changing how the file runs. Linux reads at most 255 bytes of the line, so the
 * variables are granted by their common prefixes (`DEERMEM_EVAL_*`, `LONGMEMEVAL_*`), which leaves room for
 * `prlimit`'s absolute path, the loader's
 * `--cached-only` (so a policy module's `import("npm:…")` cannot make this process fetch) and one V8 flag:
 * `--no-enable-lazy-source-positions` stores source positions in the code cache; without it, the first
 * `console.log` or `new Error()` makes V8 re-parse the whole 1 MB bundle to find them (40–60 ms per start).
 */
export function shebang(): string {
  const words = denoConfig.tasks["run-qa"].split(/\s+/);
  const flags = words.slice(words.indexOf("run") + 1, words.indexOf("cli.ts")).map((flag) => {
    if (!flag.startsWith("--allow-env=")) return flag;
    const names = flag.slice("--allow-env=".length).split(",");
    const prefixes = names.map((name) =>
      name.startsWith("DEERMEM_EVAL_") ? "DEERMEM_EVAL_*" : "LONGMEMEVAL_*"
    );
    return `--allow-env=${[...new Set(prefixes)].join(",")}`;
  });
  flags.push("--v8-flags=--no-enable-lazy-source-positions");
  return `#!/usr/bin/env -S DENO_NO_UPDATE_CHECK=1 deno run --no-config ${flags.join(" ")}`;
}

/** Builds the bundle at `output` (made executable); returns its SHA-256. */
export async function buildBundle(output: string): Promise<string> {
  const body = await Deno.makeTempFile({ prefix: "deermem-eval-bundle-", suffix: ".js" });
  try {
    const built = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform=browser",
        "--minify",
        "--keep-names",
        "--output",
        body,
        "cli.ts",
      ],
      cwd: ROOT,
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "inherit",
      stderr: "piped",
    }).output();
    if (built.code !== 0) throw new Error(`deno bundle failed:\n${new TextDecoder().decode(built.stderr)}`);
    const program = await Deno.readFile(body);
    await Deno.mkdir(output.slice(0, output.lastIndexOf("/") + 1) || ".", { recursive: true });
    const head = new TextEncoder().encode(`${shebang()}\n`);
    const bytes = new Uint8Array(head.length + program.length);
    bytes.set(head);
    bytes.set(program, head.length);
    await Deno.writeFile(output, bytes, { mode: 0o755 });
    await Deno.chmod(output, 0o755);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  } finally {
    await Deno.remove(body).catch(() => {});
  }
}

if (import.meta.main) {
  const output = Deno.args[0] ?? "dist/deermem-eval.js";
  console.log(`${await buildBundle(output)}  ${output}`);
}
