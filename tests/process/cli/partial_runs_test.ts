/**
 * Partial runs, named as such: a `run-qa --limit N` (or interrupted) run grades into DIR/partial, verifies and
 * reports as "partial: K of N tasks" in the first lines of every output, is refused by `report --against`, and
 * resumed to the end grades to exactly an uninterrupted run's bytes.
 */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";

const RUN_QA = taskFlags("run-qa");
const CLI = { flags: taskFlags("cli") };
const OUTPUTS = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"];
const PARTIAL_10 = "partial: 10 of 90 tasks; statistics on 5 complete pairs";

async function listed(directory: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

async function rowCount(directory: string): Promise<number> {
  return (await listed(`${directory}/responses`).catch(() => [])).filter((name) => name.endsWith(".json"))
    .length;
}

Deno.test("a --limit 10 run grades, verifies and reports as partial in every format; --against refuses it; resumed, it grades to the uninterrupted run's bytes", async () => {
  await withTempDir(async (directory) => {
    const protocol = ["--protocol", `${directory}/protocol`];
    await writeDemoProtocol(`${directory}/protocol`, await buildDemoProtocol());
    const run = `${directory}/run`;
    const limited = await runCli(
      ["run-qa", "--stand-in", ...protocol, "--output-dir", run, "--limit", "10"],
      {
        flags: RUN_QA,
      },
    );
    assertEquals(limited.code, 0, limited.stderr);

    const graded = await runCli(["grade-qa", ...protocol, "--output-dir", run], CLI);
    assertEquals(graded.code, 0, graded.stderr);
    assertEquals(graded.stdout.split("\n")[0], PARTIAL_10);
    assertMatch(graded.stdout, /^overall: confidence \d+\/5, hybrid-v1 \d+\/5, exact McNemar p=/m);
    // The reference-named outputs in DIR only ever hold a full grading.
    for (const name of OUTPUTS) assert(!(await listed(run)).includes(name), `${name} written in DIR`);
    assertEquals(await listed(`${run}/partial`), [...OUTPUTS, "partial.json", "qa_run.json"].sort());
    const record = JSON.parse(await Deno.readTextFile(`${run}/partial/partial.json`));
    assertEquals([record.tasks, record.tasks_with_rows, record.complete_pairs], [90, 10, 5]);
    assertEquals(record.row_files.length, 10);
    assertEquals(
      await Deno.readTextFile(`${run}/partial/qa.rows.jsonl`).then((t) => t.split("\n").length),
      11,
    );
    const stats = JSON.parse(await Deno.readTextFile(`${run}/partial/qa.stats.json`));
    assertEquals(stats.suites.overall.cases, 5);

    const verified = await runCli(["verify", run, ...protocol], CLI);
    assertEquals(verified.code, 0, verified.stderr);
    assertEquals(verified.stdout.split("\n")[0], PARTIAL_10);
    assertMatch(verified.stdout, /^✓ partial\/partial\.json: .*SHA-256/m);
    // The grading's folder named directly is partial too: never read as a full results directory.
    const folder = await runCli(["verify", `${run}/partial`, ...protocol], CLI);
    assertEquals(folder.code, 0, folder.stderr);
    assertEquals(folder.stdout.split("\n")[0], PARTIAL_10);
    const verifiedJson = await runCli(["verify", run, ...protocol, "--json"], CLI);
    assertEquals(verifiedJson.code, 0, verifiedJson.stderr);
    const verifiedDocument = JSON.parse(verifiedJson.stdout);
    assertEquals(Object.keys(verifiedDocument)[0], "partial");
    assertEquals(verifiedDocument.partial.line, PARTIAL_10);

    const text = await runCli(["report", run, ...protocol], CLI);
    assertEquals(text.code, 0, text.stderr);
    assertEquals(text.stdout.split("\n")[0], PARTIAL_10);
    const markdown = await runCli(["report", run, ...protocol, "--markdown", "-"], CLI);
    assertEquals(markdown.code, 0, markdown.stderr);
    assertEquals(markdown.stdout.split("\n")[0], `> **${PARTIAL_10}**`);
    const html = await runCli(["report", run, ...protocol, "--html", "-"], CLI);
    assertEquals(html.code, 0, html.stderr);
    assertMatch(html.stdout, new RegExp(`<title>PARTIAL — `));
    assertMatch(html.stdout, new RegExp(`<body>\\n?<p><strong>${PARTIAL_10}</strong></p>`));
    const json = await runCli(["report", run, ...protocol, "--json"], CLI);
    assertEquals(json.code, 0, json.stderr);
    const document = JSON.parse(json.stdout);
    // Its notices open the document: every line in order, then what the partial run records.
    assertEquals(Object.keys(document).slice(0, 2), ["notices", "partial"]);
    assertEquals(document.notices[0], PARTIAL_10);
    assertEquals(
      [document.partial.tasks, document.partial.tasks_with_rows, document.partial.complete_pairs],
      [90, 10, 5],
    );

    // A full run to compare with: uninterrupted, in another directory.
    const whole = `${directory}/whole`;
    const answered = await runCli(["run-qa", "--stand-in", ...protocol, "--output-dir", whole], {
      flags: RUN_QA,
    });
    assertEquals(answered.code, 0, answered.stderr);
    assertEquals((await runCli(["grade-qa", ...protocol, "--output-dir", whole], CLI)).code, 0);
    for (const [left, right] of [[run, whole], [whole, run]]) {
      const against = await runCli(["report", left, "--against", right, ...protocol], CLI);
      assertEquals(against.code, 2, against.stderr);
      assertEquals(against.stderr.trim().split("\n").length, 1, against.stderr);
      assertMatch(
        against.stderr,
        new RegExp(`${run} is partial: 10 of 90 tasks; complete it with run-qa, then grade-qa`),
      );
    }

    // Resumed to the end and graded: the full outputs in DIR, byte for byte the uninterrupted run's.
    const resumed = await runCli(["run-qa", "--stand-in", ...protocol, "--output-dir", run], {
      flags: RUN_QA,
    });
    assertEquals(resumed.code, 0, resumed.stderr);
    assertMatch(resumed.stdout, /^answer rows: 10 reused, 80 called, 0 failed$/m);
    const full = await runCli(["grade-qa", ...protocol, "--output-dir", run], CLI);
    assertEquals(full.code, 0, full.stderr);
    assert(!full.stdout.includes("partial"), full.stdout);
    for (const name of OUTPUTS) {
      assertEquals(await Deno.readFile(`${run}/${name}`), await Deno.readFile(`${whole}/${name}`), name);
    }
    // Readers prefer the full outputs and say nothing of partial/.
    for (const args of [["verify", run], ["report", run], ["report", run, "--markdown", "-"]]) {
      const result = await runCli([...args, ...protocol], CLI);
      assertEquals(result.code, 0, `${args.join(" ")}\n${result.stderr}`);
      assert(!/partial/i.test(result.stdout), `${args.join(" ")} mentions partial`);
    }
  });
});

Deno.test("a partial grading whose row file changed since is not verified, and is not reported", async () => {
  await withTempDir(async (directory) => {
    const protocol = ["--protocol", `${directory}/protocol`];
    await writeDemoProtocol(`${directory}/protocol`, await buildDemoProtocol());
    const run = `${directory}/run`;
    const limited = await runCli(["run-qa", "--stand-in", ...protocol, "--output-dir", run, "--limit", "4"], {
      flags: RUN_QA,
    });
    assertEquals(limited.code, 0, limited.stderr);
    assertEquals((await runCli(["grade-qa", ...protocol, "--output-dir", run], CLI)).code, 0);
    const [name] = await listed(`${run}/responses`);
    const path = `${run}/responses/${name}`;
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("}", ', "x": 1}'));
    const verified = await runCli(["verify", run, ...protocol], CLI);
    assertEquals(verified.code, 1, verified.stderr);
    assertEquals(verified.stdout.split("\n")[0], "partial: 4 of 90 tasks; statistics on 2 complete pairs");
    const unwrapped = verified.stdout.replace(/\n {2}/g, " "); // lines fitted to the terminal, unfolded
    assertMatch(unwrapped, new RegExp(`^✗ partial/partial\\.json: .* — responses/${name}: SHA-256 `, "m"));
    // The edit (a key added inside usage) also fails the field-for-field check of the row against its file.
    assertMatch(unwrapped, new RegExp(`^✗ responses/: .* — .*/responses/${name}: usage: differs`, "m"));
    assertMatch(unwrapped, /^partial \(4 of 90 tasks\): NOT verified: 2 of \d+ checks failed$/m);
    const reported = await runCli(["report", run, ...protocol], CLI);
    assertEquals(reported.code, 1, reported.stderr);
    assertMatch(reported.stderr, /SHA-256/);
    // A record that contradicts itself is bad input: one line naming the file and the field, exit 2.
    const recordPath = `${run}/partial/partial.json`;
    const record = JSON.parse(await Deno.readTextFile(recordPath));
    await Deno.writeTextFile(recordPath, JSON.stringify({ ...record, tasks_with_rows: 5 }));
    for (const command of ["verify", "report"]) {
      const refused = await runCli([command, run, ...protocol], CLI);
      assertEquals(refused.code, 2, refused.stderr);
      assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assertMatch(refused.stderr, /partial\/partial\.json: .*tasks_with_rows/);
    }
  });
});

