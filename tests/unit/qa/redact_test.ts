import { redact, redactAnswer } from "../../../lib/qa/answer/redact.ts";
import { assertEquals } from "../../helpers/assert.ts";

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

Deno.test("redact replaces the key however whitespace, a control or a format character splits it, nothing else", () => {
  const key = "sk-0123456789";
  assertEquals(redact("a sk-01234\n56789 b", key), "a [redacted] b");
  assertEquals(redact("a sk-0123 4567\t89 b", key), "a [redacted] b");
  assertEquals(redact("sk-012\x1b[0m3456789", key), "[redacted]");
  assertEquals(redact("sk-0123\u200b456789.", key), "[redacted].");
  // Text that only resembles the key keeps every byte, the whitespace around the key too.
  assertEquals(redact(" sk-0123-456789  sk-012345678 \n", key), " sk-0123-456789  sk-012345678 \n");
  assertEquals(redact("\n sk-0123456789 \n", key), "\n [redacted] \n");
  // A key holding a regular-expression character is matched as text.
  assertEquals(redact("k.ey+(1)[2]x and kXey+(1)[2]x", "k.ey+(1)[2]x"), "[redacted] and kXey+(1)[2]x");
});

Deno.test("redactAnswer: a prediction holding the key split by a newline keeps the rest of its text exactly", () => {
  const answer = {
    prediction: `  it is ${KEY.slice(0, 5)}\n${KEY.slice(5)}\n\nbye  `,
    responseModel: null,
    usage: {},
  };
  const { answer: clean, fields } = redactAnswer(answer, KEY);
  assertEquals(clean.prediction, "  it is [redacted]\n\nbye  ");
  assertEquals(fields, ["prediction"]);
});

Deno.test("redact stays linear on a hostile message: a million CSI sequences each ending in the key's first letter", () => {
  const text = "s\x1b[".repeat(1 << 20);
  const started = performance.now();
  assertEquals(redact(text, KEY), text);
  // Linear is well under a second; a search that rescans the sequences after every "s" takes hours.
  const elapsed = performance.now() - started;
  assertEquals(elapsed < 10_000, true, `${elapsed} ms`);
});
