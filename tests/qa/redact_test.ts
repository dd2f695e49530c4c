import { redact, redactAnswer } from "../../lib/qa/redact.ts";
import { assertEquals } from "../helpers/assert.ts";

const KEY = "sk-test-provider-4b1d9c";

Deno.test("redact removes every occurrence of the secret", () => {
  assertEquals(redact("a KEY b KEY", "KEY"), "a [redacted] b [redacted]");
  assertEquals(redact("nothing", ""), "nothing");
});

Deno.test("redactAnswer replaces the key in the prediction and the model, never in usage names, and says where", () => {
  const answer = {
    prediction: `the key is ${KEY}, again ${KEY}`,
    responseModel: `m-${KEY}`,
    usage: { [`${KEY}_tokens`]: 3, total_tokens: 5 },
  };
  const { answer: clean, fields } = redactAnswer(answer, KEY);
  assertEquals(clean, {
    prediction: "the key is [redacted], again [redacted]",
    responseModel: "m-[redacted]",
    usage: { [`${KEY}_tokens`]: 3, total_tokens: 5 }, // such an answer is refused, not renamed: usageHoldsSecret
  });
  assertEquals(fields, ["prediction", "response_model"]);
  const plain = { prediction: "7", responseModel: null, usage: {} };
  assertEquals(redactAnswer(plain, KEY), { answer: plain, fields: [] });
});
