/** The reference data the tests carry: every file of tests/golden is listed in its SHA-256 list, and matches it. */

import { assertEquals } from "../helpers/assert.ts";
import { GOLDEN, PINS } from "../helpers/paths.ts";

async function sha256Of(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function filesUnder(directory: string, prefix = "."): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(directory)) {
    const path = `${prefix}/${entry.name}`;
    if (entry.isDirectory) files.push(...await filesUnder(`${directory}/${entry.name}`, path));
    else files.push(path);
  }
  return files;
}

Deno.test("tests/golden holds exactly the files of its SHA-256 list, each with its pinned digest", async () => {
  const pinned = new Map(
    (await Deno.readTextFile(`${PINS}/golden.SHA256SUMS`)).trim().split("\n").map((line) => {
      const [sum, path] = line.split(/\s+/);
      return [path, sum] as const;
    }),
  );
  const present = (await filesUnder(GOLDEN)).sort();
  assertEquals(present, [...pinned.keys()].sort());
  for (const path of present) {
    assertEquals(await sha256Of(`${GOLDEN}/${path.slice(2)}`), pinned.get(path), path);
  }
});