Deno.test("an interrupted run-qa --stand-in grades as partial; grading it again is refused, never overwritten", async () => {
  await withTempDir(async (directory) => {
    const protocol = ["--protocol", `${directory}/protocol`];
    await writeDemoProtocol(`${directory}/protocol`, await buildDemoProtocol());
    const run = `${directory}/run`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...RUN_QA, `${ROOT}cli.ts`, "run-qa", "--stand-in", ...protocol, "--output-dir", run],
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "null",
    }).spawn();
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && await rowCount(run) < 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill("SIGINT");
    assertEquals((await child.status).code, 130);
    const kept = await rowCount(run);
    assert(kept >= 1 && kept < 90, `${kept} rows after the interrupt`);
    const graded = await runCli(["grade-qa", ...protocol, "--output-dir", run], CLI);
    assertEquals(graded.code, 0, graded.stderr);
    const first = graded.stdout.split("\n")[0];
    assertMatch(first, new RegExp(`^partial: ${kept} of 90 tasks; statistics on \\d+ complete pairs`));
    const record = JSON.parse(await Deno.readTextFile(`${run}/partial/partial.json`));
    assertEquals(
      first.startsWith(`partial: ${kept} of 90 tasks; statistics on ${record.complete_pairs} `),
      true,
    );
    const before = await Deno.readFile(`${run}/partial/partial.json`);
    const again = await runCli(["grade-qa", ...protocol, "--output-dir", run], CLI);
    assertEquals(again.code, 2, again.stderr);
    assertEquals(again.stderr.trim().split("\n").length, 1, again.stderr);
    assertEquals(await Deno.readFile(`${run}/partial/partial.json`), before);
  });
});
