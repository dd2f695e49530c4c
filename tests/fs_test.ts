import { InputError, OverwriteError } from "../lib/errors.ts";
import { readBytesHashed, writeFileAtomic } from "../lib/fs.ts";
import { sha256Hex } from "../lib/hash.ts";
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

Deno.test("readBytesHashed: the bytes and their SHA-256 in one pass, across chunk boundaries; a missing file is named", async () => {
  await withTempDir(async (directory) => {
    for (const size of [0, 5, (1 << 20) + 3, 3 * (1 << 20)]) {
      const bytes = Uint8Array.from({ length: size }, (_, index) => (index * 31 + 7) & 0xff);
      await Deno.writeFile(`${directory}/f`, bytes);
      const read = await readBytesHashed(`${directory}/f`, "dataset");
      assertEquals(read.bytes, bytes);
      assertEquals(read.sha256, await sha256Hex(bytes));
      await Deno.remove(`${directory}/f`);
    }
    const error = await assertRejects(
      () => readBytesHashed(`${directory}/absent.json`, "dataset"),
      InputError,
    );
    assertEquals(error.message, `${directory}/absent.json: cannot read dataset: not found`);
  });
});
