import { ProviderError } from "../lib/errors.ts";
import {
  AnswerFailedError,
  answerFromBody,
  answerWithRetries,
  CallAbortedError,
  defaultBackoffMs,
  openAiProvider,
  redact,
  redactAnswer,
} from "../lib/provider.ts";
import type { ChatMessage } from "../lib/prompt.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "./helpers/assert.ts";
import { completion, errorResponse, never, startAnswerServer } from "./helpers/answer_server.ts";

const KEY = "sk-test-provider-4b1d9c";
const SETTINGS = { model: "deepseek-v4-flash", temperature: 0, maxTokens: 2048, stream: false };
const MESSAGES: ChatMessage[] = [{ role: "system", content: "S" }, { role: "user", content: "Q?" }];
const FAST = { backoffMs: () => 1 };

function provider(url: string, timeoutSeconds = 5) {
  return openAiProvider({ baseUrl: url, apiKey: KEY, settings: SETTINGS, timeoutSeconds });
}

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

Deno.test("the client sends the pinned settings to <base>/chat/completions with the key as a bearer token", async () => {
  const server = startAnswerServer(() => completion("7", { model: "served-0731" }));
  try {
    const answer = await provider(server.url)(MESSAGES);
    assertEquals(answer.prediction, "7");
    assertEquals(answer.responseModel, "served-0731");
    const [request] = server.requests;
    assertEquals(request.path, "/v1/chat/completions");
    assertEquals(request.authorization, `Bearer ${KEY}`);
    assertEquals(request.body, {
      model: "deepseek-v4-flash",
      messages: MESSAGES,
      max_tokens: 2048,
      stream: false,
      temperature: 0,
    });
  } finally {
    await server.close();
  }
});

