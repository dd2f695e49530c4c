/** A failed re-derivation names the figure: the field, the file's value and the rows' value. */
import { figureDetail, verifyPolicyRun, verifyResults } from "../../../lib/verify/mod.ts";
import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { GOLDEN, ROOT, withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts } from "../../helpers/fixture.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const QA_FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"];

async function copyEdited(
  from: string,
  to: string,
  files: readonly string[],
  file: string,
  change: (text: string) => string,
): Promise<void> {
  for (const name of files) await Deno.copyFile(`${from}/${name}`, `${to}/${name}`);
  const text = await Deno.readTextFile(`${to}/${file}`);
  if (change(text) === text) throw new Error(`the edit of ${file} changed nothing`);
  await Deno.writeTextFile(`${to}/${file}`, change(text));
}

const detailOf = (checks: { name: string; detail?: string }[], file: string) =>
  checks.find((check) => check.name.startsWith(file))?.detail;

Deno.test("qa.summary.json and qa.stats.json edited: the check names the group's or suite's figure, file and rows", async () => {
  const contracts = await loadContracts(embeddedSources());
  await withTempDir(async (directory) => {
    await copyEdited(
      PUBLISHED,
      directory,
      QA_FILES,
      "qa.summary.json",
      (text) => text.replace('"correct": 3,', '"correct": 4,'),
    );
    const { checks } = await verifyResults(directory, contracts);
    assertEquals(
      detailOf(checks, "qa.summary.json"),
      "groups[longmemeval/access_help/confidence].correct: file 4, rows 3",
    );
  });
  await withTempDir(async (directory) => {
    await copyEdited(
      PUBLISHED,
      directory,
      QA_FILES,
      "qa.stats.json",
      (text) => text.replace('"only_second_correct": 13,', '"only_second_correct": 14,'),
    );
    const { checks } = await verifyResults(directory, contracts);
    assertEquals(
      detailOf(checks, "qa.stats.json"),
      "suites.official.mcnemar.only_second_correct: file 14, rows 13",
    );
  });
});

Deno.test("summary.json of a policy run edited: the group's figure is named", async () => {
  const fixture = await fixtureContracts();
  await withTempDir(async (directory) => {
    await copyEdited(
      `${GOLDEN}/fixture-run/policy`,
      directory,
      ["policy.raw.jsonl", "summary.json", "run.json"],
      "summary.json",
      (text) => text.replace('"support_all_retained": 0,', '"support_all_retained": 1,'),
    );
    const { checks } = await verifyPolicyRun(directory, fixture);
    assertEquals(
      detailOf(checks, "summary.json"),
      "groups[longmemeval/access_help/confidence/5].support_all_retained: file 1, rows 0",
    );
  });
});

Deno.test("figureDetail: several figures, a reordered list, and bytes that differ where values agree", () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const derived = JSON.stringify({ a: [1, 2, 3, 4], b: { c: 0.5 } });
  assertEquals(
    figureDetail(utf8(JSON.stringify({ a: [9, 8, 7, 6], b: { c: 0.5 } })), derived),
    "a[0]: file 9, rows 1; a[1]: file 8, rows 2; a[2]: file 7, rows 3; … (4 figures differ)",
  );
  const groups = (first: string, second: string) =>
    JSON.stringify({ groups: [{ scenario: first, n: 1 }, { scenario: second, n: 2 }] });
  assertEquals(
    figureDetail(utf8(groups("y", "x")), groups("x", "y")),
    "groups[y]: file y, rows x; groups[x]: file x, rows y",
  );
  assertEquals(figureDetail(utf8('{"a": 1.0}'), '{"a": 1}'), "first difference at byte 7");
  assertEquals(figureDetail(utf8('{"a": -0.0}'), '{"a": 0.0}'), "a: file -0.0, rows 0");
  assertEquals(figureDetail(utf8("{"), "{}"), "first difference at byte 1");
});

Deno.test("figureDetail: a file that is not UTF-8 is named by its first differing byte, never a replacement character", () => {
  const bytes = new Uint8Array([
    ...new TextEncoder().encode('{"a": "x'),
    0xff,
    ...new TextEncoder().encode('"}\n'),
  ]);
  const detail = figureDetail(bytes, '{"a": "xy"}\n');
  assertEquals(detail, "first difference at byte 8");
});
