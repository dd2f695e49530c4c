import { OverwriteError } from "../../../lib/base/errors.ts";
import { IoError } from "../../../lib/base/mod.ts";
import { moveAside, writeAllOrNothing, writeFileAtomic } from "../../../lib/base/fs.ts";
import { faultHook, simulatedOsError } from "../../helpers/faults.ts";
import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";

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

const THREE = { "a.json": "A\n", "b.json": "B\n", "c.json": "C\n" };

Deno.test("writeAllOrNothing places every file and leaves no staging file", async () => {
  await withTempDir(async (directory) => {
    await writeAllOrNothing(directory, THREE);
    assertEquals(await entries(directory), ["a.json", "b.json", "c.json"]);
    assertEquals(await Deno.readTextFile(`${directory}/c.json`), "C\n");
  });
});

for (const operation of ["write", "link", "remove"] as const) {
  for (const nth of [1, 2, 3]) {
    Deno.test(`writeAllOrNothing: a failing ${operation} #${nth} leaves the directory as it was; a rerun works`, async () => {
      await withTempDir(async (directory) => {
        await Deno.writeTextFile(`${directory}/other.txt`, "untouched");
        const beforeOperation = faultHook([{ operation, nth, error: simulatedOsError("ENOSPC") }]);
        const error = await assertRejects(
          () => writeAllOrNothing(directory, THREE, { beforeOperation }),
          IoError,
        );
        assertEquals(error.reason, "No space left on device (os error 28)");
        assertEquals(error.errno, "ENOSPC");
        assertEquals(await entries(directory), ["other.txt"]);
        await writeAllOrNothing(directory, THREE);
        assertEquals(await entries(directory), ["a.json", "b.json", "c.json", "other.txt"]);
      });
    });
  }
}

Deno.test("writeAllOrNothing refuses when any target exists, placing nothing and keeping the existing bytes", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/b.json`, "original");
    await assertRejects(() => writeAllOrNothing(directory, THREE), OverwriteError, "b.json");
    assertEquals(await entries(directory), ["b.json"]);
    assertEquals(await Deno.readTextFile(`${directory}/b.json`), "original");
  });
});

Deno.test("writeAllOrNothing: a target appearing between the check and the link is not overwritten", async () => {
  await withTempDir(async (directory) => {
    // The second link meets an existing name, as if another process wrote b.json meanwhile.
    const error = new Deno.errors.AlreadyExists("File exists (os error 17)");
    const beforeOperation = faultHook([{ operation: "link", nth: 2, error }]);
    await assertRejects(
      () => writeAllOrNothing(directory, THREE, { beforeOperation }),
      OverwriteError,
      "b.json",
    );
    assertEquals(await entries(directory), []);
  });
});

Deno.test("a non-OS failure passes through the layer unchanged (it is a bug, not an I/O error)", async () => {
  await withTempDir(async (directory) => {
    const beforeOperation = faultHook([{ operation: "write", nth: 1, error: new TypeError("boom") }]);
    await assertRejects(() => writeAllOrNothing(directory, THREE, { beforeOperation }), TypeError, "boom");
    assertEquals(await entries(directory), []);
  });
});

Deno.test("moveAside links the file aside and removes it; it never replaces and never loses the original", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/row.json`, "old row");
    await moveAside(`${directory}/row.json`, `${directory}/aside`, "row.1.json");
    assertEquals(await entries(directory), ["aside"]);
    assertEquals(await Deno.readTextFile(`${directory}/aside/row.1.json`), "old row");

    await Deno.writeTextFile(`${directory}/row.json`, "newer row");
    await assertRejects(
      () => moveAside(`${directory}/row.json`, `${directory}/aside`, "row.1.json"),
      OverwriteError,
      "aside/row.1.json",
    );
    assertEquals(await Deno.readTextFile(`${directory}/aside/row.1.json`), "old row");
    assertEquals(await Deno.readTextFile(`${directory}/row.json`), "newer row");

    const beforeOperation = faultHook([{ operation: "remove", nth: 1, error: simulatedOsError("EACCES") }]);
    await assertRejects(
      () => moveAside(`${directory}/row.json`, `${directory}/aside`, "row.2.json", { beforeOperation }),
      IoError,
    );
    assertEquals(await entries(`${directory}/aside`), ["row.1.json"]);
    assertEquals(await Deno.readTextFile(`${directory}/row.json`), "newer row");
  });
});
