/**
 * `run-qa --epochs K` through grade-qa, verify and report: the demo protocol at temperature 0.7 (its config edited
 * in a temporary copy) answered three times by the stand-in, graded, verified and reported in every format; the
 * case-level p checked against an exact count written here; K = 1 a plain run; reuse by run number.
 */

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { exists } from "../../../lib/base/mod.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";
import { answerServer, runQa } from "../../helpers/qa_runs.ts";

const RUN_QA = { flags: taskFlags("run-qa") };
const CLI = { flags: taskFlags("cli") };

/** The demo protocol with the config's temperature set to `temperature`. */
async function demoProtocol(directory: string, temperature: string): Promise<string[]> {
  const protocol = `${directory}/protocol`;
  await writeDemoProtocol(protocol, await buildDemoProtocol());
  const config = `${protocol}/configs/demo-synthetic-v1.yaml`;
  const text = await Deno.readTextFile(config);
  assert(/^ {2}temperature: 0$/m.test(text));
  await Deno.writeTextFile(config, text.replace(/^ {2}temperature: 0$/m, `  temperature: ${temperature}`));
  return ["--protocol", protocol];
}

/**
 * The two-sided sign-flip p by its generating function: the product over cases of (x^-|d| + x^|d|) / 2, kept as
 * exact counts in a map from sum to number of sign assignments.
 */
function exactSignFlip(differences: readonly number[]): number {
  let counts = new Map<number, bigint>([[0, 1n]]);
  let assignments = 1n;
  for (const d of differences) {
    if (d === 0) continue;
    const next = new Map<number, bigint>();
    for (const [sum, count] of counts) {
      for (const signed of [sum + d, sum - d]) next.set(signed, (next.get(signed) ?? 0n) + count);
    }
    counts = next;
    assignments *= 2n;
  }
  const observed = Math.abs(differences.reduce((a, b) => a + b, 0));
  let extreme = 0n;
  for (const [sum, count] of counts) if (Math.abs(sum) >= observed) extreme += count;
  return Number(extreme) / Number(assignments);
}

