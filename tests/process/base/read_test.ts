import { InputError, UnreadableFileError } from "../../../lib/base/errors.ts";
import { IoError } from "../../../lib/base/mod.ts";
import {
  ANSWER_BODY_CAP,
  ANSWER_ROW_CAP,
  CONTRACT_CAP,
  DATASET_CAP,
  GRADED_ROWS_CAP,
  INPUT_CAP,
  listDirectory,
  MIB,
  ReadBudget,
  readBytes,
  readBytesHashed,
  readText,
  readTextIfExists,
  refuseOverCap,
  SWEEP_OUTPUT_CAP,
  VECTOR_CAP,
} from "../../../lib/base/fs.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";
import { assert, assertEquals, assertRejects, assertThrows } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";

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

Deno.test("reads go through a cap: a large file is refused by its size", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeFile(`${directory}/f`, new Uint8Array(11));
    assertEquals((await readBytes(`${directory}/f`, "file", 11)).length, 11);
    await assertRejects(
      () => readBytes(`${directory}/f`, "vector file", 10),
      UnreadableFileError,
      "11 bytes, over the 10 bytes cap",
    );
    await assertRejects(() => readBytesHashed(`${directory}/f`, "dataset", 10), UnreadableFileError);
  });
});

Deno.test("a device or a FIFO is refused by its type before it is opened, never read or waited on", async () => {
  const device = await assertRejects(() => readBytes("/dev/zero", "config"), UnreadableFileError);
  assertEquals(device.message, "/dev/zero: config is a character device, not a regular file");
  await withTempDir(async (directory) => {
    const fifo = `${directory}/qa.rows.jsonl`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assertEquals(made.code, 0);
    // Opening a FIFO with no writer would block forever: each reader must refuse it on its type first.
    for (const read of [readBytes, readBytesHashed, readText, readTextIfExists]) {
      const error = await assertRejects(() => read(fifo, "graded rows"), UnreadableFileError);
      assertEquals(error.message, `${fifo}: graded rows is a FIFO, not a regular file`);
    }
    await Deno.symlink(fifo, `${directory}/link`);
    await assertRejects(
      () => readText(`${directory}/link`, "row"),
      UnreadableFileError,
      "is a FIFO, not a regular file",
    );
    await Deno.writeTextFile(`${directory}/real`, "{}\n");
    await Deno.symlink(`${directory}/real`, `${directory}/to-real`);
    assertEquals(await readText(`${directory}/to-real`), "{}\n", "a symlink to a regular file is read");
  });
});

Deno.test("a read budget shared by many files refuses the file that takes the total past it", async () => {
  await withTempDir(async (directory) => {
    for (const name of ["a", "b", "c"]) await Deno.writeFile(`${directory}/${name}`, new Uint8Array(4));
    const budget = new ReadBudget(10, "the run's answer rows", "qa.rows.jsonl");
    assertEquals((await readTextIfExists(`${directory}/a`, "answer row", INPUT_CAP, budget))?.length, 4);
    assertEquals((await readText(`${directory}/b`, "answer row", INPUT_CAP, budget)).length, 4);
    const error = await assertRejects(
      () => readTextIfExists(`${directory}/c`, "answer row", INPUT_CAP, budget),
      UnreadableFileError,
    );
    assertEquals(
      error.message,
      `${directory}/c: the run's answer rows total more than 10 bytes, the cap of qa.rows.jsonl`,
    );
  });
});

Deno.test("the caps: contracts small enough to bound the YAML reader, the graded rows one total for the run", () => {
  assertEquals([INPUT_CAP, VECTOR_CAP, DATASET_CAP], [16 * MIB, 64 * MIB, 128 * MIB]);
  assertEquals([CONTRACT_CAP, ANSWER_ROW_CAP, GRADED_ROWS_CAP, SWEEP_OUTPUT_CAP], [
    256 * 1024,
    16 * MIB,
    96 * MIB,
    192 * MIB,
  ]);
  assertEquals(ANSWER_BODY_CAP, 4 * MIB);
  // A row file holds one body's answer and usage, indented: room for a body at its cap, twice over.
  assertEquals(ANSWER_ROW_CAP >= 2 * ANSWER_BODY_CAP, true);
  // The run's rows together may hold at least one row file at its cap.
  assertEquals(GRADED_ROWS_CAP >= ANSWER_ROW_CAP, true);
});

Deno.test("refuseOverCap counts UTF-8 bytes, not UTF-16 units, and names the file and the cap", () => {
  refuseOverCap("r.jsonl", "graded rows", "é".repeat(5), 10);
  const error = assertThrows(
    () => refuseOverCap("r.jsonl", "graded rows", "é".repeat(6), 11),
    UnreadableFileError,
  );
  assertEquals(error.message, "r.jsonl: graded rows would be 12 bytes, over the 11 bytes cap");
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

Deno.test("text reads keep a leading UTF-8 BOM: the format's parser decides (json.load refuses, PyYAML skips)", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeFile(`${directory}/bom.json`, new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a]));
    assertEquals(await readText(`${directory}/bom.json`), "\ufeff{}\n");
    assertEquals(await readTextIfExists(`${directory}/bom.json`), "\ufeff{}\n");
  });
});

