import denoConfig from "../../deno.json" with { type: "json" };
import { ProviderError } from "../../lib/base/errors.ts";
import { AnswerFailedError, CallAbortedError, openAiProvider } from "../../lib/qa/provider.ts";
import { answerWithRetries } from "../../lib/qa/retry.ts";
import type { ChatMessage } from "../../lib/qa/prompt.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../helpers/assert.ts";
import { completion, errorResponse, never, startAnswerServer } from "../helpers/answer_server.ts";

const KEY = "sk-test-provider-4b1d9c";
const SETTINGS = { model: "deepseek-v4-flash", temperature: 0, maxTokens: 2048, stream: false };
const MESSAGES: ChatMessage[] = [{ role: "system", content: "S" }, { role: "user", content: "Q?" }];
const FAST = { backoffMs: () => 1 };

function provider(url: string, timeoutSeconds = 5, fetch?: typeof globalThis.fetch) {
  return openAiProvider({ baseUrl: url, apiKey: KEY, settings: SETTINGS, timeoutSeconds, fetch });
}

/** What one call of `call` threw (the test fails if it answered). */
async function failureOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("the call answered");
}

Deno.test("the client sends the pinned settings to <base>/chat/completions with the key as a bearer token", async () => {
  const server = startAnswerServer(() => completion("7", { model: "served-0731" }));
  try {
    const answer = await provider(server.url)(MESSAGES);
    assertEquals(answer.prediction, "7");
    assertEquals(answer.responseModel, "served-0731");
    const [request] = server.requests;
    assertEquals(request.method, "POST");
    assertEquals(request.path, "/v1/chat/completions");
    assertEquals(request.query, "");
    assertEquals(request.authorization, `Bearer ${KEY}`);
    assertEquals(request.headers.get("content-type"), "application/json");
    assertEquals(request.headers.get("accept"), "application/json");
    assertEquals(request.headers.get("user-agent"), `deermem-eval/${denoConfig.version}`);
    // Nothing of the SDK's own (its X-Stainless-* platform headers) and no organisation or project.
    const names = [...request.headers.keys()];
    assertEquals(names.filter((name) => /^(x-stainless|openai-)/.test(name)), []);
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

Deno.test("a base URL that is no URL fails the call at once, sending nothing", async () => {
  let sent = 0;
  const counting: typeof fetch = () => {
    sent++;
    return Promise.resolve(completion("7"));
  };
  const error = await failureOf(() => provider("llm.test/v1", 5, counting)(MESSAGES));
  assert(error instanceof ProviderError && !error.retryable, String(error));
  assertMatch(error.message, /^invalid base URL: /);
  assertEquals(sent, 0);
});

Deno.test("a base URL with a trailing slash or a query reaches the same path, the query kept", async () => {
  const server = startAnswerServer(() => completion("7"));
  try {
    await provider(`${server.url}/`)(MESSAGES);
    await provider(`${server.url}?api-version=2`)(MESSAGES);
    assertEquals(server.requests.map((request) => request.path + request.query), [
      "/v1/chat/completions",
      "/v1/chat/completions?api-version=2",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("an HTTP failure says the status and the server's message, retryable for 429 and 5xx only", async () => {
  const responses = [
    () => errorResponse(422, "model not found"),
    () => new Response("Bad gateway", { status: 502, headers: { "retry-after": "2" } }),
    () => new Response("", { status: 503 }),
    () => Response.json({ detail: "slow down" }, { status: 429, headers: { "retry-after": "soon" } }),
  ];
  const server = startAnswerServer((_request, index) => responses[index]());
  try {
    const failures = [];
    for (const _ of responses) {
      const error = await failureOf(() => provider(server.url)(MESSAGES));
      assert(error instanceof ProviderError, String(error));
      failures.push([error.message, error.retryable, error.status, error.retryAfterSeconds]);
    }
    assertEquals(failures, [
      ["HTTP 422: 422 model not found", false, 422, undefined],
      ["HTTP 502: 502 Bad gateway", true, 502, 2],
      ["HTTP 503: 503 status code (no body)", true, 503, undefined],
      ['HTTP 429: 429 {"detail":"slow down"}', true, 429, undefined],
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("a body that is not UTF-8 is refused, never decoded with replacement characters", async () => {
  const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
  const server = startAnswerServer((_request, index) =>
    new Response(bytes, { status: index === 0 ? 200 : 400, headers: { "content-type": "application/json" } })
  );
  try {
    const answered = await failureOf(() => provider(server.url)(MESSAGES));
    assert(answered instanceof ProviderError && !answered.retryable, String(answered));
    assertEquals(answered.message, "malformed response: the body is not valid UTF-8");
    const rejected = await failureOf(() => provider(server.url)(MESSAGES));
    assert(rejected instanceof ProviderError, String(rejected));
    assertEquals(rejected.message, "HTTP 400: 400 the body is not valid UTF-8");
  } finally {
    await server.close();
  }
});

Deno.test("a 2xx typed +json is read as JSON; a connection broken mid-body is a retryable network error", async () => {
  const typed: typeof fetch = () =>
    Promise.resolve(
      new Response(JSON.stringify({ choices: [{ message: { content: "7" } }] }), {
        headers: { "content-type": "application/vnd.llm+json; charset=utf-8" },
      }),
    );
  assertEquals((await provider("http://127.0.0.1:9/v1", 5, typed)(MESSAGES)).prediction, "7");
  const broken: typeof fetch = () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new TypeError(`connection reset while sending ${KEY}`));
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"choices":'));
      },
    });
    return Promise.resolve(new Response(body, { headers: { "content-type": "application/json" } }));
  };
  const error = await failureOf(() => provider("http://127.0.0.1:9/v1", 5, broken)(MESSAGES));
  assert(error instanceof ProviderError && error.retryable, String(error));
  assertEquals(error.message, "network error: connection reset while sending [redacted]");
});

/** A 200 whose body starts and then never ends (until the client lets go). */
function stalledBody(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"choices":'));
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}

Deno.test("the timeout covers the body too, and is told apart from the caller's abort", async () => {
  const server = startAnswerServer(() => stalledBody());
  try {
    const timedOut = await failureOf(() => provider(server.url, 0.2)(MESSAGES));
    assert(timedOut instanceof ProviderError && timedOut.retryable, String(timedOut));
    assertEquals(timedOut.message, "timed out after 0.2 s");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const aborted = await failureOf(() => provider(server.url, 30)(MESSAGES, controller.signal));
    assert(aborted instanceof CallAbortedError, String(aborted));
    assert(performance.now() - started < 10_000, "the abort did not wait for the timeout");
  } finally {
    await server.close();
  }
});

Deno.test("a call whose signal is already aborted sends nothing", async () => {
  const server = startAnswerServer(() => completion("7"));
  try {
    const controller = new AbortController();
    controller.abort();
    await assertRejects(() => provider(server.url)(MESSAGES, controller.signal), CallAbortedError);
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
  }
});
