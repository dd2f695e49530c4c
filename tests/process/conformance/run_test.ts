import {
  checkVectorText,
  decodeVectorFile,
  readVectorFile,
  runConformance,
  VECTOR_CHECKERS,
} from "../../../lib/conformance/mod.ts";
import { VectorFormatError } from "../../../lib/conformance/mod.ts";
import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "../../helpers/assert.ts";
import { GOLDEN, runCli } from "../../helpers/cli.ts";

const VECTORS = `${GOLDEN}/vectors`;

// The golden tests of every module run through this one runner, so the CLI and the suite share a code path.
Deno.test("every shared reference vector agrees with this build, exactly: zero tolerated differences", async () => {
  const report = await runConformance(VECTORS, { strict: true });
  assertEquals(report.files.map((file) => file.file).sort(), Object.keys(VECTOR_CHECKERS).sort());
  for (const file of report.files) {
    assertEquals(
      file.coreFailures + file.exoticFailures,
      0,
      `${file.file}: ${JSON.stringify(file.mismatches)}`,
    );
    assertEquals(file.passed, file.total, file.file);
    assertEquals([file.tolerated, file.toleratedLines], [0, []], file.file);
    assert(file.total > 0, file.file);
  }
  assertEquals(report.files.find((file) => file.file === "libm.jsonl")?.total, 5580);
  assertEquals([report.skipped, report.missing, report.problems], [[], [], []]);
  assertEquals(report.tolerateUlps, 0);
  assert(report.ok);
});

Deno.test("a line that is not UTF-8 is bad input naming the file and line", async () => {
  const lines = (await Deno.readTextFile(`${VECTORS}/libm.jsonl`)).split("\n");
  const head = new TextEncoder().encode(`${lines.slice(0, 3).join("\n")}\n`);
  const bad = new Uint8Array([...head, 0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]); // {"\xff\xfe"} on line 4
  assertThrows(
    () => decodeVectorFile("libm.jsonl", bad),
    VectorFormatError,
    "libm.jsonl: line 4: not valid UTF-8",
  );
  const directory = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${directory}/libm.jsonl`, bad);
    const result = await runCli(["conformance", directory, "--only", "libm.jsonl"]);
    assertEquals(result.code, 2);
    assertMatch(result.stderr, /libm\.jsonl: line 4: not valid UTF-8/);
    assert(!result.stderr.includes("\ufffd") && !result.stderr.includes("missing field"));
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("vector files are read up to a cap; a larger one is refused, naming it", async () => {
  const directory = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${directory}/mt19937.jsonl`, "x".repeat(100));
    assertEquals((await readVectorFile(`${directory}/mt19937.jsonl`, 100)).length, 100);
    await assertRejects(
      () => readVectorFile(`${directory}/mt19937.jsonl`, 99),
      VectorFormatError,
      "mt19937.jsonl: larger than the 99-byte cap on a vector file",
    );
    await assertRejects(
      () => readVectorFile(`${directory}/absent.jsonl`),
      Error,
      "absent.jsonl: cannot read vector file: not found",
    );
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("a vector file led by a byte order mark fails its first line as not JSON, as Python's json.loads does", async () => {
  const text = decodeVectorFile(
    "bounded-number.jsonl",
    new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("{}\n")]),
  );
  assertEquals(text, "\ufeff{}\n");
  await assertRejects(
    () => checkVectorText("bounded-number.jsonl", text),
    VectorFormatError,
    "bounded-number.jsonl: line 1: not valid JSON",
  );
});
