/**
 * The stage preamble computes only what the stage uses: `loadProtocol` gives the contracts and the prepared
 * dataset, never the tasks (its type has none); the stages that answer, grade or re-derive answers build them
 * through `loadTaskProtocol` or `withTasks`, and the others never call either.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/paths.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";
import { loadProtocol, loadTaskProtocol, withTasks } from "../../../lib/commands/_protocol.ts";

Deno.test("loadProtocol gives the contracts and the prepared dataset and no tasks; the task stages add them", async () => {
  await withTempDir(async (directory) => {
    const { contracts, dataset } = await writeDemoProtocol(directory, await buildDemoProtocol());
    const stage = await loadProtocol(contracts, dataset);
    assertEquals(Object.keys(stage).sort(), ["contracts", "prepared"]);
    // @ts-expect-error The preamble's type holds no tasks: a stage that does not build them cannot read them.
    assertEquals(stage.tasks, undefined);
    const built = await loadTaskProtocol(contracts, dataset);
    assertEquals(Object.keys(built).sort(), ["contracts", "prepared", "tasks"]);
    assertEquals(built.tasks.length, 2 * stage.prepared.cases.length);
    // The tasks of a stage already prepared are the ones the whole preamble builds.
    assertEquals((await withTasks(stage)).tasks, built.tasks);
  });
});

/** What builds the answer tasks, or answers them. */
const BUILDS_TASKS = /\b(?:loadTaskProtocol|withTasks|buildAnswerTasks|answerTasks|TaskStageProtocol)\b/;

/** The commands that neither answer, nor grade, nor re-derive answers. */
const WITHOUT_TASKS = ["validate_contracts", "validate", "run_policy", "sweep", "explain", "conformance"];

function buildsTasks(text: string): boolean {
  return BUILDS_TASKS.test(text.split("\n").filter((line) => !/^\s*(?:\*|\/\*|\/\/)/.test(line)).join("\n"));
}

Deno.test("validate, run-policy, sweep, explain (and the contract and conformance checks) never build the tasks", async () => {
  const building = [];
  for (const name of WITHOUT_TASKS) {
    if (buildsTasks(await Deno.readTextFile(`${ROOT}lib/commands/${name}.ts`))) building.push(name);
  }
  assertEquals(building, []);
  // The stages that answer or grade do, so the pattern is the one they use.
  for (const name of ["run_qa", "grade_qa", "demo"]) {
    assert(buildsTasks(await Deno.readTextFile(`${ROOT}lib/commands/${name}.ts`)), name);
  }
});

Deno.test("the task check catches each way of building them, and not a comment", () => {
  assert(buildsTasks("const { prepared, tasks } = await loadTaskProtocol(paths, dataset);"));
  assert(buildsTasks("const { tasks } = await withTasks(stage);"));
  assert(buildsTasks("const tasks = await buildAnswerTasks(contracts, prepared.cases);"));
  assert(
    !buildsTasks("// loadTaskProtocol would build the tasks\nconst { prepared } = await loadProtocol(p, d);"),
  );
});
