import { ContractError, UnreadableFileError } from "../../../lib/base/errors.ts";
import { parseOfficialManifest } from "../../../lib/protocol/manifest.ts";
import { jsonBomRefusal, parsePyJson } from "../../../lib/py/mod.ts";
import { checkMarker, demoGradedRun, gradedRowsJsonl } from "../../../lib/qa/mod.ts";
import { canonicalDifference } from "../../../lib/verify/row_checks.ts";
import {
  formatVerifyResult,
  NOT_REDERIVABLE,
  type VerifyResult,
  verifyResults,
} from "../../../lib/verify/mod.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, runCli, unwrap, withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts, fixtureTasks, REFERENCE_QA } from "../../helpers/fixture.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"];
const contracts = await fixtureContracts();
const tasks = await fixtureTasks(contracts);

async function copyRun(from: string, to: string): Promise<void> {
  for (const name of FILES) await Deno.copyFile(`${from}/${name}`, `${to}/${name}`);
}

async function edit(path: string, change: (text: string) => string): Promise<void> {
  const text = await Deno.readTextFile(path);
  const changed = change(text);
  assert(changed !== text, `the edit of ${path} changed nothing`);
  await Deno.writeTextFile(path, changed);
}

function failed(result: VerifyResult): string[] {
  return result.checks.filter((check) => check.verdict === "fail").map((check) =>
    `${check.name} — ${check.detail}`
  );
}

// Fitted to 100 columns when piped: each printed line joined back before it is read.
const lines = (text: string) => unwrap(text).split("\n").filter((line) => line !== "");

Deno.test("verify without the dataset proves structure and statistics, and says predictions and grades are not proved", async () => {
  await withTempDir(async (directory) => {
    await copyRun(REFERENCE_QA, directory);
    const result = await verifyResults(directory, contracts);
    assertEquals(failed(result), []);
    assertEquals(result.ok, true);
    assertEquals(result.scope, "structure-and-statistics");
    assertEquals(
      result.conclusion,
      "structure and statistics verified; predictions and grades need --dataset",
    );
    assertEquals(result.checks.filter((check) => check.verdict === "needs-dataset").length, 3);
    assertEquals(result.notRederivable, NOT_REDERIVABLE);
  });
});

Deno.test("verify --dataset re-derives every derivable field and names what is recorded, not re-derivable", async () => {
  await withTempDir(async (directory) => {
    await copyRun(REFERENCE_QA, directory);
    const result = await verifyResults(directory, contracts, tasks);
    assertEquals(failed(result), []);
    assertEquals(result.scope, "every-derivable-field");
    assert(result.checks.every((check) => check.verdict === "pass"));
    assertEquals(
      result.conclusion,
      "verified: every derivable field re-derived from the dataset; prediction (as the model's text), usage, attempts, response_model are recorded, not re-derivable",
    );
    const text = formatVerifyResult(result);
    assertEquals(text.split("\n").at(-2), `· recorded, not re-derivable: ${NOT_REDERIVABLE.join(", ")}`);
  });
});

