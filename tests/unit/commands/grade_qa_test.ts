/**
 * grade-qa on a K-run directory, in process: all K runs graded or none published (a bad row in the last run, a
 * failing link while publishing), each run's files byte for byte a one-run grade's, a re-grade refused as a
 * one-run re-grade is.
 */

import { gradeRun, gradeRuns } from "../../../lib/commands/grade_qa.ts";
import { answerEpochs } from "../../../lib/qa/answer/epoch_runs.ts";
import { epochDirectory } from "../../../lib/qa/run/epochs.ts";
import { exitCodeFor } from "../../../lib/base/failure.ts";
import { exists } from "../../../lib/base/read.ts";
import { OverwriteError, RowIntegrityError } from "../../../lib/base/errors.ts";
import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts, fixtureTasks } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
/** Three cases, both policies: what all-or-nothing needs, not the fixture's 90 tasks. */
const tasks = await (async () => {
  const all = await fixtureTasks(contracts);
  const cases = [...new Set(all.map((task) => task.caseId))].slice(0, 3);
  return all.filter((task) => cases.includes(task.caseId));
})();
const GRADED = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"];

/** A K = 3 directory of `tasks`, run r answering "run r" (run 2 the reference answer, so grades differ). */
async function threeRuns(directory: string): Promise<string[]> {
  await answerEpochs(contracts, tasks, directory, 3, {
    providerFor: (run) => (messages) => {
      const task = tasks.find((task) => JSON.stringify(task.messages) === JSON.stringify(messages))!;
      const prediction = run === 2 ? task.referenceAnswer : `run ${run}`;
      return Promise.resolve({ prediction, responseModel: "fake", usage: { total_tokens: 1 } });
    },
    retry: { maxAttempts: 1 },
    workers: 2,
    source: { dirty: null, head: null },
    now: () => new Date("2026-12-06T12:00:00Z"),
  });
  return [1, 2, 3].map((run) => epochDirectory(directory, run));
}

async function gradedFilesIn(directories: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const directory of directories) {
    for (const name of GRADED) if (await exists(`${directory}/${name}`)) found.push(`${directory}/${name}`);
  }
  return found;
}

Deno.test("a bad row in run 3 of 3 refuses with exit 2 and no run's graded files are published", async () => {
  await withTempDir(async (directory) => {
    const directories = await threeRuns(directory);
    const row = `${directories[2]}/responses/${tasks[1].rowId}.json`;
    const text = await Deno.readTextFile(row);
    await Deno.writeTextFile(row, text.replace(tasks[1].requestFingerprint, "f".repeat(64)));
    const error = await assertRejects(() => gradeRuns(directories, contracts, tasks), RowIntegrityError);
    assertEquals(exitCodeFor(error), 2);
    assertEquals(await gradedFilesIn(directories), []);
  });
});

Deno.test("a link failing while run 3 is published undoes runs 1 and 2 too: nothing graded anywhere", async () => {
  await withTempDir(async (directory) => {
    const directories = await threeRuns(directory);
    const failing = `${directories[2]}/qa.summary.json`;
    const publish = {
      beforeOperation: (operation: string, path: string) => {
        if (operation === "link" && path === failing) throw new Deno.errors.PermissionDenied("denied");
      },
    };
    const error = await assertRejects(() => gradeRuns(directories, contracts, tasks, publish));
    assertEquals(exitCodeFor(error), 1);
    assertEquals(await gradedFilesIn(directories), []);
    const left = [...Deno.readDirSync(directories[2])].map((entry) => entry.name);
    assert(!left.some((name) => name.includes("staging") || name.includes("journal")), left.join(", "));
  });
});

/** Run `directory`'s marker and rows copied into `copy`, a one-run directory of its own. */
async function copyRun(directory: string, copy: string): Promise<void> {
  await Deno.mkdir(`${copy}/responses`, { recursive: true });
  await Deno.copyFile(`${directory}/qa_run.json`, `${copy}/qa_run.json`);
  for (const task of tasks) {
    await Deno.copyFile(`${directory}/responses/${task.rowId}.json`, `${copy}/responses/${task.rowId}.json`);
  }
}

Deno.test("K runs graded together: each run's files byte for byte a one-run grade's; a re-grade refuses as one-run's does", async () => {
  await withTempDir(async (directory) => {
    const directories = await threeRuns(`${directory}/k`);
    const { runs } = await gradeRuns(directories, contracts, tasks);
    assertEquals(runs.map((run) => run.rows.filter((row) => row.grade_correct).length), [0, tasks.length, 0]);
    for (const [index, run] of directories.entries()) {
      const alone = `${directory}/alone-${index + 1}`;
      await copyRun(run, alone);
      await gradeRun(alone, contracts, tasks);
      for (const name of GRADED) {
        assertEquals(await Deno.readFile(`${run}/${name}`), await Deno.readFile(`${alone}/${name}`), name);
      }
    }
    const before = await Promise.all(directories.map((run) => Deno.readFile(`${run}/qa.rows.jsonl`)));
    const again = await assertRejects(() => gradeRuns(directories, contracts, tasks), OverwriteError);
    const alone = await assertRejects(
      () => gradeRun(`${directory}/alone-1`, contracts, tasks),
      OverwriteError,
    );
    assertEquals(again.detail, alone.detail);
    assertEquals([exitCodeFor(again), again.path], [exitCodeFor(alone), `${directories[0]}/qa.rows.jsonl`]);
    const after = await Promise.all(directories.map((run) => Deno.readFile(`${run}/qa.rows.jsonl`)));
    assertEquals(after, before);
  });
});
