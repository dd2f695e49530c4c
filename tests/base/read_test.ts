import { InputError, IoError, UnreadableFileError } from "../../lib/base/errors.ts";
import {
  DATASET_CAP,
  INPUT_CAP,
  listDirectory,
  MIB,
  readBytes,
  readBytesHashed,
  readText,
  readTextIfExists,
  VECTOR_CAP,
} from "../../lib/base/fs.ts";
import { sha256Hex } from "../../lib/base/hash.ts";
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { withTempDir } from "../helpers/cli.ts";

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
    assertEquals(error.message, `${fifo}: graded rows is a FIFO or socket, not a regular file`);
    await assertRejects(() => readTextIfExists(fifo, "graded rows"), UnreadableFileError);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});