// Each tamper keeps the file parseable; the named check (and only it, unless said) must catch it.
const TAMPERS: {
  what: string;
  file: string;
  change: (text: string) => string;
  /** A fragment of the failing check's line, without and with the dataset (undefined: that run passes). */
  without?: string;
  withDataset?: string;
}[] = [
  {
    what: "rows reordered",
    file: "qa.rows.jsonl",
    change: (text) => {
      const [first, second, ...rest] = lines(text);
      return [second, first, ...rest].join("\n") + "\n";
    },
    without: 'line 1: holds "05fdf179__hybrid-v1", expected 05fdf179__confidence',
    withDataset: "line 1: holds",
  },
  {
    what: "CRLF line ends",
    file: "qa.rows.jsonl",
    change: (text) => text.replaceAll("\n", "\r\n"),
    without: "line 1: ends with CR",
    withDataset: "line 1: ends with CR",
  },
  {
    what: "a key-order change",
    file: "qa.rows.jsonl",
    change: (text) => text.replace('{"attempts": 1, "capacity": 7,', '{"capacity": 7, "attempts": 1,'),
    without: "line 1: row 05fdf179__confidence is not in canonical form",
    withDataset: "not in canonical form",
  },
  {
    what: "spacing",
    file: "qa.rows.jsonl",
    change: (text) => text.replace('"grade_rule": "exact"', '"grade_rule":"exact"'),
    without: "not in canonical form",
    withDataset: "not in canonical form",
  },
  {
    what: "a blank line",
    file: "qa.rows.jsonl",
    change: (text) => text + "\n",
    without: "extra content after the last row",
    withDataset: "extra content after the last row",
  },
  {
    what: "an empty line between rows",
    file: "qa.rows.jsonl",
    change: (text) => text.replace("\n", "\n\n"),
    without: "line 2: an empty line",
    withDataset: "line 2: an empty line",
  },
  {
    what: "a duplicated row",
    file: "qa.rows.jsonl",
    change: (text) => text + lines(text)[0] + "\n",
    without: "must have exactly one row per policy",
    withDataset: "must have exactly one row per policy",
  },
  {
    what: "no final line end",
    file: "qa.rows.jsonl",
    change: (text) => text.slice(0, -1),
    without: "line 90: the file must end with \\n",
    withDataset: "line 90: the file must end with \\n",
  },
  {
    what: "a kept fact removed",
    file: "qa.rows.jsonl",
    change: (text) => text.replace('"kept_fact_ids": ["d_05fdf179_0_07a19ea9", ', '"kept_fact_ids": ['),
    without: "05fdf179__confidence: 6 kept facts, the QA capacity is 7",
    withDataset: "kept_fact_ids differs from the recomputed task",
  },
  {
    what: "support_recall",
    file: "qa.rows.jsonl",
    change: (text) => text.replace('"support_recall": 1.0', '"support_recall": 0.0'),
    withDataset: "05fdf179__confidence: support_recall is 0, recomputed 1",
  },
  {
    what: "support_recall -0.0 where grade-qa writes 0.0",
    file: "qa.rows.jsonl",
    change: (text) => text.replace('"support_recall": 0.0', '"support_recall": -0.0'),
    withDataset: "0631cb30__confidence: support_recall is -0.0, recomputed 0",
  },
  {
    what: "an extra top-level marker key",
    file: "qa_run.json",
    change: (text) => text.replace('"schema_version": 2', '"schema_version": 2,\n  "extra": 1'),
    without: "qa_run.json: (root): unknown key(s): extra",
    withDataset: "unknown key(s): extra",
  },
  {
    what: "an extra key in the marker's qa block",
    file: "qa_run.json",
    change: (text) => text.replace('"workers": 3', '"workers": 3,\n    "extra": 1'),
    without: "qa_run.json: qa: unknown key(s): extra",
    withDataset: "qa: unknown key(s): extra",
  },
  {
    what: "a missing marker key",
    file: "qa_run.json",
    change: (text) => text.replace(/\n {2}"created_at": "[^"]+",/, ""),
    without: "qa_run.json: created_at:",
    withDataset: "created_at",
  },
  {
    what: "a prediction",
    file: "qa.rows.jsonl",
    change: (text) => text.replace('"prediction": "7"', '"prediction": "8"'),
    withDataset: "05fdf179__confidence: grade true/exact but re-grading gives false/",
  },
  {
    what: "usage and attempts",
    file: "qa.rows.jsonl",
    change: (text) =>
      text.replace('{"attempts": 1,', '{"attempts": 3,').replace('"total_tokens": 913', '"total_tokens": 1'),
  },
  {
    what: "the marker's schema version",
    file: "qa_run.json",
    change: (text) => text.replace('"schema_version": 2', '"schema_version": 9'),
    without: "qa_run.json: schema_version:",
    withDataset: "schema_version",
  },
  {
    what: "the marker's protocol id",
    file: "qa_run.json",
    change: (text) => text.replace('"protocol_id": "deermem-fixture-v1"', '"protocol_id": "other"'),
    without:
      'qa_run.json: protocol_id: this run was made under a different protocol: expected "deermem-fixture-v1", got "other"',
    withDataset: "protocol_id",
  },
  {
    what: "the marker's model",
    file: "qa_run.json",
    change: (text) => text.replace('"model": "deepseek-v4-flash"', '"model": "other-model"'),
    without:
      'qa_run.json: qa.model: this run was made under a different protocol: expected "deepseek-v4-flash"',
    withDataset: "qa.model",
  },
  {
    what: "an extra artifact key",
    file: "qa_run.json",
    change: (text) => text.replace('"artifacts": {', '"artifacts": {\n    "extra_sha256": "00",'),
    without: "qa_run.json: artifacts: unknown key(s): extra_sha256",
    withDataset: "extra_sha256",
  },
  {
    what: "a missing artifact key",
    file: "qa_run.json",
    change: (text) => text.replace(/\n {4}"dataset_sha256": "[0-9a-f]+",/, ""),
    without: "qa_run.json: artifacts.dataset_sha256:",
    withDataset: "artifacts.dataset_sha256",
  },
];

for (const tamper of TAMPERS) {
  Deno.test(`verify, tampered ${tamper.what}: ${tamper.without ?? "passes"} / ${tamper.withDataset ?? "passes"}`, async () => {
    await withTempDir(async (directory) => {
      await copyRun(REFERENCE_QA, directory);
      await edit(`${directory}/${tamper.file}`, tamper.change);
      for (const [expected, given] of [[tamper.without, undefined], [tamper.withDataset, tasks]] as const) {
        const result = await verifyResults(directory, contracts, given);
        if (expected === undefined) {
          assertEquals(failed(result), [], "this edit cannot be caught: it must pass, and say so");
          assert(result.ok);
          assert(!result.conclusion.includes("every check holds"));
          if (given !== undefined) assertStringIncludes(result.conclusion, "usage, attempts");
        } else {
          assert(!result.ok, `not caught ${given ? "with" : "without"} the dataset`);
          assertStringIncludes(failed(result).join("\n"), expected);
          assertMatch(result.conclusion, /^NOT verified: \d+ of \d+ checks failed$/);
        }
      }
    });
  });
}

