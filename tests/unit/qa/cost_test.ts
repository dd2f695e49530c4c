/**
 * The cost estimate before a run: DeepSeek's documented characters-to-tokens rule, the priced worst case of a
 * call, and how many calls a budget affords; checked against the published run's recorded usage when the
 * dataset is at hand.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import {
  affordableCalls,
  callCostUsd,
  estimatePromptTokens,
  estimateTasks,
} from "../../../lib/qa/answer/cost.ts";
import type { AnswerTask } from "../../../lib/qa/mod.ts";
import { buildAnswerTasks } from "../../../lib/qa/mod.ts";
import { embeddedSources, loadContracts, prepareProtocol } from "../../../lib/protocol/mod.ts";
import { ROOT } from "../../helpers/paths.ts";

Deno.test("estimatePromptTokens: 0.3 token a character, 0.6 a CJK ideograph, rounded up per message", () => {
  // 10 Latin characters → 3 tokens; 5 ideographs → 3 tokens; "ab" → ceil(0.6) = 1.
  assertEquals(estimatePromptTokens([{ role: "user", content: "abcdefghij" }]), 3);
  assertEquals(estimatePromptTokens([{ role: "user", content: "记忆的测试" }]), 3);
  assertEquals(
    estimatePromptTokens([{ role: "system", content: "ab" }, { role: "user", content: "abcdefghij" }]),
    1 + 3,
  );
  assertEquals(estimatePromptTokens([{ role: "user", content: "" }]), 0);
});

Deno.test("callCostUsd: the prompt estimate and the whole max_tokens at USD per million tokens", () => {
  // 1000 prompt tokens at $0.5/M + 2048 completion tokens at $2/M = (500 + 4096) / 1e6
  assertEquals(callCostUsd(1000, 2048, { input: 0.5, output: 2 }), 4596 / 1_000_000);
});

Deno.test("affordableCalls: the leading calls whose summed worst case stays within the budget", () => {
  const prices = { input: 1_000_000, output: 0 }; // one USD a prompt token: costs read as token counts
  assertEquals(affordableCalls([3, 3, 3], 0, prices, 6), 2);
  assertEquals(affordableCalls([3, 3, 3], 0, prices, 5.99), 1);
  assertEquals(affordableCalls([3, 3, 3], 0, prices, 2), 0);
  assertEquals(affordableCalls([3, 3, 3], 0, prices, 100), 3);
});

const DATASET = Deno.env.get("LONGMEMEVAL_ORACLE_PATH") ?? "";

Deno.test({
  name:
    "the estimate is within 10% of the published run's recorded prompt tokens in total (needs the dataset)",
  ignore: DATASET === "",
  async fn() {
    const contracts = await loadContracts(embeddedSources());
    const prepared = await prepareProtocol(contracts, await Deno.readFile(DATASET), DATASET);
    const tasks: AnswerTask[] = await buildAnswerTasks(contracts, prepared.cases);
    const rows = (await Deno.readTextFile(`${ROOT}results/pr4789-reproduction-v1/qa.rows.jsonl`))
      .trim().split("\n").map((line) => JSON.parse(line));
    const recorded = new Map(rows.map((row) => [row.row_id, row.usage.prompt_tokens as number]));
    const estimate = estimateTasks(tasks);
    let real = 0;
    const ratios: number[] = [];
    for (const [index, task] of tasks.entries()) {
      const tokens = recorded.get(task.rowId)!;
      real += tokens;
      ratios.push(estimate.perTask[index] / tokens);
    }
    const error = (estimate.total - real) / real;
    console.log(
      `estimate ${estimate.total} vs recorded ${real} (${(error * 100).toFixed(1)}%); per row ${
        Math.min(...ratios).toFixed(2)
      }–${Math.max(...ratios).toFixed(2)} of the recorded count`,
    );
    assert(Math.abs(error) <= 0.1, `off by ${(error * 100).toFixed(1)}%`);
  },
});
