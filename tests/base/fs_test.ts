import { InputError, IoError, OverwriteError, UnreadableFileError } from "../../lib/base/errors.ts";
import {
  clearFaults,
  DATASET_CAP,
  firstInvalidUtf8,
  injectFault,
  INPUT_CAP,
  MIB,
  moveAside,
  readBytes,
  readBytesHashed,
  readText,
  readTextIfExists,
  simulatedOsError,
  VECTOR_CAP,
  writeAllOrNothing,
  writeFileAtomic,
} from "../../lib/base/fs.ts";
import { sha256Hex } from "../../lib/base/hash.ts";
import { assertEquals, assertRejects } from "../helpers/assert.ts";
import { withTempDir } from "../helpers/cli.ts";

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
      assertEquals(read.sha256, sha256Hex(bytes));
      await Deno.remove(`${directory}/f`);
    }
    const error = await assertRejects(
      () => readBytesHashed(`${directory}/absent.json`, "dataset"),
      InputError,
    );
    assertEquals(error.message, `${directory}/absent.json: cannot read dataset: not found`);
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
        injectFault(operation, nth, simulatedOsError("ENOSPC"));
        try {
          const error = await assertRejects(() => writeAllOrNothing(directory, THREE), IoError);
          assertEquals(error.reason, "No space left on device (os error 28)");
          assertEquals(error.errno, "ENOSPC");
        } finally {
          clearFaults();
        }
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
    injectFault("link", 2, new Deno.errors.AlreadyExists("File exists (os error 17)"));
    try {
      await assertRejects(() => writeAllOrNothing(directory, THREE), OverwriteError, "b.json");
    } finally {
      clearFaults();
    }
    assertEquals(await entries(directory), []);
  });
});

Deno.test("a non-OS failure passes through the layer unchanged (it is a bug, not an I/O error)", async () => {
  await withTempDir(async (directory) => {
    injectFault("write", 1, new TypeError("boom"));
    try {
      await assertRejects(() => writeAllOrNothing(directory, THREE), TypeError, "boom");
    } finally {
      clearFaults();
    }
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

    injectFault("remove", 1, simulatedOsError("EACCES"));
    try {
      await assertRejects(
        () => moveAside(`${directory}/row.json`, `${directory}/aside`, "row.2.json"),
        IoError,
      );
    } finally {
      clearFaults();
    }
    assertEquals(await entries(`${directory}/aside`), ["row.1.json"]);
    assertEquals(await Deno.readTextFile(`${directory}/row.json`), "newer row");
  });
});

Deno.test("reads go through a cap: a device never ends, a large file is refused by its size", async () => {
  const error = await assertRejects(() => readBytes("/dev/zero", "config"), UnreadableFileError);
  assertEquals(error.message, "/dev/zero: config is larger than the 16 MiB cap");
  await withTempDir(async (directory) => {
    await Deno.writeFile(`${directory}/f`, new Uint8Array(11));
    assertEquals((await readBytes(`${directory}/f`, "file", 11)).length, 11);
    await assertRejects(
      () => readBytes(`${directory}/f`, "vector file", 10),
      UnreadableFileError,
      "11 bytes, over the 10 bytes cap",
    );
    await assertRejects(() => readBytesHashed(`${directory}/f`, "dataset", 10), UnreadableFileError);
    const device = await assertRejects(
      () => readBytesHashed("/dev/zero", "dataset", MIB + 5),
      UnreadableFileError,
    );
    assertEquals(device.message, `/dev/zero: dataset is larger than the ${MIB + 5} bytes cap`);
  });
  assertEquals([INPUT_CAP, VECTOR_CAP, DATASET_CAP], [16 * MIB, 256 * MIB, 2048 * MIB]);
});

Deno.test("text reads are strict UTF-8: the file, line and byte offset of the first invalid byte", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeFile(
      `${directory}/t.json`,
      new Uint8Array([0x7b, 0x0a, 0x22, 0xc3, 0xa9, 0xff, 0x22, 0x0a]),
    );
    const error = await assertRejects(() => readText(`${directory}/t.json`), UnreadableFileError);
    assertEquals(error.message, `${directory}/t.json: not valid UTF-8: line 2, byte offset 5`);
    await assertRejects(() => readTextIfExists(`${directory}/t.json`), UnreadableFileError, "line 2");
    assertEquals(await readTextIfExists(`${directory}/none.json`), undefined);
    const directoryError = await assertRejects(() => readTextIfExists(directory, "row"), IoError);
    assertEquals(directoryError.message, `${directory}: cannot read row: Is a directory (os error 21)`);
  });
});

Deno.test("firstInvalidUtf8 agrees with the fatal TextDecoder on every 1- to 4-byte sequence class", () => {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const valid = (bytes: Uint8Array) => {
    try {
      decoder.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };
  // Every lead byte with a spread of continuation bytes: overlongs, surrogates, > U+10FFFF, truncations.
  const tails = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
  let checked = 0;
  for (let lead = 0; lead < 256; lead++) {
    for (const second of tails) {
      for (const third of [0x80, 0xbf, 0x41]) {
        for (const length of [1, 2, 3, 4]) {
          const bytes = new Uint8Array([lead, second, third, 0x80].slice(0, length));
          assertEquals(firstInvalidUtf8(bytes) < 0, valid(bytes), `bytes ${[...bytes]}`);
          checked++;
        }
      }
    }
  }
  assertEquals(checked, 256 * 10 * 3 * 4);
});