Deno.test("verify on an empty qa.rows.jsonl fails its checks without an exception", async () => {
  await withTempDir(async (directory) => {
    await copyRun(REFERENCE_QA, directory);
    await Deno.writeTextFile(`${directory}/qa.rows.jsonl`, "");
    const result = await verifyResults(directory, contracts, tasks);
    assertStringIncludes(failed(result).join("\n"), "— no rows");
    assertStringIncludes(
      failed(result).join("\n"),
      "qa.stats.json: re-derived from the rows byte for byte — not derived",
    );
  });
});

Deno.test("verify refuses a rows file with invalid UTF-8, naming the file and the line", async () => {
  await withTempDir(async (directory) => {
    await copyRun(REFERENCE_QA, directory);
    const bytes = await Deno.readFile(`${directory}/qa.rows.jsonl`);
    const at = new TextDecoder().decode(bytes).indexOf('"prediction": "7"') + '"prediction": "'.length;
    bytes[at] = 0xff;
    await Deno.writeFile(`${directory}/qa.rows.jsonl`, bytes);
    const error = await assertRejects(() => verifyResults(directory, contracts), UnreadableFileError);
    assertEquals(error.message, `${directory}/qa.rows.jsonl: not valid UTF-8: line 1, byte offset ${at}`);
  });
});

Deno.test("verify CLI on the published results: each check listed, the closing line says what was proved", async () => {
  const result = await runCli(["verify", "results/pr4789-reproduction-v1"]);
  assertEquals(result.code, 0, result.stdout + result.stderr);
  const output = lines(result.stdout);
  assertEquals(output.filter((line) => line.startsWith("✓ ")).length, 6);
  assertEquals(output.filter((line) => line.endsWith("— needs --dataset")).length, 3);
  assertEquals(output.at(-1), "structure and statistics verified; predictions and grades need --dataset");
  assert(!result.stdout.includes("every check holds"));
});

Deno.test("verify CLI: a tampered prediction in the published rows is not claimed as verified", async () => {
  await withTempDir(async (directory) => {
    await copyRun(PUBLISHED, directory);
    await edit(
      `${directory}/qa.rows.jsonl`,
      (text) => text.replace('"prediction": "25"', '"prediction": "26"'),
    );
    const result = await runCli(["verify", directory]);
    assertEquals(result.code, 0, result.stdout + result.stderr);
    assertEquals(
      lines(result.stdout).at(-1),
      "structure and statistics verified; predictions and grades need --dataset",
    );
    await edit(`${directory}/qa.summary.json`, (text) => text.replace('"correct": 3,', '"correct": 4,'));
    const summary = await runCli(["verify", directory]);
    assertEquals(summary.code, 1);
    assertMatch(
      unwrap(summary.stdout),
      /^✗ qa\.summary\.json: re-derived from the rows byte for byte — groups\[longmemeval\/access_help\/confidence\]\.correct: file 4, rows 3$/m,
    );
    assertMatch(summary.stdout, /NOT verified: 1 of 9 checks failed\n$/);
  });
});

Deno.test("verify CLI --dataset: a case_id swap is caught per row", async () => {
  await withTempDir(async (directory) => {
    await copyRun(`${GOLDEN}/fixture-run/qa`, directory);
    await edit(
      `${directory}/qa.rows.jsonl`,
      (text) =>
        text.replace('"case_id": "05fdf179"', '"case_id": "@"').replace(
          '"case_id": "06d002db"',
          '"case_id": "05fdf179"',
        )
          .replace('"case_id": "@"', '"case_id": "06d002db"'),
    );
    const result = await runCli([
      "verify",
      directory,
      "--dataset",
      `${GOLDEN}/fixture/longmemeval-fixture.json`,
      ...fixtureProtocolFlags(),
    ]);
    assertEquals(result.code, 1);
    assertMatch(unwrap(result.stdout), /05fdf179__\S+: case_id differs from the recomputed task/);
  });
});

Deno.test("one BOM rule: every JSON reader refuses a leading BOM in Python's words, as not valid JSON", async () => {
  const refusal = "not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)";
  assertEquals(`not valid JSON: ${jsonBomRefusal("\ufeff{}")}`, refusal);
  assertEquals(assertThrows(() => parsePyJson("\ufeff{}"), SyntaxError).message, jsonBomRefusal("\ufeff"));
  const manifest = assertThrows(() => parseOfficialManifest("\ufeff{}", "official.json"), ContractError);
  assertEquals(manifest.message, `official.json: ${refusal}`);
  const marker = assertThrows(() => checkMarker("\ufeff{}", "run/qa_run.json", contracts), ContractError);
  assertEquals(marker.message, `run/qa_run.json: ${refusal}`);
  const { rows } = await demoGradedRun();
  const bytes = new TextEncoder().encode(`\ufeff${gradedRowsJsonl(rows)}`);
  assertEquals(canonicalDifference(bytes, rows), `line 1: ${refusal}`);
});