Deno.test("429, then 500, then 200 is one answer after 3 attempts", async () => {
  const server = startAnswerServer((_request, index) =>
    index === 0 ? errorResponse(429) : index === 1 ? errorResponse(500) : completion("ok")
  );
  try {
    const result = await answerWithRetries(provider(server.url), MESSAGES, { maxAttempts: 3, ...FAST });
    assertEquals(result.attempts, 3);
    assertEquals(result.answer.prediction, "ok");
    assertEquals(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("retryable failures stop at max_attempts and report the attempts made", async () => {
  const server = startAnswerServer(() => errorResponse(503));
  try {
    const error = await assertRejects(
      () => answerWithRetries(provider(server.url), MESSAGES, { maxAttempts: 2, ...FAST }),
      AnswerFailedError,
    );
    assertEquals(error.attempts, 2);
    assertMatch(error.message, /HTTP 503.*\(2 attempts\)/);
    assertEquals(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("a 401 and a malformed body fail at once, and a key the server echoes is redacted", async () => {
  const unauthorized = startAnswerServer(() => errorResponse(401, `Incorrect API key provided: ${KEY}`));
  try {
    const error = await assertRejects(
      () => answerWithRetries(provider(unauthorized.url), MESSAGES, { maxAttempts: 3, ...FAST }),
      AnswerFailedError,
    );
    assertEquals(error.attempts, 1);
    assertMatch(error.message, /HTTP 401/);
    assert(!error.message.includes(KEY), error.message);
    assertEquals(unauthorized.requests.length, 1);
  } finally {
    await unauthorized.close();
  }
  for (
    const respond of [
      () => Response.json({ choices: [] }),
      () => completion(null),
      () => new Response("<html>not json</html>", { headers: { "content-type": "text/html" } }),
      () => new Response("{not json", { headers: { "content-type": "application/json" } }),
    ]
  ) {
    const server = startAnswerServer(respond);
    try {
      const error = await assertRejects(
        () => answerWithRetries(provider(server.url), MESSAGES, { maxAttempts: 3, ...FAST }),
        AnswerFailedError,
      );
      assertEquals(error.attempts, 1);
      assertMatch(error.message, /malformed response/);
      assertEquals(server.requests.length, 1);
    } finally {
      await server.close();
    }
  }
});

Deno.test("a server that never answers hits the timeout, which is retried like a network error", async () => {
  const server = startAnswerServer(() => never());
  try {
    const started = performance.now();
    const error = await assertRejects(
      () => answerWithRetries(provider(server.url, 0.3), MESSAGES, { maxAttempts: 2, ...FAST }),
      AnswerFailedError,
    );
    assertMatch(error.message, /timed out after 0\.3 s \(2 attempts\)/);
    assertEquals(server.requests.length, 2);
    assert(performance.now() - started >= 550, "both attempts waited for the timeout");
  } finally {
    await server.close();
  }
});

Deno.test("a refused connection is a retryable network error", async () => {
  const server = startAnswerServer(() => completion("x"));
  const url = server.url;
  await server.close();
  const error = await assertRejects(
    () => answerWithRetries(provider(url), MESSAGES, { maxAttempts: 2, ...FAST }),
    AnswerFailedError,
  );
  assertEquals(error.attempts, 2);
  assertMatch(error.message, /network error/);
});

Deno.test("aborting stops a call in flight and a back-off wait, without counting a failure", async () => {
  const server = startAnswerServer(() => never());
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await assertRejects(
      () => answerWithRetries(provider(server.url), MESSAGES, { maxAttempts: 3 }, controller.signal),
      CallAbortedError,
    );
  } finally {
    await server.close();
  }
  const controller = new AbortController();
  const failing = () => Promise.reject(new ProviderError("HTTP 500", { retryable: true, status: 500 }));
  setTimeout(() => controller.abort(), 50);
  const started = performance.now();
  await assertRejects(
    () =>
      answerWithRetries(failing, MESSAGES, { maxAttempts: 3, backoffMs: () => 60_000 }, controller.signal),
    CallAbortedError,
  );
  assert(performance.now() - started < 5000, "the back-off wait was cut short");
});

Deno.test("back-off doubles from 0.5 s to an 8 s cap; Retry-After wins up to 30 s", () => {
  assertEquals([1, 2, 3, 4, 5, 6].map((n) => defaultBackoffMs(n)), [500, 1000, 2000, 4000, 8000, 8000]);
  assertEquals(defaultBackoffMs(1, 2), 2000);
  assertEquals(defaultBackoffMs(1, 600), 30_000);
});

Deno.test("redact removes every occurrence of the secret", () => {
  assertEquals(redact("a KEY b KEY", "KEY"), "a [redacted] b [redacted]");
  assertEquals(redact("nothing", ""), "nothing");
});

/** A 200 whose body streams `totalBytes` of one long answer, counting what the client actually pulled. */
function hugeAnswer(totalBytes: number, pulled: { bytes: number }): Response {
  const head = new TextEncoder().encode('{"model":"m","choices":[{"message":{"content":"');
  const tail = new TextEncoder().encode('"}}]}');
  const chunk = new TextEncoder().encode("a".repeat(65536));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = sent === 0 ? head : sent >= totalBytes ? tail : chunk;
      if (part === tail && sent > totalBytes) return controller.close();
      sent += part.length;
      pulled.bytes = sent;
      controller.enqueue(part);
    },
  }, { highWaterMark: 0 });
  return new Response(body, { headers: { "content-type": "application/json" } });
}

Deno.test("a body past 4 MiB fails the call at once as 'response too large', read no further than the cap", async () => {
  const pulled = { bytes: 0 };
  const server = startAnswerServer(() => hugeAnswer(50 * 1024 * 1024, pulled));
  try {
    const error = await assertRejects(
      () => answerWithRetries(provider(server.url), MESSAGES, { maxAttempts: 3, ...FAST }),
      AnswerFailedError,
    );
    assertMatch(error.message, /^response too large: more than 4 MiB \(1 attempt\)$/);
    assertEquals(server.requests.length, 1);
    assert(pulled.bytes < 8 * 1024 * 1024, `the client pulled ${pulled.bytes} bytes of a 50 MB answer`);
  } finally {
    await server.close();
  }
});

Deno.test("a body just under 4 MiB is an answer; the cap applies to error bodies too", async () => {
  const content = "b".repeat(4 * 1024 * 1024 - 1024);
  const server = startAnswerServer((_request, index) =>
    index === 0 ? completion(content) : new Response("x".repeat(5 * 1024 * 1024), { status: 400 })
  );
  try {
    const answer = await provider(server.url)(MESSAGES);
    assertEquals(answer.prediction.length, content.length);
    const error = await assertRejects(
      () => answerWithRetries(provider(server.url), MESSAGES, { maxAttempts: 3, ...FAST }),
      AnswerFailedError,
    );
    assertMatch(error.message, /^HTTP 400: .*response too large/);
    assert(error.message.length < 400, "an error body is never quoted at length");
  } finally {
    await server.close();
  }
});

Deno.test("redactAnswer replaces the key in the prediction, the model and usage names, and says where", () => {
  const answer = {
    prediction: `the key is ${KEY}, again ${KEY}`,
    responseModel: `m-${KEY}`,
    usage: { [`${KEY}_tokens`]: 3, total_tokens: 5 },
  };
  const { answer: clean, fields } = redactAnswer(answer, KEY);
  assertEquals(clean, {
    prediction: "the key is [redacted], again [redacted]",
    responseModel: "m-[redacted]",
    usage: { "[redacted]_tokens": 3, total_tokens: 5 },
  });
  assertEquals(fields, ["prediction", "response_model", "usage"]);
  const plain = { prediction: "7", responseModel: null, usage: {} };
  assertEquals(redactAnswer(plain, KEY), { answer: plain, fields: [] });
});
