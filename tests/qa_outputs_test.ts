import { embeddedSources, loadContracts } from "../lib/contracts.ts";
import { gradeAnswer } from "../lib/grading.ts";
import { parseGradedRows, qaStats, qaSummary } from "../lib/qa_outputs.ts";
import { assertEquals, assertMatch } from "./helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, runCli } from "./helpers/cli.ts";

const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const contracts = await loadContracts(embeddedSources());

Deno.test("the grader is blind by construction: two strings in", () => {
  assertEquals(gradeAnswer.length, 2);
});

Deno.test("published qa.summary.json and qa.stats.json re-derive byte for byte from the published rows", async () => {
  const rows = parseGradedRows(
    await Deno.readTextFile(`${PUBLISHED}/qa.rows.jsonl`),
    "qa.rows.jsonl",
    contracts.config,
  );
  assertEquals(rows.length, 90);
  assertEquals(qaSummary(rows, contracts.config), await Deno.readTextFile(`${PUBLISHED}/qa.summary.json`));
  assertEquals(qaStats(rows, contracts.config), await Deno.readTextFile(`${PUBLISHED}/qa.stats.json`));
});

async function copyResults(): Promise<string> {
  const directory = await Deno.makeTempDir({ prefix: "deermem-eval-verify-" });
  for (const name of ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"]) {
    await Deno.copyFile(`${PUBLISHED}/${name}`, `${directory}/${name}`);
  }
  return directory;
}

async function edit(path: string, change: (text: string) => string) {
  const text = await Deno.readTextFile(path);
  const changed = change(text);
  assertEquals(changed !== text, true, `the edit of ${path} changed nothing`);
  await Deno.writeTextFile(path, changed);
}

Deno.test("verify passes on the shipped published results with the embedded protocol", async () => {
  const result = await runCli(["verify", "results/pr4789-reproduction-v1"]);
  assertEquals(result.code, 0, result.stdout + result.stderr);
  assertMatch(result.stdout, /verified: every check holds/);
});

const TAMPERS: [string, string, (text: string) => string, RegExp][] = [
  [
    "a row's grade",
    "qa.rows.jsonl",
    (t) => t.replace('"grade_correct": true', '"grade_correct": false'),
    /✗ qa\.summary\.json re-derived/,
  ],
  [
    "a summary count",
    "qa.summary.json",
    (t) => t.replace('"correct": 3,', '"correct": 4,'),
    /✗ qa\.summary\.json re-derived/,
  ],
  [
    "a stats byte",
    "qa.stats.json",
    (t) => t.replace('"p_value": 0.125', '"p_value": 0.1250001'),
    /✗ qa\.stats\.json re-derived/,
  ],
  [
    "an artifact hash",
    "qa_run.json",
    (t) => t.replace('"config_sha256": "e0bc', '"config_sha256": "f0bc'),
    /✗ qa_run\.json.*differ: config_sha256/,
  ],
];

for (const [what, file, change, failure] of TAMPERS) {
  Deno.test(`verify fails, naming the check, when ${what} is altered`, async () => {
    const directory = await copyResults();
    try {
      await edit(`${directory}/${file}`, change);
      const result = await runCli(["verify", directory]);
      assertEquals(result.code, 1, result.stdout);
      assertMatch(result.stdout, failure);
      assertMatch(result.stdout, /NOT verified/);
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  });
}

Deno.test("verify --dataset re-grades all 90 fixture rows to the reference's verdicts and checks fingerprints", async () => {
  const args = [
    "verify",
    `${GOLDEN}/fixture-run/qa`,
    "--dataset",
    `${GOLDEN}/fixture/longmemeval-fixture.json`,
    ...fixtureProtocolFlags(),
  ];
  const result = await runCli(args);
  assertEquals(result.code, 0, result.stdout + result.stderr);
  assertMatch(result.stdout, /✓ every row matches its recomputed task/);

  const directory = await Deno.makeTempDir();
  try {
    for (const name of ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"]) {
      await Deno.copyFile(`${GOLDEN}/fixture-run/qa/${name}`, `${directory}/${name}`);
    }
    // Swap two rows' case_ids (both still valid cases): only the per-row check can see it.
    await edit(
      `${directory}/qa.rows.jsonl`,
      (text) =>
        text.replace('"case_id": "05fdf179"', '"case_id": "@"').replace(
          '"case_id": "06d002db"',
          '"case_id": "05fdf179"',
        )
          .replace('"case_id": "@"', '"case_id": "06d002db"'),
    );
    const tampered = await runCli([...args.slice(0, 1), directory, ...args.slice(2)]);
    assertEquals(tampered.code, 1);
    assertMatch(tampered.stdout, /05fdf179__\S+: case_id differs from the recomputed task/);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});
