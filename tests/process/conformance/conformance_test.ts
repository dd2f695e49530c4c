import { runConformance, VECTOR_CHECKERS } from "../../../lib/conformance/mod.ts";
import { doubleToHex, hexToDouble } from "../../../lib/conformance/float_bits.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { GOLDEN, runCli, unwrap } from "../../helpers/cli.ts";

const VECTORS = `${GOLDEN}/vectors`;

/** A temporary directory holding copies (or symlinks) of the named shared vector files. */
async function vectorDirectory(names: string[], options: { link?: boolean } = {}): Promise<string> {
  const directory = await Deno.makeTempDir();
  for (const name of names) {
    if (options.link) await Deno.symlink(`${VECTORS}/${name}`, `${directory}/${name}`);
    else await Deno.copyFile(`${VECTORS}/${name}`, `${directory}/${name}`);
  }
  return directory;
}

Deno.test("conformance CLI: text, --json and exit codes", async () => {
  const directory = await vectorDirectory(["bounded-number.jsonl", "stats.jsonl"]);
  const only = ["--only", "bounded-number.jsonl,stats.jsonl"];
  try {
    await Deno.writeTextFile(`${directory}/notes.txt`, "not a vector file\n");
    const text = await runCli(["conformance", directory, ...only]);
    assertEquals(text.code, 0, text.stderr);
    assertMatch(text.stdout, /✓ bounded-number\.jsonl 31\/31/);
    assertMatch(text.stdout, /✓ stats\.jsonl 60\/60/);
    assertMatch(text.stdout, /notes\.txt skipped/);
    assertMatch(text.stdout, /conformance: all checked files agree exactly$/m);
    const json = await runCli(["conformance", directory, ...only, "--json"]);
    const report = JSON.parse(json.stdout);
    assertEquals(
      report.files.map((file: { file: string; passed: number }) => `${file.file} ${file.passed}`),
      [
        "bounded-number.jsonl 31",
        "stats.jsonl 60",
      ],
    );
    assertEquals(report.skipped, ["notes.txt"]);

    const altered = (await Deno.readTextFile(`${VECTORS}/bounded-number.jsonl`)).replace(
      '{"expected": "3fe6666666666666", "input": 0.7}',
      '{"expected": "3fe6666666666667", "input": 0.7}',
    );
    await Deno.writeTextFile(`${directory}/bounded-number.jsonl`, altered);
    const failing = await runCli(["conformance", directory, ...only]);
    assertEquals(failing.code, 1);
    assertMatch(failing.stdout, /✗ bounded-number\.jsonl 30\/31/);
    assertMatch(
      failing.stdout,
      /bounded-number\.jsonl:1 .*expected: expected "3fe6666666666667", got "3fe6666666666666"/,
    );

    await Deno.writeTextFile(`${directory}/stats.jsonl`, "{oops\n");
    const malformed = await runCli(["conformance", directory, ...only]);
    assertEquals(malformed.code, 2);
    assertMatch(malformed.stderr, /stats\.jsonl: line 1: not valid JSON/);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("conformance fails, naming the files, when known files are missing, unless --only names the files meant", async () => {
  const directory = await vectorDirectory(["mt19937.jsonl"]);
  try {
    // The case: a directory with only mt19937.jsonl used to pass.
    const result = await runCli(["conformance", directory]);
    assertEquals(result.code, 1);
    for (const name of Object.keys(VECTOR_CHECKERS).filter((name) => name !== "mt19937.jsonl")) {
      assertMatch(result.stdout, new RegExp(`✗ ${name.replace(".", "\\.")}: missing from `));
    }
    assertMatch(result.stdout, /✓ mt19937\.jsonl 5\/5/);
    assertMatch(result.stdout, /conformance: FAILED$/m);
    const report = await runConformance(directory);
    assertEquals(report.missing.length, Object.keys(VECTOR_CHECKERS).length - 1);
    assertEquals(report.ok, false);

    const only = await runCli(["conformance", directory, "--only", "mt19937.jsonl"]);
    assertEquals(only.code, 0, only.stdout);
    // --only a file that is not there fails too, and an unknown name is bad usage.
    const absent = await runCli(["conformance", directory, "--only", "mt19937.jsonl,libm.jsonl"]);
    assertEquals(absent.code, 1);
    assertMatch(absent.stdout, /✗ libm\.jsonl: missing from /);
    const unknown = await runCli(["conformance", directory, "--only", "libm.json"]);
    assertEquals(unknown.code, 2);
    assertMatch(unknown.stderr, /--only: not a known vector file: "libm\.json"/);
    // A known file present but not named is reported as not checked.
    await Deno.copyFile(`${VECTORS}/stats.jsonl`, `${directory}/stats.jsonl`);
    const partial = await runCli(["conformance", directory, "--only", "mt19937.jsonl"]);
    assertEquals(partial.code, 0);
    assertMatch(partial.stdout, /- stats\.jsonl not checked: not named by --only/);
    assert(!partial.stdout.includes("✓ stats.jsonl"));
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("conformance fails on an empty known file and on a directory with no vector file", async () => {
  const directory = await vectorDirectory(["mt19937.jsonl"]);
  try {
    await Deno.writeTextFile(`${directory}/eviction.jsonl`, "");
    const empty = await runCli(["conformance", directory, "--only", "mt19937.jsonl,eviction.jsonl"]);
    assertEquals(empty.code, 1);
    assertMatch(empty.stdout, /✗ eviction\.jsonl 0\/0/);
    assertMatch(empty.stdout, /✗ eviction\.jsonl: empty \(no vector lines\)/);
    await Deno.writeTextFile(`${directory}/eviction.jsonl`, "\n  \n");
    const blank = await runConformance(directory, { only: ["eviction.jsonl"] });
    assertEquals([blank.ok, blank.problems], [false, ["eviction.jsonl: empty (no vector lines)"]]);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
  const bare = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${bare}/README.txt`, "no vectors here\n");
    const none = await runCli(["conformance", bare]);
    assertEquals(none.code, 1);
    assertMatch(none.stdout, new RegExp(`✗ ${bare}: holds no vector file`));
    assertMatch(none.stdout, /conformance: FAILED$/m);
  } finally {
    await Deno.remove(bare, { recursive: true });
  }
});

Deno.test("symlinked vector files are followed; a dangling one is named", async () => {
  const directory = await vectorDirectory(["mt19937.jsonl", "stats.jsonl"], { link: true });
  try {
    const result = await runCli(["conformance", directory, "--only", "mt19937.jsonl,stats.jsonl"]);
    assertEquals(result.code, 0, result.stdout + result.stderr);
    assertMatch(result.stdout, /✓ mt19937\.jsonl 5\/5/);
    assertMatch(result.stdout, /✓ stats\.jsonl 60\/60/);
    await Deno.symlink(`${directory}/nowhere.jsonl`, `${directory}/libm.jsonl`);
    const dangling = await runCli(["conformance", directory, "--only", "mt19937.jsonl"]);
    assertEquals(dangling.code, 2);
    assertMatch(dangling.stderr, /libm\.jsonl: cannot read vector file: a dangling symlink/);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("--tolerate-ulps: a copy of eviction.jsonl with one value moved by one ulp fails exactly, passes only as listed", async () => {
  const lines = (await Deno.readTextFile(`${VECTORS}/eviction.jsonl`)).split("\n");
  const index = lines.findIndex((line) => line.includes('"hybrid-v1"') && line.includes('"accessHeat"'));
  const record = JSON.parse(lines[index]);
  const [id, score] = Object.entries(record.expected.scores as Record<string, { value: string }>)[0];
  const moved = doubleToHex(nextUp(hexToDouble(score.value)));
  score.value = moved;
  lines[index] = JSON.stringify(record);
  const directory = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${directory}/eviction.jsonl`, lines.join("\n"));
    const only = ["--only", "eviction.jsonl"];
    const exact = await runCli(["conformance", directory, ...only]);
    assertEquals(exact.code, 1);
    assertMatch(exact.stdout, /✗ eviction\.jsonl 599\/600/);
    assertMatch(
      unwrap(exact.stdout),
      new RegExp(`eviction\\.jsonl:${index + 1} .*scores\\.${id}\\.value: expected "${moved}"`),
    );

    const tolerant = await runCli(["conformance", directory, ...only, "--tolerate-ulps", "1"]);
    assertEquals(tolerant.code, 0, tolerant.stdout);
    assertMatch(
      tolerant.stdout,
      /✓ eviction\.jsonl 600\/600 \(1 only within --tolerate-ulps 1, listed below\)/,
    );
    assertMatch(
      unwrap(tolerant.stdout),
      new RegExp(
        `eviction\\.jsonl:${index + 1} tolerated 1 ulp: scores\\.${id}\\.value: expected "${moved}"`,
      ),
    );
    assertMatch(
      tolerant.stdout,
      /conformance: all checked files agree, 1 line only within --tolerate-ulps 1$/m,
    );
    const report = JSON.parse(
      (await runCli(["conformance", directory, ...only, "--tolerate-ulps", "1", "--json"])).stdout,
    );
    assertEquals(report.files[0].tolerated, 1);
    assertEquals(report.files[0].toleratedLines.length, 1);
    assertEquals(report.files[0].toleratedLines[0].ulps, 1);

    const bad = await runCli(["conformance", directory, ...only, "--tolerate-ulps", "one"]);
    assertEquals(bad.code, 2);
    assertMatch(bad.stderr, /--tolerate-ulps: expected a whole number of ulps in \[0, 999999\], got "one"/);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

/** The next double up from a positive finite one. */
function nextUp(value: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}

Deno.test("conformance CLI passes on the whole shared vector directory", async () => {
  const result = await runCli(["conformance", VECTORS, "--json"]);
  assertEquals(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assertEquals(report.files.length, 13);
  assertEquals(report.problems, []);
  assertEquals(report.files.reduce((sum: number, file: { tolerated: number }) => sum + file.tolerated, 0), 0);
  assertEquals(report.ok, true);
});