Deno.test("--epochs 3 on the stand-in at temperature 0.7: run-qa, grade-qa, verify, report in four formats; the p is an exact count of its per_case", async () => {
  await withTempDir(async (directory) => {
    const protocol = await demoProtocol(directory, "0.7");
    const run = `${directory}/k3`;
    const dry = await runCli(["run-qa", "--dry-run", ...protocol, "--epochs", "3"], RUN_QA);
    assertEquals(dry.code, 0, dry.stderr);
    assertMatch(dry.stdout, /^dry run: 3 runs × 90 tasks, \d+ characters of messages, 270 call\(s\) needed/m);
    assertMatch(dry.stdout, /^estimate: \d+ prompt tokens for 270 call\(s\)/m);
    const answered = await runCli(
      ["run-qa", "--stand-in", ...protocol, "--epochs", "3", "--output-dir", run],
      RUN_QA,
    );
    assertEquals(answered.code, 0, answered.stderr);
    assertMatch(answered.stdout, /^answer rows: 0 reused, 270 called, 0 failed$/m);
    // Piped, each run's status line and each call's line name the run.
    for (const index of [1, 2, 3]) {
      assertStringIncludes(answered.stderr, `\nrun ${index}/3: 90 tasks: 0 stored rows reused, 90 to call\n`);
      assertMatch(
        answered.stderr,
        new RegExp(`^run ${index}/3: \\[90/90\\] \\S+: answered \\(1 attempt`, "m"),
      );
    }
    for (const sub of ["", "/epoch-2", "/epoch-3"]) {
      assertEquals([...Deno.readDirSync(`${run}${sub}/responses`)].length, 90, sub);
    }
    const refused = await runCli(
      ["run-qa", "--stand-in", ...protocol, "--epochs", "2", "--output-dir", run],
      RUN_QA,
    );
    assertEquals(refused.code, 2);
    assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    assertStringIncludes(refused.stderr, "epochs.json: epochs: holds 3 runs, --epochs asks for 2");

    // A bad row in run 3 refuses the three runs: no run's graded files are published.
    const gradedNames = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"];
    const published = async () => {
      const found: string[] = [];
      for (const sub of ["", "/epoch-2", "/epoch-3"]) {
        for (const name of gradedNames) {
          if (await exists(`${run}${sub}/${name}`)) found.push(`${sub}/${name}`);
        }
      }
      return found;
    };
    const badRow = `${run}/epoch-3/responses/${[...Deno.readDirSync(`${run}/epoch-3/responses`)][0].name}`;
    const rowText = await Deno.readTextFile(badRow);
    await Deno.writeTextFile(badRow, "{");
    const bad = await runCli(["grade-qa", ...protocol, "--output-dir", run], CLI);
    assertEquals(bad.code, 2, bad.stderr);
    assertEquals(bad.stderr.trim().split("\n").length, 1, bad.stderr);
    assertStringIncludes(bad.stderr, badRow);
    assertEquals(await published(), []);
    await Deno.writeTextFile(badRow, rowText);

    // A stray file in run 2's responses/ is named in a warning that names run 2 and its own directory.
    await Deno.writeTextFile(`${run}/epoch-2/responses/notes.txt`, "");
    const graded = await runCli(["grade-qa", ...protocol, "--output-dir", run], CLI);
    assertEquals(graded.code, 0, graded.stderr);
    assertEquals(
      graded.stderr.trim(),
      `run 2/3: warning: ${run}/epoch-2/responses holds 1 file(s) that are not a task's row, not graded: notes.txt`,
    );
    await Deno.remove(`${run}/epoch-2/responses/notes.txt`);
    assertEquals((await published()).length, 9);
    // A re-grade is refused as a one-run re-grade is: exit 2, one line naming run 1's first output.
    const again = await runCli(["grade-qa", ...protocol, "--output-dir", run], CLI);
    assertEquals(again.code, 2, again.stderr);
    assertEquals(again.stderr.trim().split("\n").length, 1, again.stderr);
    assertStringIncludes(again.stderr, `${run}/qa.rows.jsonl: refusing to overwrite an existing file`);
    for (const index of [1, 2, 3]) {
      const line = `^run ${index}/3: overall: confidence \\d+/45, hybrid-v1 \\d+/45, exact McNemar p=`;
      assertMatch(graded.stdout, new RegExp(line, "m"));
    }
    const verified = await runCli(["verify", run, ...protocol], CLI);
    assertEquals(verified.code, 0, verified.stdout + verified.stderr);
    assertMatch(verified.stdout, /^overall: exact sign-flip test over 45 cases, 3 runs each: p=0\.\d{4}/m);

    const [markdown, html] = [`${directory}/r.md`, `${directory}/r.html`];
    const text = await runCli(["report", run, ...protocol, "--markdown", markdown, "--html", html], CLI);
    assertEquals(text.code, 0, text.stderr);
    const json = await runCli(["report", run, ...protocol, "--json"], CLI);
    assertEquals(json.code, 0, json.stderr);
    const named = "exact sign-flip test over 45 cases, 3 runs each";
    for (const document of [text.stdout, await Deno.readTextFile(markdown), await Deno.readTextFile(html)]) {
      assertStringIncludes(document.replace(/\s+/g, " "), named);
    }
    assertStringIncludes(await Deno.readTextFile(html), "cases differ:");
    // The claim comes first in the text: the first result line names the test.
    const firstResult = text.stdout.split("\n").findIndex((line) => line.includes("exact sign-flip test"));
    assert(firstResult > 0 && firstResult < text.stdout.split("\n").indexOf("VERIFICATION"));

    const document = JSON.parse(json.stdout.slice(json.stdout.indexOf("{")));
    assertEquals(document.epochs, 3);
    assertEquals(document.per_epoch.length, 3);
    assertEquals(document.per_case.length, 45);
    const flips = document.per_case.filter((item: { correct: Record<string, number> }) =>
      Object.values(item.correct).some((k) =>
        k > 0 && k < 3
      )
    ).length;
    assert(flips >= 1, "at least one case flips between runs");
    for (const policy of ["confidence", "hybrid-v1"]) {
      const flipped =
        document.per_case.filter((item: { correct: Record<string, number> }) =>
          item.correct[policy] > 0 && item.correct[policy] < 3
        ).length;
      assertEquals(document.flips[policy], flipped, policy);
    }
    // The per-case counts are the three runs' own graded rows.
    const gradedRows = await Promise.all(["", "/epoch-2", "/epoch-3"].map(async (sub) =>
      (await Deno.readTextFile(`${run}${sub}/qa.rows.jsonl`)).trim().split("\n").map((line) =>
        JSON.parse(line)
      )
    ));
    for (const item of document.per_case) {
      for (const policy of ["confidence", "hybrid-v1"]) {
        const correct =
          gradedRows.flat().filter((row: { case_id: string; policy: string; grade_correct: boolean }) =>
            row.case_id === item.case_id && row.policy === policy && row.grade_correct
          ).length;
        assertEquals(item.correct[policy], correct, `${item.case_id} ${policy}`);
      }
    }
    for (const suite of document.case_level) {
      const members = document.per_case.filter((item: { suite: string }) =>
        suite.suite === "overall" || item.suite === suite.suite
      );
      const d = members.map((item: { correct: Record<string, number> }) =>
        item.correct["hybrid-v1"] - item.correct.confidence
      );
      assertEquals(suite.cases, members.length);
      assertEquals(suite.p, exactSignFlip(d), suite.suite);
      assertEquals(suite.difference, d.reduce((a: number, b: number) => a + b, 0) / (3 * members.length));
    }
    // Each run's McNemar row is that run's own qa.stats.json.
    for (const [index, sub] of ["", "/epoch-2", "/epoch-3"].entries()) {
      const stats = JSON.parse(await Deno.readTextFile(`${run}${sub}/qa.stats.json`));
      assertEquals(document.per_epoch[index].suites.overall.mcnemar, stats.suites.overall.mcnemar);
    }

    // A grade flipped in run 2 is found.
    const rowsPath = `${run}/epoch-2/qa.rows.jsonl`;
    const rows = await Deno.readTextFile(rowsPath);
    const flipped = rows.includes('"grade_correct": true')
      ? rows.replace('"grade_correct": true', '"grade_correct": false')
      : rows.replace('"grade_correct": false', '"grade_correct": true');
    await Deno.writeTextFile(rowsPath, flipped);
    const caught = await runCli(["verify", run, ...protocol], CLI);
    assertEquals(caught.code, 1, caught.stdout);
    assertMatch(caught.stdout, /^run 2 \(.*epoch-2\):$/m);
  });
});

