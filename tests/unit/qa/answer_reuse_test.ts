/**
 * Reuse sources are read one at a time and hold only the answers the new run can still use: a source holds no
 * row for a task an earlier source already answers, so memory does not grow with the number of sources.
 */
import { readReuseRows } from "../../../lib/qa/answer/answer_reuse.ts";
import { readMarker } from "../../../lib/qa/run/run_marker.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { fixtureContracts, fixtureTasks, REFERENCE_QA } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const tasks = await fixtureTasks(contracts);

Deno.test("a reuse source holds only the rows of tasks still open: none when earlier sources answer them all", async () => {
  const marker = await readMarker(REFERENCE_QA, contracts, "as recorded");
  const all = await readReuseRows(REFERENCE_QA, marker, contracts, tasks);
  assertEquals([...all.rows.values()].flat().length, tasks.length);
  const none = await readReuseRows(REFERENCE_QA, marker, contracts, tasks, undefined, []);
  assertEquals(none.rows.size, 0);
  const open = tasks.slice(0, 3);
  const some = await readReuseRows(REFERENCE_QA, marker, contracts, tasks, undefined, open);
  const held = [...some.rows.values()].flat().map((row) => row.row_id).sort();
  // Identical requests (the same fingerprint) are held together: at least the open tasks' own rows.
  for (const task of open) assertEquals(held.includes(task.rowId), true, task.rowId);
  assertEquals(held.length < tasks.length, true);
});
