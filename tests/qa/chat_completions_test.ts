import { ProviderError } from "../../lib/base/errors.ts";
import { answerFromBody, chatCompletionsUrl, httpErrorMessage } from "../../lib/qa/chat_completions.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

Deno.test("answerFromBody keeps the prediction, the model and integer usage counts only", () => {
  const answer = answerFromBody({
    model: "m-0731",
    choices: [{ message: { content: "  7 " } }],
    usage: { prompt_tokens: 5, completion_tokens: 2, ratio: 0.5, details: { cached: 1 }, flag: true },
  });
  assertEquals(answer, {
    prediction: "  7 ",
    responseModel: "m-0731",
    usage: { prompt_tokens: 5, completion_tokens: 2 },
  });
  assertEquals(answerFromBody({ choices: [{ message: { content: "" } }] }).responseModel, null);
  for (const body of [{}, { choices: [] }, { choices: [{ message: { content: null } }] }, "text", null]) {
    const error = (() => {
      try {
        answerFromBody(body);
      } catch (error) {
        return error;
      }
    })();
    assert(error instanceof ProviderError && !error.retryable, JSON.stringify(body));
  }
});

Deno.test("the URL is joined from the base as the openai SDK joins it: one slash, the base's query after the path", () => {
  // Expected values printed by openai@7.59.0's own buildURL("/chat/completions") for each base URL.
  const cases: [string, string][] = [
    ["https://llm.test/v1", "https://llm.test/v1/chat/completions"],
    ["https://llm.test/v1/", "https://llm.test/v1/chat/completions"],
    ["https://llm.test/v1//", "https://llm.test/v1//chat/completions"],
    ["https://llm.test", "https://llm.test/chat/completions"],
    ["https://llm.test/", "https://llm.test/chat/completions"],
    [
      "http://127.0.0.1:8080/openai/deployments/d",
      "http://127.0.0.1:8080/openai/deployments/d/chat/completions",
    ],
    [
      "https://llm.test/v1?api-version=2024-10-21",
      "https://llm.test/v1/chat/completions?api-version=2024-10-21",
    ],
    ["https://llm.test/v1/?b=2&a=1", "https://llm.test/v1/chat/completions?b=2&a=1"],
    ["https://llm.test/v1?a=1&a=2&b=3", "https://llm.test/v1/chat/completions?b=3&a=1&a=2"],
    [
      "https://llm.test/v1?x=a%20b+c&y=%21*'()~",
      "https://llm.test/v1/chat/completions?x=a%20b%20c&y=%21%2A%27%28%29~",
    ],
    ["https://llm.test/v1?", "https://llm.test/v1/chat/completions"],
    ["https://llm.test/v1?q=1#part", "https://llm.test/v1/chat/completions?q=1"],
  ];
  for (const [base, expected] of cases) assertEquals(chatCompletionsUrl(base), expected, base);
});

Deno.test("an error status is worded from its body as the openai SDK worded it", () => {
  // Expected values printed by openai@7.59.0 (the message of the APIError it made from each 400 body).
  const cases: [string, string][] = [
    ['{"error":{"message":"m","type":"t"}}', "400 m"],
    ['{"error":{"message":{"a":1}}}', '400 {"a":1}'],
    ['{"error":{"message":""}}', '400 {"message":""}'],
    ['{"error":{"code":"c"}}', '400 {"code":"c"}'],
    ['{"error":"str"}', '400 "str"'],
    ['{"detail":"x"}', '400 {"detail":"x"}'],
    ["[1,2]", "400 [1,2]"],
    ["bad gateway", "400 bad gateway"],
    ["", "400 status code (no body)"],
    ["0", "400 0"],
    ["null", "400 null"],
    ["5", "400 status code (no body)"],
    ['"str"', "400 status code (no body)"],
  ];
  for (const [body, expected] of cases) assertEquals(httpErrorMessage(400, body), expected, body);
});