Deno.test("listDirectory orders names by code point, as Python sorts them, not by UTF-16 unit", async () => {
  const directory = await Deno.makeTempDir();
  try {
    for (const name of ["\u{1F600}.json", "\uFF5E.json", "a.json"]) {
      await Deno.writeTextFile(`${directory}/${name}`, "");
    }
    assertEquals(await listDirectory(directory), ["a.json", "\uFF5E.json", "\u{1F600}.json"]);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("a FIFO is refused before it is opened: never waited on", async () => {
  const directory = await Deno.makeTempDir();
  try {
    const fifo = `${directory}/rows.jsonl`;
    assert((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
    const error = await assertRejects(() => readBytes(fifo, "graded rows"), UnreadableFileError);
    assertEquals(error.message, `${fifo}: graded rows is a FIFO, not a regular file`);
    await assertRejects(() => readTextIfExists(fifo, "graded rows"), UnreadableFileError);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

/** Each cap of base/read.ts, spelled here in bytes, not taken from the constant under test. */
const CAPS_IN_BYTES: readonly [string, number, number][] = [
  ["INPUT_CAP", INPUT_CAP, 16 * 1024 * 1024],
  ["CONTRACT_CAP", CONTRACT_CAP, 256 * 1024],
  ["ANSWER_BODY_CAP", ANSWER_BODY_CAP, 4 * 1024 * 1024],
  ["ANSWER_ROW_CAP", ANSWER_ROW_CAP, 16 * 1024 * 1024],
  ["GRADED_ROWS_CAP", GRADED_ROWS_CAP, 96 * 1024 * 1024],
  ["DATASET_CAP", DATASET_CAP, 128 * 1024 * 1024],
  ["VECTOR_CAP", VECTOR_CAP, 64 * 1024 * 1024],
  ["SWEEP_OUTPUT_CAP", SWEEP_OUTPUT_CAP, 192 * 1024 * 1024],
];

/** A file of `size` bytes (sparse: it costs no disk), at `path`. */
async function fileOfSize(path: string, size: number): Promise<void> {
  await Deno.writeFile(path, new Uint8Array(0));
  await Deno.truncate(path, size);
}

for (const [name, cap, bytes] of CAPS_IN_BYTES) {
  Deno.test(`${name} at its boundary: a file of exactly ${bytes} bytes is read, one of ${bytes + 1} refused by its size`, async () => {
    await withTempDir(async (directory) => {
      const path = `${directory}/f`;
      await fileOfSize(path, bytes);
      assertEquals((await readBytes(path, "file", cap)).length, bytes);
      await fileOfSize(path, bytes + 1);
      const error = await assertRejects(() => readBytes(path, "file", cap), UnreadableFileError);
      assertEquals(
        error.message,
        `${path}: file is ${bytes + 1} bytes, over the ${
          bytes / MIB >= 1 ? `${bytes / MIB} MiB` : `${bytes / 1024} KiB`
        } cap`,
      );
    });
  });
}

Deno.test("a cap holds as the file is read, not only by its size: a file bigger than its stat says is read up to the cap, one byte more refused", async () => {
  // What procfs files and a file growing while read look like: a size smaller than what is read.
  const stat = Deno.FsFile.prototype.stat;
  Deno.FsFile.prototype.stat = async function () {
    return { ...await stat.call(this), size: 0 };
  };
  try {
    await withTempDir(async (directory) => {
      const path = `${directory}/f`;
      for (const cap of [1, 10, MIB, MIB + 1, 3 * MIB + 5]) {
        await fileOfSize(path, cap);
        assertEquals((await readBytes(path, "file", cap)).length, cap, `${cap} bytes`);
        await fileOfSize(path, cap + 1);
        await assertRejects(() => readBytes(path, "file", cap), UnreadableFileError, "is larger than the");
      }
      // A budget too holds on what is read: 11 bytes of a budget of 11 pass, of a budget of 10 the second file is refused.
      await Deno.writeFile(`${directory}/a`, new Uint8Array(6));
      await Deno.writeFile(`${directory}/b`, new Uint8Array(5));
      const exact = new ReadBudget(11, "the run's answer rows", "qa.rows.jsonl");
      await readBytes(`${directory}/a`, "answer row", INPUT_CAP, exact);
      await readBytes(`${directory}/b`, "answer row", INPUT_CAP, exact);
      const short = new ReadBudget(10, "the run's answer rows", "qa.rows.jsonl");
      await readBytes(`${directory}/a`, "answer row", INPUT_CAP, short);
      await assertRejects(
        () => readBytes(`${directory}/b`, "answer row", INPUT_CAP, short),
        UnreadableFileError,
      );
    });
  } finally {
    Deno.FsFile.prototype.stat = stat;
  }
});

Deno.test("refuseOverCap and a read budget at their boundaries: exactly the cap passes, one byte more is refused", async () => {
  refuseOverCap("r.jsonl", "graded rows", "é".repeat(5), 10);
  assertThrows(() => refuseOverCap("r.jsonl", "graded rows", `${"é".repeat(5)}a`, 10), UnreadableFileError);
  await withTempDir(async (directory) => {
    await Deno.writeFile(`${directory}/a`, new Uint8Array(6));
    await Deno.writeFile(`${directory}/b`, new Uint8Array(5));
    const exact = new ReadBudget(11, "the run's answer rows", "qa.rows.jsonl");
    await readBytes(`${directory}/a`, "answer row", INPUT_CAP, exact);
    await readBytes(`${directory}/b`, "answer row", INPUT_CAP, exact); // 11 of 11
    const short = new ReadBudget(10, "the run's answer rows", "qa.rows.jsonl");
    await readBytes(`${directory}/a`, "answer row", INPUT_CAP, short);
    await assertRejects(
      () => readBytes(`${directory}/b`, "answer row", INPUT_CAP, short),
      UnreadableFileError,
    );
  });
});
