// Every directory the program writes into must be a real directory: an output directory, responses/ or
// responses/superseded/ that is a symbolic link is refused in one line naming it (exit 2), nothing written
// through it and nothing moved out of what it points at.

import { completion, startAnswerServer } from "../../helpers/answer_server.ts";
import { assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";

/** Every file under `directory` with its text, so a test can tell that nothing there changed. */
async function snapshot(directory: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const entry of Deno.readDir(directory)) {
    const path = `${directory}/${entry.name}`;
    if (entry.isSymlink) files[entry.name] = `-> ${await Deno.readLink(path)}`;
    else if (entry.isDirectory) {
      for (const [name, text] of Object.entries(await snapshot(path))) files[`${entry.name}/${name}`] = text;
    } else files[entry.name] = await Deno.readTextFile(path);
  }
  return files;
}

async function withServer(body: (runQa: (directory: string) => ReturnType<typeof runCli>) => Promise<void>) {
  const server = startAnswerServer(() => completion("x"));
  const options = {
    flags: taskFlags("run-qa"),
    env: { DEERMEM_EVAL_ANSWER_API_KEY: "sk-test", DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
  };
  try {
    await body((directory) =>
      runCli(
        ["run-qa", "--dataset", FIXTURE_DATASET, "--output-dir", directory, ...fixtureProtocolFlags()],
        options,
      )
    );
  } finally {
    await server.close();
  }
}

const REFUSED = (path: string) =>
  new RegExp(`^deermem-eval run-qa: ${path}: is a symbolic link, not a directory: [^\\n]*\\n$`);

Deno.test("run-qa: responses/ a symbolic link to another directory is refused in one line (exit 2), nothing written there or moved out of it", async () => {
  await withServer(async (runQa) => {
    await withTempDir(async (scratch) => {
      const run = `${scratch}/run`;
      assertEquals((await runQa(run)).code, 0);
      // The other directory holds its own files, one of them at a row's name but not a row.
      await Deno.rename(`${run}/responses`, `${scratch}/elsewhere`);
      const [first] = [...Deno.readDirSync(`${scratch}/elsewhere`)].map((entry) => entry.name).sort();
      await Deno.remove(`${scratch}/elsewhere/${first}`);
      await Deno.writeTextFile(`${scratch}/elsewhere/${first}`, "their own file\n");
      const before = await snapshot(`${scratch}/elsewhere`);
      await Deno.symlink(`${scratch}/elsewhere`, `${run}/responses`);
      const rerun = await runQa(run);
      assertEquals(rerun.code, 2, rerun.stderr);
      assertMatch(
        rerun.stderr.split("\n").filter((line) => line.startsWith("deermem-eval")).join("\n") + "\n",
        REFUSED(`${run}/responses`),
      );
      assertEquals(await snapshot(`${scratch}/elsewhere`), before);
      assertEquals(Object.keys(await snapshot(run)).sort(), [
        "qa_run.json",
        "responses",
        "reuse.json",
        "run_kind.json",
        "spend.jsonl",
      ]);
    });
  });
});

Deno.test("run-qa: responses/superseded a symbolic link is refused in one line (exit 2), the stale row not moved", async () => {
  await withServer(async (runQa) => {
    await withTempDir(async (scratch) => {
      const run = `${scratch}/run`;
      assertEquals((await runQa(run)).code, 0);
      const [first] = [...Deno.readDirSync(`${run}/responses`)].map((entry) => entry.name).sort();
      await Deno.remove(`${run}/responses/${first}`);
      await Deno.writeTextFile(`${run}/responses/${first}`, "{}\n"); // stale: moved aside on a resume
      await Deno.mkdir(`${scratch}/elsewhere`);
      await Deno.symlink(`${scratch}/elsewhere`, `${run}/responses/superseded`);
      const before = await snapshot(run);
      const rerun = await runQa(run);
      assertEquals(rerun.code, 2, rerun.stderr);
      assertMatch(
        rerun.stderr.split("\n").filter((line) => line.startsWith("deermem-eval")).join("\n") + "\n",
        REFUSED(`${run}/responses/superseded`),
      );
      assertEquals(await snapshot(`${scratch}/elsewhere`), {});
      assertEquals(await snapshot(run), before);
    });
  });
});

Deno.test("run-policy: an output directory that is a symbolic link is refused in one line (exit 2), nothing written", async () => {
  await withTempDir(async (scratch) => {
    await Deno.mkdir(`${scratch}/elsewhere`);
    await Deno.symlink(`${scratch}/elsewhere`, `${scratch}/out`);
    const result = await runCli([
      "run-policy",
      "--dataset",
      FIXTURE_DATASET,
      "--output-dir",
      `${scratch}/out`,
      ...fixtureProtocolFlags(),
    ]);
    assertEquals(result.code, 2, result.stderr);
    assertMatch(
      result.stderr,
      new RegExp(
        `^deermem-eval run-policy: ${scratch}/out: is a symbolic link, not a directory: [^\\n]*\\n$`,
      ),
    );
    assertEquals(await snapshot(`${scratch}/elsewhere`), {});
  });
});
