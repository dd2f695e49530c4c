/** A candidate run's identity in the QA layer: its tasks and rows, its marker, and resuming under it. */

import { ContractError } from "../../../lib/base/errors.ts";
import { evaluatePolicy, hybridParams, hybridPolicy } from "../../../lib/policy/mod.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { answerRow } from "../../../lib/qa/run/answer_rows.ts";
import { checkRunDirectory } from "../../../lib/qa/answer/resume.ts";
import {
  answerRowJson,
  buildAnswerTasks,
  checkMarker,
  type QaCandidate,
  qaRunMarker,
  responsePath,
} from "../../../lib/qa/mod.ts";
import { assertEquals, assertRejects, assertThrows } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";
import { planRows } from "../../../lib/qa/answer/resume.ts";

const contracts = await fixtureContracts();
const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
const { config } = contracts;
// hybrid-v1 under another name: its tasks must equal hybrid-v1's but for the name.
const copy = { ...hybridPolicy(hybridParams(config)), name: "hybrid-copy" };
const atQa = { ...config, pool: { ...config.pool, capacities: [config.pool.qa_capacity] } };
const candidate: QaCandidate = {
  baseline: "confidence",
  policy: "hybrid-copy",
  policy_module: "copy.ts",
  policy_module_sha256: "c".repeat(64),
  results: await evaluatePolicy(copy, { contracts: { config: atQa }, cases: prepared.cases }),
};
const published = await buildAnswerTasks(contracts, prepared.cases);
const tasks = await buildAnswerTasks(contracts, prepared.cases, candidate);

Deno.test("candidate tasks: the baseline's as published, the candidate's named and carrying its module", () => {
  assertEquals(tasks.length, published.length);
  for (const [index, task] of tasks.entries()) {
    const same = published[index];
    if (index % 2 === 0) {
      assertEquals(task, same); // confidence, exactly the published task
      continue;
    }
    assertEquals(task.rowId, `${task.caseId}__hybrid-copy`);
    assertEquals(task.module, { policy_module: "copy.ts", policy_module_sha256: "c".repeat(64) });
    assertEquals([task.keptFactIds, task.requestFingerprint], [same.keptFactIds, same.requestFingerprint]);
  }
  const row = answerRow(
    tasks[1],
    { prediction: "x", responseModel: null, usage: {} },
    1,
    "2026-01-01T00:00:00Z",
  );
  const text = answerRowJson(row);
  assertEquals(JSON.parse(text).policy_module_sha256, "c".repeat(64));
  const baseline = answerRow(
    published[0],
    { prediction: "x", responseModel: null, usage: {} },
    1,
    "2026-01-01T00:00:00Z",
  );
  assertEquals("policy_module" in JSON.parse(answerRowJson(baseline)), false); // a built-in's row as published
});

Deno.test("the marker records the candidate; resuming refuses another module or baseline, or none", async () => {
  const source = { dirty: null, head: null };
  const plain = qaRunMarker(contracts, new Date(0), source);
  const text = qaRunMarker(contracts, new Date(0), source, candidate);
  assertEquals(Object.keys(JSON.parse(text).candidate), [
    "baseline",
    "policy",
    "policy_module",
    "policy_module_sha256",
  ]);
  assertEquals(text.replace(/ {2}"candidate": \{[^}]*\},\n/, ""), plain); // only the block is added
  checkMarker(text, "qa_run.json", contracts, candidate);
  assertThrows(
    () => checkMarker(text, "qa_run.json", contracts, { ...candidate, policy_module_sha256: "d".repeat(64) }),
    ContractError,
    `qa_run.json: candidate.policy_module_sha256: policy module copy.ts: expected ${"c".repeat(64)}`,
  );
  assertThrows(
    () => checkMarker(text, "qa_run.json", contracts, { ...candidate, baseline: "hybrid-v1" }),
    ContractError,
    'expected "confidence", got "hybrid-v1"',
  );
  assertThrows(() => checkMarker(text, "qa_run.json", contracts), ContractError, "pass that module");
  assertThrows(
    () => checkMarker(plain, "qa_run.json", contracts, candidate),
    ContractError,
    "without --policy-module",
  );
  checkMarker(text, "qa_run.json", contracts, "as recorded");
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/qa_run.json`, text);
    assertEquals(await checkRunDirectory(directory, contracts, candidate), "resume");
    await assertRejects(() => checkRunDirectory(directory, contracts), ContractError);
    // A stored candidate row under another module's SHA-256 is called again.
    await Deno.mkdir(`${directory}/responses`);
    const row = answerRow(
      tasks[1],
      { prediction: "x", responseModel: null, usage: {} },
      1,
      "2026-01-01T00:00:00Z",
    );
    await Deno.writeTextFile(responsePath(directory, tasks[1].rowId), answerRowJson(row));
    assertEquals((await planRows(directory, [tasks[1]]))[0].state, "reuse");
    const other = answerRowJson({ ...row, policy_module_sha256: "d".repeat(64) });
    await Deno.writeTextFile(responsePath(directory, tasks[1].rowId), other);
    const [plan] = await planRows(directory, [tasks[1]]);
    assertEquals([plan.state, plan.reason], [
      "stale",
      "policy_module_sha256 differ from the recomputed task",
    ]);
  });
});
