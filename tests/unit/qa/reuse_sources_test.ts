/**
 * `--reuse` sources read for each of K runs: one without a recorded endpoint gives nothing (and says why), an
 * ungraded one only with `ungraded`, a graded one only once the caller's proof passes; a source without run r
 * gives run r nothing.
 */
import { readReuseSourcesByRun, type ReuseRequest } from "../../../lib/qa/answer/reuse_sources.ts";
import { answerRun } from "../../../lib/qa/answer/answer_run.ts";
import { STAND_IN_ENDPOINT } from "../../../lib/qa/answer/answer_reuse.ts";
import { GRADED_ROWS_FILE } from "../../../lib/qa/run/run_dir.ts";
import { InputError } from "../../../lib/base/errors.ts";
import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { fixtureContracts, fixtureTasks, REFERENCE_QA } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const tasks = (await fixtureTasks(contracts)).slice(0, 4);
const SOURCE = { dirty: null, head: null, tool: "test" };

function request(directories: string[], extra: Partial<ReuseRequest> = {}) {
  const warnings: string[] = [];
  const proved: string[] = [];
  const reuse: ReuseRequest = {
    directories,
    ungraded: false,
    warn: (line) => warnings.push(line),
    prove: (directory) => {
      proved.push(directory);
      return Promise.reject(new InputError("not reused: planted proof failure", { path: directory }));
    },
    ...extra,
  };
  return { reuse, warnings, proved };
}

Deno.test("a source that records no endpoint gives nothing and says so; nothing is proved", async () => {
  const { reuse, warnings, proved } = request([REFERENCE_QA]);
  const stage = { contracts, endpoint: STAND_IN_ENDPOINT, tasks };
  assertEquals(await readReuseSourcesByRun(reuse, stage, 1), [[]]);
  assertEquals(warnings, [
    `reuse: nothing taken from ${REFERENCE_QA}: it records no single endpoint (reuse.json)`,
  ]);
  assertEquals(proved, []);
});

Deno.test("an ungraded source only with ungraded; a graded one only through its proof; run 2 of a one-run source gives nothing", async () => {
  await withTempDir(async (directory) => {
    await answerRun({ contracts, tasks, epochs: 1, directory }, { kind: "stand-in" }, { source: SOURCE });
    const stage = { contracts, endpoint: STAND_IN_ENDPOINT, tasks };
    await assertRejects(
      () => readReuseSourcesByRun(request([directory]).reuse, stage, 1),
      InputError,
      "not reused: it is not graded",
    );
    const taken = await readReuseSourcesByRun(request([directory], { ungraded: true }).reuse, stage, 2);
    assertEquals(taken.map((run) => run.length), [1, 0]);
    assertEquals([...taken[0][0].rows.values()].flat().length, tasks.length);
    assertEquals(taken[0][0].graded, false);
    await Deno.writeTextFile(`${directory}/${GRADED_ROWS_FILE}`, "");
    const graded = request([directory], { ungraded: true });
    await assertRejects(
      () => readReuseSourcesByRun(graded.reuse, stage, 1),
      InputError,
      "planted proof failure",
    );
    assertEquals(graded.proved, [directory]);
  });
});
