/**
 * Fixtures a test file builds once and its tests share: built on first use in a temporary directory that is
 * removed when the file ends. Tests that change what they get take a copy (`copyTree`), which costs far
 * less than building it again.
 */

/** `build` run once, on first call, in its own temporary directory (removed at the test file's unload). */
export function sharedFixture<T>(build: (directory: string) => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  let directory: string | undefined;
  globalThis.addEventListener("unload", () => {
    if (directory !== undefined) Deno.removeSync(directory, { recursive: true });
  });
  return () =>
    made ??= (async () => {
      directory = await Deno.makeTempDir({ prefix: "deermem-eval-shared-" });
      return await build(directory);
    })();
}

/** Copies the file or directory `from` to `to` (which must not exist), keeping permission bits. */
export async function copyTree(from: string, to: string): Promise<void> {
  if (!(await Deno.stat(from)).isDirectory) return await Deno.copyFile(from, to);
  await Deno.mkdir(to);
  for await (const entry of Deno.readDir(from)) {
    await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}
