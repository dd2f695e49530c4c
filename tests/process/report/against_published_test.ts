/**
 * `report CANDIDATE_RUN --against results/pr4789-reproduction-v1`: a candidate run under the published protocol
 * (made here from the published rows: hybrid-v1's renamed as the candidate, one case changed) beside the
 * published run, from the repository's copy and from the one embedded in the program.
 */

import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { PUBLISHED_FILES, PUBLISHED_RUN } from "../../../lib/protocol/published.ts";
import { type GradedRow, gradedRowsJsonl, parseGradedRows, qaStats, qaSummary } from "../../../lib/qa/mod.ts";
import { compareCodePoints } from "../../../lib/py/json.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  assertStringIncludes,
  assertThrows,
} from "../../helpers/assert.ts";
import { InputError } from "../../../lib/base/errors.ts";
import { publishedComparisonSections, sectionsText } from "../../../lib/report/mod.ts";
import { runCli, unwrap, withTempDir } from "../../helpers/cli.ts";
import { comparePublished } from "../../../lib/report/compare/against_published.ts";

const SHA = "ab".repeat(32);

async function candidateRun(directory: string): Promise<{ rows: GradedRow[]; changed: string }> {
  const { config } = await loadContracts(embeddedSources());
  const published = parseGradedRows(PUBLISHED_FILES["qa.rows.jsonl"], "qa.rows.jsonl", config);
  // A case both policies answered correctly: the candidate's answer there is made wrong.
  const changed =
    published.find((row) => row.policy === "hybrid-v1" && row.grade_correct && row.source === "longmemeval")!
      .case_id;
  const rows = published.map((row): GradedRow => {
    if (row.policy !== "hybrid-v1") return row;
    const renamed: GradedRow = {
      ...row,
      policy: "recency",
      policy_module: "recency.ts",
      policy_module_sha256: SHA,
      row_id: `${row.case_id}__recency`,
    };
    return row.case_id === changed
      ? { ...renamed, prediction: "INSUFFICIENT", grade_correct: false, grade_rule: "insufficient" }
      : renamed;
  }).sort((a, b) => compareCodePoints(a.row_id, b.row_id));
  const pair = ["confidence", "recency"] as const;
  const marker = JSON.parse(PUBLISHED_FILES["qa_run.json"]);
  const candidate = {
    baseline: "confidence",
    policy: "recency",
    policy_module: "recency.ts",
    policy_module_sha256: SHA,
  };
  await Deno.writeTextFile(
    `${directory}/qa_run.json`,
    JSON.stringify({ ...marker, candidate }, null, 2) + "\n",
  );
  await Deno.writeTextFile(`${directory}/qa.rows.jsonl`, gradedRowsJsonl(rows));
  await Deno.writeTextFile(`${directory}/qa.summary.json`, qaSummary(rows, config));
  await Deno.writeTextFile(`${directory}/qa.stats.json`, qaStats(rows, config, pair));
  return { rows: published, changed };
}

for (const where of ["the repository's copy", "the embedded copy", "the embedded copy, named ./…/"]) {
  Deno.test(`report CANDIDATE_RUN --against ${PUBLISHED_RUN} (${where}): suites beside the published policies, differing rows and why`, async () => {
    await withTempDir(async (directory) => {
      await Deno.mkdir(`${directory}/run`);
      const { rows, changed } = await candidateRun(`${directory}/run`);
      const cwd = where.startsWith("the embedded copy") ? directory : undefined;
      const named = where.endsWith("./…/") ? `./${PUBLISHED_RUN}/` : PUBLISHED_RUN;
      const result = await runCli(["report", `${directory}/run`, "--against", named], { cwd });
      assertEquals(result.code, 0, result.stderr);
      const out = unwrap(result.stdout);
      assertStringIncludes(out, `(candidate recency) against the published run ${named}`);
      const official = rows.filter((row) => row.source === "longmemeval");
      const correct = (policy: string) =>
        official.filter((row) => row.policy === policy && row.grade_correct).length;
      const cases = official.length / 2;
      const line = out.split("\n").find((text) => /^\s+longmemeval\s/.test(text))!;
      const cells = line.trim().split(/\s{2,}/);
      assertEquals(cells.slice(0, 5), [
        "longmemeval",
        String(cases),
        `${correct("hybrid-v1") - 1}/${cases}`,
        `${correct("hybrid-v1")}/${cases}`,
        `${correct("confidence")}/${cases}`,
      ]);
      assertMatch(out, /recency differs from the published hybrid-v1 on 1 cases and from confidence on \d+/);
      // The table is fitted to 100 columns: its "differs in" column is a group of its own, and a cell may
      // continue on the lines below its row (read by the header's column offsets).
      const lines = result.stdout.split("\n");
      const rowsOfCase = lines.filter((text) => text.trimStart().startsWith(changed));
      assert(rowsOfCase.some((text) => text.includes("hybrid-v1: prediction, grade")), rowsOfCase.join("\n"));
      const header = lines.find((text) => /\bsupport kept\s+grade\b/.test(text))!;
      const [from, to] = [header.indexOf("grade"), header.indexOf("recency answer")];
      const first = lines.findIndex((text) => text.trimStart().startsWith(changed));
      let grade = lines[first].slice(from, to).trim();
      for (let next = first + 1; /^\s{20}/.test(lines[next]); next++) {
        grade += ` ${lines[next].slice(from, to).trim()}`;
      }
      assertEquals(grade.replace(/\s+/g, " ").trim(), "wrong / correct / correct");
      assertStringIncludes(
        out,
        `the baseline confidence here has the published prediction and grade on ${cases + 5} of ${
          cases + 5
        } cases`,
      );
    });
  });
}