Deno.test("--epochs 1 writes what a plain run writes; a one-run source fills only run 1 of three (90 reused, 180 called)", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const plain = await runQa(`${directory}/plain`, server.url, []);
      assertEquals(plain.code, 0, plain.stderr);
      const one = await runQa(`${directory}/one`, server.url, ["--epochs", "1"]);
      assertEquals(one.code, 0, one.stderr);
      // One run's progress lines name no run, as a plain run's do (the calls' order and timings aside).
      const lines = (stderr: string) =>
        stderr.trim().split("\n").map((line) =>
          line.replace(/ · [^·]+ · [^·]+$/, "").replace(/^\[\d+\/90\] /, "[n/90] ")
        ).sort();
      assertEquals(lines(one.stderr), lines(plain.stderr));
      assertEquals(one.stderr.includes("run 1/1"), false);
      const names = (dir: string) => [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
      assertEquals(names(`${directory}/one`), names(`${directory}/plain`));
      for (const name of names(`${directory}/plain/responses`)) {
        const read = async (run: string) => {
          const { created_at: _, ...row } = JSON.parse(
            await Deno.readTextFile(`${directory}/${run}/responses/${name}`),
          );
          return row;
        };
        assertEquals(await read("one"), await read("plain"));
      }
      const three = await runQa(`${directory}/three`, server.url, [
        "--epochs",
        "3",
        "--reuse",
        `${directory}/plain`,
        "--reuse-ungraded", // the sources are not graded: their answers are taken unproved
      ]);
      assertEquals(three.code, 0, three.stderr);
      assertStringIncludes(three.stdout, "answer rows: 90 reused, 180 called, 0 failed");
      const again = await runQa(`${directory}/again`, server.url, [
        "--epochs",
        "3",
        "--reuse",
        `${directory}/three`,
        "--reuse-ungraded", // the sources are not graded: their answers are taken unproved
      ]);
      assertEquals(again.code, 0, again.stderr);
      assertStringIncludes(again.stdout, "answer rows: 270 reused, 0 called, 0 failed");
    });
  } finally {
    await server.close();
  }
});
