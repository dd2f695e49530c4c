/**
 * Outside text (a server's messages and model name, file names, the dataset's text, paths) through the CLI
 * with the tasks' permission flags: no control or escape byte reaches a pipe, a file or a terminal; each is
 * shown as a visible `\u001b`-style escape, and no forged line appears. A key a server splits with a newline is
 * still redacted.
 */

import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { completion, errorResponse, startAnswerServer } from "../../helpers/answer_server.ts";
import { fixtureProtocolFlags, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, FIXTURE_PROTOCOL } from "../../helpers/fixture.ts";
import { assertFileHasNoRawControl, assertNoRawControl, HOSTILE } from "../../helpers/outside_text.ts";
import { runInTerminal } from "../../helpers/terminal.ts";

const RUN_QA = taskFlags("run-qa");
const OFFLINE = taskFlags("cli");
/** HOSTILE as every output shows it: each control as a `\u` escape, the rest as it is. */
const SHOWN = "\\u001b]52;c;aGk=\\u0007\\u001b[2J\\u000d\\u000a✓ FORGED line\\u009b31m\\u007f\\u202eend";
/** Its start and its end as shown (no space in either: a line wrapped at spaces keeps each whole). */
const HEAD = "\\u001b]52;c;aGk=\\u0007\\u001b[2J";
const TAIL = "line\\u009b31m\\u007f\\u202eend";
/** A discordant case's wrong answer (overlap-reject): still wrong with the hostile text after it. */
const WRONG_ROW = "19056a09__confidence";

function qaArgs(command: "run-qa" | "grade-qa", run: string): string[] {
  return [command, "--dataset", FIXTURE_DATASET, "--output-dir", run, ...fixtureProtocolFlags()];
}