Deno.test("comparePublished refuses a candidate run that shares none of the published run's cases", async () => {
  const { config } = await loadContracts(embeddedSources());
  const published = parseGradedRows(PUBLISHED_FILES["qa.rows.jsonl"], "qa.rows.jsonl", config);
  const elsewhere = published.map((row) => ({ ...row, case_id: `x${row.case_id}` }));
  assertThrows(
    () =>
      comparePublished(
        { directory: "run", policies: ["confidence", "hybrid-v1"] },
        elsewhere,
        "published",
        published,
        config.statistics,
      ),
    InputError,
    "published: holds none of this run's cases",
  );
});

Deno.test("comparePublished: exact McNemar and the seeded bootstrap on the shared cases, against each published policy", async () => {
  const { config } = await loadContracts(embeddedSources());
  const published = parseGradedRows(PUBLISHED_FILES["qa.rows.jsonl"], "qa.rows.jsonl", config);
  await withTempDir(async (directory) => {
    const { changed } = await candidateRun(directory);
    const candidateRows = parseGradedRows(
      await Deno.readTextFile(`${directory}/qa.rows.jsonl`),
      "qa.rows.jsonl",
      config,
      ["confidence", "recency"],
    );
    const comparison = comparePublished(
      { directory, policies: ["confidence", "recency"] },
      candidateRows,
      "published",
      published,
      config.statistics,
    );
    // Against the published confidence (the candidate run's own baseline, row for row): what grade-qa recorded.
    const own = JSON.parse(await Deno.readTextFile(`${directory}/qa.stats.json`)).suites;
    for (const suite of comparison.suites) {
      const paired = suite.paired["confidence"]!;
      assertEquals(paired.mcnemar, own[suite.name].mcnemar);
      const { mean_difference, lower, upper } = own[suite.name].bootstrap;
      assertEquals(paired.bootstrap, { mean_difference, lower, upper });
    }
    // Against the published hybrid-v1 (its rows, one case made wrong): one discordant pair, won by hybrid-v1.
    const official = comparison.suites.find((suite) => suite.name === "official")!;
    assertEquals(official.paired["hybrid-v1"]!.mcnemar.only_first_correct, 1);
    assertEquals(official.paired["hybrid-v1"]!.mcnemar.only_second_correct, 0);
    assertEquals(official.paired["hybrid-v1"]!.mcnemar.p_value, 1);
    // Each accuracy its own mean, then subtracted (as qa.stats.json computes it).
    const hybrid = official.published["hybrid-v1"];
    assertEquals(
      official.paired["hybrid-v1"]!.bootstrap.mean_difference,
      (hybrid - 1) / official.cases - hybrid / official.cases,
    );
    assert(changed.length > 0);
    const text = sectionsText("c", publishedComparisonSections(comparison));
    assertStringIncludes(text, "recency against each published policy on the 45 cases both runs hold");
    assertMatch(text, /\n\s+longmemeval\s+40\s+published hybrid-v1\s+0 \/ 1\s+1\.0000\s+-0\.025\s+\[/);
  });
});
