/** Answer tasks: one per case and policy at the QA capacity, bound to the reference run's fingerprints. */
import { requestFingerprint } from "../../../lib/qa/run/prompt.ts";
import { buildAnswerTasks, requestSettings } from "../../../lib/qa/run/tasks.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { fixtureContracts, fixtureTasks, REFERENCE_QA } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const tasks = await fixtureTasks(contracts);

Deno.test("request settings are the config's qa block, renamed", () => {
  const { qa } = contracts.config;
  assertEquals(requestSettings(contracts), {
    model: qa.model,
    temperature: qa.temperature,
    maxTokens: qa.max_tokens,
    stream: qa.stream,
  });
});

Deno.test("90 tasks: each case twice, confidence before hybrid-v1, at the QA capacity", () => {
  assertEquals(tasks.length, 90);
  for (let index = 0; index < tasks.length; index += 2) {
    const [first, second] = [tasks[index], tasks[index + 1]];
    assertEquals([first.caseId, first.policy], [second.caseId, "confidence"]);
    assertEquals([second.caseId, second.policy], [first.caseId, "hybrid-v1"]);
    assertEquals(first.rowId, `${first.caseId}__confidence`);
    assertEquals(second.rowId, `${second.caseId}__hybrid-v1`);
  }
  assertEquals(new Set(tasks.map((task) => task.rowId)).size, 90);
  assertEquals(new Set(tasks.map((task) => task.capacity)), new Set([contracts.config.pool.qa_capacity]));
  for (const task of tasks) assertEquals(task.keptFactIds.length <= task.capacity, true, task.rowId);
});

Deno.test("each fingerprint hashes the task's own messages, and equals the reference run's row", async () => {
  const settings = requestSettings(contracts);
  for (const task of tasks) {
    assertEquals(task.requestFingerprint, await requestFingerprint(settings, task.messages), task.rowId);
    const row = JSON.parse(await Deno.readTextFile(`${REFERENCE_QA}/responses/${task.rowId}.json`));
    assertEquals(
      [row.request_fingerprint, row.kept_fact_ids, row.scenario, row.source],
      [task.requestFingerprint, task.keptFactIds, task.scenario, task.source],
      task.rowId,
    );
  }
});

Deno.test("no cases, no tasks", async () => {
  assertEquals(await buildAnswerTasks(contracts, []), []);
});
