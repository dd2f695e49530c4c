import { ProviderError } from "../../../lib/qa/mod.ts";
import {
  answerFromBody,
  httpFailure,
  networkCause,
  serverMessage,
} from "../../../lib/qa/answer/chat_completions.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";

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
    assertEquals(error.message, "response has no choices[0].message.content");
  }
});

Deno.test("a failed status: retryable for 429 and 5xx only, Retry-After kept when it is a number of seconds", () => {
  const failures = [[400, null], [401, null], [403, null], [404, null], [429, "2"], [500, "1.5"], [
    503,
    "soon",
  ]]
    .map(([status, retryAfter]) =>
      httpFailure(status as number, "llm.test", "m", retryAfter as string | null)
    )
    .map((error) => [error.message, error.retryable, error.status, error.retryAfterSeconds]);
  assertEquals(failures, [
    ["HTTP 400 from llm.test: m", false, 400, undefined],
    ["HTTP 401 from llm.test: m", false, 401, undefined],
    ["HTTP 403 from llm.test: m", false, 403, undefined],
    ["HTTP 404 from llm.test: m", false, 404, undefined],
    ["HTTP 429 from llm.test: m", true, 429, 2],
    ["HTTP 500 from llm.test: m", true, 500, 1.5],
    ["HTTP 503 from llm.test: m", true, 503, undefined],
  ]);
  assertEquals(httpFailure(502, "llm.test", undefined, null).message, "HTTP 502 from llm.test");
});

Deno.test("the server's message: error.message, an error string, else the parsed JSON, else the text", () => {
  assertEquals(
    serverMessage({ message: "Incorrect API key provided", type: "t" }),
    "Incorrect API key provided",
  );
  assertEquals(serverMessage("str"), "str");
  assertEquals(serverMessage({ message: "" }), '{"message":""}');
  assertEquals(serverMessage({ code: "c" }), '{"code":"c"}');
  assertEquals(serverMessage(undefined, "Bad gateway"), "Bad gateway");
  assertEquals(serverMessage(undefined, " \n"), undefined);
  assertEquals(serverMessage(undefined, undefined), undefined);
});

Deno.test("a network failure's cause in a few words, from Deno's nested fetch errors", () => {
  const fetchFailed = (message: string) => new TypeError("fetch failed", { cause: new Error(message) });
  const url = "error sending request for url (http://llm.test/v1/chat/completions)";
  assertEquals(
    [
      networkCause(
        fetchFailed(`${url}: client error (Connect): tcp connect error: Connection refused (os error 111)`),
      ),
      networkCause(
        fetchFailed(
          `${url}: client error (Connect): dns error: failed to lookup address information: Name or service not known`,
        ),
      ),
      networkCause(fetchFailed(`${url}: connection closed before message completed`)),
      networkCause(new TypeError("connection reset")),
      networkCause("boom"),
      networkCause(new Error("")),
    ],
    [
      "connection refused",
      "host not found",
      "connection closed before message completed",
      "connection reset",
      "boom",
      "unknown error",
    ],
  );
});

Deno.test("answerFromBody keeps every integer usage key, `__proto__` and other Object.prototype names included", () => {
  // JSON.parse, as the SDK parses the body: `__proto__` is an own key there.
  const body = JSON.parse(
    '{"choices":[{"message":{"content":"7"}}],"usage":{"__proto__":7,"constructor":1,"toString":2,"total_tokens":3}}',
  );
  const { usage } = answerFromBody(body);
  assertEquals(Object.keys(usage), ["__proto__", "constructor", "toString", "total_tokens"]);
  assertEquals(Object.getOwnPropertyDescriptor(usage, "__proto__")?.value, 7);
  assertEquals(Object.getPrototypeOf(usage), Object.prototype);
});
