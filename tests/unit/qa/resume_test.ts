import { ContractError } from "../../../lib/base/errors.ts";
import { checkRunDirectory, planRows } from "../../../lib/qa/answer/resume.ts";
import { MARKER_FILE, responsePath } from "../../../lib/qa/run/run_dir.ts";
import { assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, fixtureContracts, fixtureTasks } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const tasks = await fixtureTasks(contracts);

Deno.test("run directories: new, resumable under the same protocol, refused under another or without a marker", async () => {
  await withTempDir(async (directory) => {
    assertEquals(await checkRunDirectory(`${directory}/absent`, contracts), "new");
    await copyReferenceRun(directory);
    assertEquals(await checkRunDirectory(directory, contracts), "resume");
    const other = await fixtureContracts({
      synthetic: (await Deno.readTextFile(contracts.sources.synthetic)) + "\n",
    });
    const error = await assertRejects(() => checkRunDirectory(directory, other), ContractError);
    assertMatch(error.message, /synthetic_manifest_sha256 differ/);
    await Deno.remove(`${directory}/${MARKER_FILE}`);
    await assertRejects(() => checkRunDirectory(directory, contracts), ContractError, "without qa_run.json");
  });
});

Deno.test("stored rows: reused when equal to the task; a corrupt row or any altered identity field is called again", async () => {
  await withTempDir(async (directory) => {
    await copyReferenceRun(directory);
    const plans = await planRows(directory, tasks);
    assertEquals(plans.filter((plan) => plan.state === "reuse").length, 90);
    const edits: [string, (row: Record<string, unknown>) => void][] = [
      ["row_id", (row) => row.row_id = "x"],
      ["case_id", (row) => row.case_id = tasks[2].caseId],
      ["source", (row) => row.source = "synthetic"],
      ["scenario", (row) => row.scenario = "other"],
      ["policy", (row) => row.policy = row.policy === "confidence" ? "hybrid-v1" : "confidence"],
      ["capacity", (row) => row.capacity = 9],
      ["kept_fact_ids", (row) => (row.kept_fact_ids as string[]).pop()],
      ["request_fingerprint", (row) => row.request_fingerprint = "0".repeat(64)],
    ];
    for (const [index, [, edit]] of edits.entries()) {
      const path = responsePath(directory, tasks[index].rowId);
      const row = JSON.parse(await Deno.readTextFile(path));
      edit(row);
      await Deno.writeTextFile(path, JSON.stringify(row));
    }
    await Deno.writeTextFile(responsePath(directory, tasks[8].rowId), '{"attempts": 1, "capa');
    const prediction = JSON.parse(await Deno.readTextFile(responsePath(directory, tasks[9].rowId)));
    await Deno.writeTextFile(
      responsePath(directory, tasks[9].rowId),
      JSON.stringify({ ...prediction, prediction: null }),
    );
    await Deno.remove(responsePath(directory, tasks[10].rowId));
    const replanned = await planRows(directory, tasks);
    for (const [index, [field]] of edits.entries()) {
      assertEquals(replanned[index].state, "stale", field);
      assertMatch(replanned[index].reason!, new RegExp(`^${field} differ`), field);
    }
    assertEquals(replanned[8].state, "stale");
    assertMatch(replanned[8].reason!, /not valid JSON/);
    assertMatch(replanned[9].reason!, /^prediction: /);
    assertEquals(replanned[10].state, "missing");
    assertEquals(replanned.filter((plan) => plan.state === "reuse").length, 79);
  });
});
