/**
 * `report RUN RUN RUN`: three candidate runs of the fixture protocol against confidence (answered by a server
 * started here on 127.0.0.1, then graded) in one table — text, Markdown, HTML and JSON — and the one-line
 * refusal of a run with another baseline.
 */

import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";
import { holmAdjust } from "../../../lib/qa/grade/holm.ts";
import { answerServer, runQa } from "../../helpers/qa_runs.ts";

const MODULES = ["recency.ts", "oldest.ts", "first_ids.ts"].map((name) =>
  `${ROOT}tests/fixtures/policies/${name}`
);

async function candidateRun(directory: string, url: string, module: string, extra: string[] = []) {
  const ran = await runQa(directory, url, ["--policy-module", module, ...extra]);
  assertEquals(ran.code, 0, ran.stderr);
  const graded = await runCli(
    [
      "grade-qa",
      "--dataset",
      FIXTURE_DATASET,
      "--output-dir",
      directory,
      ...fixtureProtocolFlags(),
      "--policy-module",
      module,
    ],
    { flags: taskFlags("cli") },
  );
  assertEquals(graded.code, 0, graded.stderr);
}

Deno.test("report of three candidate runs: one table with Holm-adjusted p, in text, Markdown, HTML and JSON", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const runs = MODULES.map((_, index) => `${directory}/run${index}`);
      for (const [index, module] of MODULES.entries()) {
        await candidateRun(runs[index], server.url, module, index === 0 ? [] : ["--reuse", runs[0]]);
      }
      const args = ["report", ...runs, ...fixtureProtocolFlags()];
      const json = await runCli([...args, "--json"], { flags: taskFlags("cli") });
      assertEquals(json.code, 0, json.stderr);
      const document = JSON.parse(json.stdout);
      assertEquals(document.kind, "many-candidates");
      assertEquals(document.baseline, "confidence");
      assertEquals(document.candidates.length, 3);
      assertEquals(
        new Set(document.candidates.map((entry: { candidate: string }) => entry.candidate)),
        new Set(["recency", "oldest", "first-ids"]),
      );
      // Holm across the three, from their own McNemar p values; each run's figures are its qa.stats.json's.
      const raw = document.candidates.map((entry: { against_baseline: { mcnemar_p: number } }) =>
        entry.against_baseline.mcnemar_p
      );
      assertEquals(
        document.candidates.map((entry: { against_baseline: { holm_p: number } }) =>
          entry.against_baseline.holm_p
        ),
        holmAdjust(raw),
      );
      for (const entry of document.candidates) {
        const stats = JSON.parse(await Deno.readTextFile(`${entry.directory}/qa.stats.json`));
        assertEquals(entry.against_baseline.mcnemar_p, stats.suites.overall.mcnemar.p_value);
        assertEquals(
          entry.against_baseline.difference.mean_difference,
          stats.suites.overall.bootstrap.mean_difference,
        );
        assertEquals(entry.against_baseline.cases, 45);
      }
      // The rows reused from run 0 (its confidence answers) are counted, as each run's own verify counts them.
      let reused = 0;
      for (const run of runs) {
        const verified = await runCli(["verify", run, ...fixtureProtocolFlags(), "--json"], {
          flags: taskFlags("cli"),
        });
        reused += JSON.parse(verified.stdout).reused?.rows ?? 0;
      }
      assert(reused > 0);
      assertEquals(document.reused_rows, reused);
      assertStringIncludes(document.checked, ` ${reused} answer rows were taken from earlier runs`);
      // Best-supported first: improvements before the rest, then by Holm p.
      const key = (
        entry: { against_baseline: { holm_p: number; difference: { mean_difference: number } } },
      ) => [entry.against_baseline.difference.mean_difference > 0 ? 0 : 1, entry.against_baseline.holm_p];
      const keys = document.candidates.map(key);
      for (let index = 1; index < keys.length; index++) {
        const [a, b] = [keys[index - 1], keys[index]];
        assert(a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]), JSON.stringify(keys));
      }

      const text = await runCli(
        [...args, "--markdown", `${directory}/m.md`, "--html", `${directory}/m.html`],
        {
          flags: taskFlags("cli"),
        },
      );
      assertEquals(text.code, 0, text.stderr);
      const shown = await runCli(args, { flags: taskFlags("cli") });
      assertEquals(shown.code, 0, shown.stderr);
      assertStringIncludes(shown.stdout, "3 candidates against confidence");
      assertStringIncludes(shown.stdout, "Holm p");
      const markdown = await Deno.readTextFile(`${directory}/m.md`);
      assertStringIncludes(
        markdown,
        "| candidate | run | test | cases | confidence | candidate a/n | p | Holm p |",
      );
      const html = await Deno.readTextFile(`${directory}/m.html`);
      assertStringIncludes(html, "<th");
      for (const entry of document.candidates) {
        assertStringIncludes(markdown, entry.candidate);
        assertStringIncludes(html, entry.candidate);
        assertStringIncludes(shown.stdout, entry.against_baseline.holm_p.toFixed(4));
      }
      // The first row of each rendering is the best-supported candidate.
      const firstName = document.candidates[0].candidate;
      const markdownRows = markdown.split("\n").filter((line) =>
        line.startsWith("| ") && !line.startsWith("| candidate")
      );
      assert(markdownRows[1].startsWith(`| ${firstName} |`), markdownRows.join("\n"));

      // Another baseline: refused in one line, naming the run.
      const other = `${directory}/hybrid-baseline`;
      const ran = await runQa(other, server.url, [
        "--policy-module",
        MODULES[0],
        "--baseline",
        "hybrid-v1",
        "--limit",
        "2",
      ]);
      assertEquals(ran.code, 0, ran.stderr);
      const refused = await runCli(["report", runs[1], other, ...fixtureProtocolFlags()], {
        flags: taskFlags("cli"),
      });
      assertEquals(refused.code, 2, refused.stdout + refused.stderr);
      assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assertStringIncludes(
        refused.stderr,
        `${other}: compared with hybrid-v1, but ${runs[1]} with confidence`,
      );
      assertEquals(refused.stdout, "");
    });
  } finally {
    await server.close();
  }
});

Deno.test("report of runs under different protocols is refused in one line", async () => {
  await withTempDir(async (directory) => {
    const server = answerServer();
    try {
      await candidateRun(`${directory}/a`, server.url, MODULES[0]);
    } finally {
      await server.close();
    }
    // The embedded protocol is not the fixture's: the run is refused by its marker.
    const refused = await runCli(["report", `${directory}/a`, `${directory}/a`], { flags: taskFlags("cli") });
    assertEquals(refused.code, 2, refused.stdout + refused.stderr);
    assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    assertStringIncludes(refused.stderr, "this run was made under a different protocol");
  });
});
