// Issue 22, item 1: verify's "byte for byte" checks compare bytes. Each edit keeps the file's text readable and
// changes its bytes (a BOM, -0.0, a marker key); verify must fail the named check, with and without --dataset.

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, ROOT, runCli, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, REFERENCE_QA } from "../../helpers/fixture.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"];
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

async function copyRun(from: string, to: string): Promise<void> {
  for (const name of FILES) await Deno.copyFile(`${from}/${name}`, `${to}/${name}`);
}

async function prependBom(path: string): Promise<void> {
  const bytes = await Deno.readFile(path);
  await Deno.writeFile(path, new Uint8Array([...BOM, ...bytes]));
}

async function replaceText(path: string, from: string | RegExp, to: string): Promise<void> {
  const text = await Deno.readTextFile(path);
  const changed = text.replace(from, to);
  assert(changed !== text, `${from} not in ${path}`);
  await Deno.writeTextFile(path, changed);
}

interface Edit {
  what: string;
  change: (directory: string) => Promise<void>;
  /** The start of the ✗ line that must appear (the check's name). */
  failing: string;
  /** Only checked with the dataset (the field is not re-derived without it). */
  datasetOnly?: boolean;
}

const EDITS: Edit[] = [
  {
    what: "qa.rows.jsonl led by a UTF-8 BOM",
    change: (d) => prependBom(`${d}/qa.rows.jsonl`),
    failing: "✗ qa.rows.jsonl: byte for byte the canonical serialisation",
  },
  {
    what: "qa.summary.json led by a UTF-8 BOM",
    change: (d) => prependBom(`${d}/qa.summary.json`),
    failing: "✗ qa.summary.json: re-derived from the rows byte for byte",
  },
  {
    what: "qa.stats.json led by a UTF-8 BOM",
    change: (d) => prependBom(`${d}/qa.stats.json`),
    failing: "✗ qa.stats.json: re-derived from the rows byte for byte",
  },
  {
    what: "qa_run.json led by a UTF-8 BOM",
    change: (d) => prependBom(`${d}/qa_run.json`),
    failing: "✗ qa_run.json: ",
  },
  {
    what: "qa_run.json with an extra top-level key",
    change: (d) =>
      replaceText(`${d}/qa_run.json`, '"schema_version": 2', '"schema_version": 2,\n  "extra": 1'),
    failing: "✗ qa_run.json: ",
  },
  {
    what: "qa_run.json with an extra key in qa",
    change: (d) => replaceText(`${d}/qa_run.json`, '"workers": 3', '"workers": 3,\n    "extra": 1'),
    failing: "✗ qa_run.json: ",
  },
  {
    what: "a row's support_recall -0.0 where grade-qa writes 0.0",
    change: (d) => replaceText(`${d}/qa.rows.jsonl`, '"support_recall": 0.0', '"support_recall": -0.0'),
    failing: "✗ question_type, support_all_retained and support_recall re-derived",
    datasetOnly: true,
  },
];

for (const edit of EDITS) {
  for (
    const [base, withDataset] of [[PUBLISHED, false], [REFERENCE_QA, false], [REFERENCE_QA, true]] as const
  ) {
    // The published run's dataset is not in the repository; the fixture run is verified with its own.
    if (edit.datasetOnly && !withDataset) continue;
    const where = base === PUBLISHED
      ? "the published run"
      : `the fixture run${withDataset ? " --dataset" : ""}`;
    Deno.test(`verify on ${where}: ${edit.what} fails its check, exit 1`, async () => {
      await withTempDir(async (directory) => {
        await copyRun(base, directory);
        await edit.change(directory);
        const args = base === PUBLISHED ? [] : fixtureProtocolFlags();
        if (withDataset) args.push("--dataset", FIXTURE_DATASET);
        const result = await runCli(["verify", directory, ...args]);
        assertEquals(result.code, 1, result.stdout + result.stderr);
        const failing = result.stdout.split("\n").filter((line) => line.startsWith("✗ "));
        assert(failing.some((line) => line.startsWith(edit.failing)), failing.join("\n"));
        assertMatch(result.stdout, /NOT verified: \d+ of 9 checks failed\n$/);
      });
    });
  }
}