Deno.test("run-qa: a server's HTTP 400 message and its model name reach stdout and stderr escaped, no forged line", async () => {
  const server = startAnswerServer((_, index) =>
    index % 3 === 0 ? errorResponse(400, `bad request${HOSTILE}`) : completion("7", { model: `m${HOSTILE}` })
  );
  try {
    await withTempDir(async (directory) => {
      const result = await runCli(qaArgs("run-qa", `${directory}/run`), {
        flags: RUN_QA,
        env: { DEERMEM_EVAL_ANSWER_API_KEY: "sk-outside-text", DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
      });
      assertEquals(result.code, 1, result.stderr);
      assertNoRawControl(result.stdout, "stdout");
      assertNoRawControl(result.stderr, "stderr");
      // Shown, not dropped: the message on one line (its whitespace one space), each control escaped.
      const reason = `bad request${SHOWN.replace("\\u000d\\u000a", " ")}`;
      assertStringIncludes(result.stderr, "FAILED HTTP 400 from 127.0.0.1:");
      assertStringIncludes(result.stderr, reason); // standard error is not wrapped on a pipe
      assertStringIncludes(result.stdout, `request${HEAD} ✓`); // wrapped at spaces to 100 columns
      assertStringIncludes(result.stdout, TAIL);
      assertStringIncludes(result.stderr, `"m${HEAD}\\r\\n✓ FORGED ${TAIL}"`); // the warning naming the model
    });
  } finally {
    await server.close();
  }
});

Deno.test("run-qa: a key the server splits with a newline or a tab is redacted whole, in what it prints and stores", async () => {
  const key = "sk-split-0123456789";
  const split = "sk-split-01\n23456789";
  const server = startAnswerServer((_, index) =>
    index % 2 === 0
      ? errorResponse(400, `bad key ${split} given`)
      : completion(`echo: sk-split\t-0123456789 and the key ${key}.`)
  );
  try {
    await withTempDir(async (directory) => {
      const run = `${directory}/run`;
      const result = await runCli(qaArgs("run-qa", run), {
        flags: RUN_QA,
        env: { DEERMEM_EVAL_ANSWER_API_KEY: key, DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
      });
      const output = `${result.stdout}${result.stderr}`;
      assertEquals(result.code, 1, output);
      assert(!output.includes("23456789"), `the key's second half is printed:\n${output}`);
      assertStringIncludes(result.stdout, "bad key [redacted] given");
      let stored = 0;
      for await (const entry of Deno.readDir(`${run}/responses`)) {
        const row = JSON.parse(await Deno.readTextFile(`${run}/responses/${entry.name}`));
        // The rest of the model's text exactly as it came; only the key (however split) replaced.
        assertEquals(row.prediction, "echo: [redacted] and the key [redacted].");
        stored++;
      }
      assertEquals(stored, 45);
    });
  } finally {
    await server.close();
  }
});

/** A graded copy of the reference run in `directory`, its model name and one wrong answer hostile. */
async function hostileRun(directory: string): Promise<string> {
  const run = `${directory}/run${HOSTILE.replaceAll("/", "")}`;
  await Deno.mkdir(run);
  await copyReferenceRun(run);
  for await (const entry of Deno.readDir(`${run}/responses`)) {
    const path = `${run}/responses/${entry.name}`;
    const row = JSON.parse(await Deno.readTextFile(path));
    row.response_model = `fixture-model${HOSTILE}`;
    if (row.row_id === WRONG_ROW) row.prediction = `42${HOSTILE}`;
    await Deno.writeTextFile(path, `${JSON.stringify(row, null, 2)}\n`);
  }
  const graded = await runCli(qaArgs("grade-qa", run), { flags: OFFLINE });
  assertEquals(graded.code, 0, graded.stderr);
  assertNoRawControl(graded.stdout, "grade-qa's stdout");
  assertNoRawControl(graded.stderr, "grade-qa's stderr");
  return run;
}

Deno.test("report: a model name, an answer and a directory name holding escapes reach no pipe, file or document raw", async (t) => {
  await withTempDir(async (directory) => {
    const run = await hostileRun(directory);
    const report = (extra: string[]) =>
      runCli(["report", run, ...fixtureProtocolFlags(), ...extra], OFFLINE_CLI);
    await t.step("text on a pipe", async () => {
      const result = await report([]);
      assertEquals(result.code, 0, result.stderr);
      assertNoRawControl(result.stdout, "report's stdout");
      assertStringIncludes(result.stdout, `fixture-model${HEAD}\\u000d\\u000a✓`);
      assertStringIncludes(result.stdout, `${TAIL} (90 rows)`);
      assertStringIncludes(result.stdout, `42${HEAD}`); // the answer, shortened (its cell wrapped at the space)
    });
    await t.step("--markdown FILE and --html FILE", async () => {
      const result = await report(["--markdown", `${directory}/r.md`, "--html", `${directory}/r.html`]);
      assertEquals(result.code, 0, result.stderr);
      assertNoRawControl(result.stdout, "report's stdout");
      assertStringIncludes(await assertFileHasNoRawControl(`${directory}/r.md`), "fixture-model\\\\u001b");
      // HTML keeps a newline (a space to a browser), every other control escaped.
      const html = await assertFileHasNoRawControl(`${directory}/r.html`, false);
      assertStringIncludes(html, `fixture-model${HEAD}\\u000d\n✓ FORGED ${TAIL}`);
    });
    for (const flag of ["--markdown", "--html"]) {
      await t.step(`${flag} -`, async () => {
        const result = await report([flag, "-"]);
        assertEquals(result.code, 0, result.stderr);
        assertNoRawControl(result.stdout, `${flag} -`, flag === "--markdown");
        assertNoRawControl(result.stderr, `${flag} -'s stderr`);
        assertStringIncludes(result.stdout, "fixture-model\\");
      });
    }
    await t.step("--json: escaped by JSON's rules, the data exactly as stored", async () => {
      const result = await report(["--json"]);
      assertEquals(result.code, 0, result.stderr);
      assertNoRawControl(result.stdout, "--json");
      assertStringIncludes(
        result.stdout,
        `fixture-model${SHOWN.replace("\\u000d\\u000a", "\\r\\n")} (90 rows)`,
      );
      const document = JSON.parse(result.stdout);
      const models = document.provenance.find((entry: { label: string }) =>
        entry.label === "response models seen"
      );
      assertEquals(models.value, `fixture-model${HOSTILE} (90 rows)`);
    });
    await t.step("explain's answers", async () => {
      const result = await runCli(
        [
          "explain",
          WRONG_ROW.split("__")[0],
          ...fixtureProtocolFlags(),
          "--dataset",
          FIXTURE_DATASET,
          "--output-dir",
          run,
        ],
        OFFLINE_CLI,
      );
      assertEquals(result.code, 0, result.stderr);
      assertNoRawControl(result.stdout, "explain's stdout");
      assertStringIncludes(result.stdout, `"42${HEAD}\\r\\n✓`);
      assertStringIncludes(result.stdout, `${TAIL}"`);
    });
  });
});

const OFFLINE_CLI = { flags: OFFLINE };

Deno.test("grade-qa names a file in responses/ holding OSC 52 in its name with the escape visible", async () => {
  await withTempDir(async (directory) => {
    const run = `${directory}/run`;
    await Deno.mkdir(run);
    await copyReferenceRun(run);
    await Deno.writeTextFile(`${run}/responses/stray${HOSTILE}.json`, "{}\n");
    const result = await runCli(qaArgs("grade-qa", run), OFFLINE_CLI);
    assertEquals(result.code, 0, result.stderr);
    assertNoRawControl(result.stderr, "grade-qa's stderr");
    assertStringIncludes(result.stderr, `stray${SHOWN}.json`);
  });
});

Deno.test("an error line naming a path that holds escapes shows them escaped, on one line", async () => {
  await withTempDir(async (directory) => {
    const missing = `${directory}/missing${HOSTILE}`;
    const verify = await runCli(["verify", missing, ...fixtureProtocolFlags()], OFFLINE_CLI);
    assertEquals(verify.code, 2, verify.stderr);
    assertNoRawControl(verify.stderr, "verify's error line");
    assertEquals(verify.stderr.trimEnd().split("\n").length, 1, verify.stderr);
    assertStringIncludes(verify.stderr, `missing${SHOWN.replace("\\u000d\\u000a", " ")}`);
    const written = await runCli(
      ["report", "--markdown", `${missing}/r.md`], // the embedded published run
      OFFLINE_CLI,
    );
    assertEquals(written.code, 1, written.stderr);
    assertNoRawControl(written.stderr, "report's error line");
    assertEquals(written.stderr.trimEnd().split("\n").length, 1, written.stderr);
  });
});

Deno.test("explain --show-text on a terminal shows the dataset's control sequences escaped", async () => {
  await withTempDir(async (directory) => {
    const dataset = JSON.parse(await Deno.readTextFile(FIXTURE_DATASET));
    const entry = dataset.find((item: { question_id: string }) => item.question_id === "05fdf179");
    entry.question = `Q${HOSTILE}`;
    entry.answer = `7${HOSTILE}`;
    entry.haystack_sessions[0][0].content = `Nadia${HOSTILE}`;
    const datasetPath = `${directory}/dataset.json`;
    await Deno.writeTextFile(datasetPath, JSON.stringify(dataset));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await Deno.readFile(datasetPath)));
    const sha = [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    const config = (await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`))
      .replace(/^(\s*sha256: )[0-9a-f]{64}$/m, `$1${sha}`);
    await Deno.writeTextFile(`${directory}/config.yaml`, config);
    const protocol = fixtureProtocolFlags().map((word, index, words) =>
      words[index - 1] === "--config" ? `${directory}/config.yaml` : word
    );
    const shown = await runInTerminal(
      ["explain", "05fdf179", ...protocol, "--dataset", datasetPath, "--show-text"],
      { env: { NO_COLOR: "1" } },
    );
    assertEquals(shown.code, 0, shown.stderr);
    assertNoRawControl(shown.screen, "the terminal");
    const screen = shown.screen.replace(/\n {4}/g, " "); // wrapped to the terminal's width
    assertStringIncludes(screen, `question: Q${SHOWN.replace("\\u000d\\u000a", " ")}`);
    assertStringIncludes(screen, `reference answer: 7${SHOWN.replace("\\u000d\\u000a", " ")}`);
  });
});
