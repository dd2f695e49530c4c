import { OverwriteError } from "../lib/errors.ts";
import { writeFileAtomic } from "../lib/fs.ts";
import { assertEquals, assertRejects } from "./helpers/assert.ts";
import { withTempDir } from "./helpers/cli.ts";

async function entries(directory: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

Deno.test("writeFileAtomic writes the whole file and leaves no temporary behind", async () => {
  await withTempDir(async (directory) => {
    await writeFileAtomic(`${directory}/a.json`, "{}\n");
    assertEquals(await Deno.readTextFile(`${directory}/a.json`), "{}\n");
    assertEquals(await entries(directory), ["a.json"]);
  });
});

Deno.test("writeFileAtomic never overwrites and keeps the existing bytes", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/a.json`, "original");
    await assertRejects(() => writeFileAtomic(`${directory}/a.json`, "new"), OverwriteError, "a.json");
    assertEquals(await Deno.readTextFile(`${directory}/a.json`), "original");
    assertEquals(await entries(directory), ["a.json"]);
  });
});

Deno.test("writeFileAtomic into a missing directory fails without a partial file", async () => {
  await withTempDir(async (directory) => {
    await assertRejects(() => writeFileAtomic(`${directory}/missing/a.json`, "x"));
    assertEquals(await entries(directory), []);
  });
});
