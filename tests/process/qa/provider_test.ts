import { brotliCompressSync, constants as zlib, deflateSync, gzipSync } from "node:zlib";
import { AnswerFailedError, CallAbortedError, ProviderError } from "../../../lib/qa/answer/errors.ts";
import { openAiProvider, RESPONSE_BODY_LIMIT } from "../../../lib/qa/answer/provider.ts";
import { answerWithRetries } from "../../../lib/qa/answer/retry.ts";
import type { ChatMessage } from "../../../lib/qa/run/prompt.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { completion, errorResponse, never, startAnswerServer } from "../../helpers/answer_server.ts";
import { ROOT, taskFlags, withTempDir } from "../../helpers/cli.ts";

const KEY = "sk-test-provider-4b1d9c";
const SETTINGS = { model: "deepseek-v4-flash", temperature: 0, maxTokens: 2048, stream: false };
const MESSAGES: ChatMessage[] = [{ role: "system", content: "S" }, { role: "user", content: "Q?" }];
const FAST = { backoffMs: () => 1 };
/** Every header a request arrives with: the SDK's, our `accept-encoding`, and Deno's fetch's `accept-language`. */
const WIRE_HEADERS = [
  "accept",
  "accept-encoding",
  "accept-language",
  "authorization",
  "content-length",
  "content-type",
  "host",
  "user-agent",
  "x-stainless-arch",
  "x-stainless-lang",
  "x-stainless-os",
  "x-stainless-package-version",
  "x-stainless-retry-count",
  "x-stainless-runtime",
  "x-stainless-runtime-version",
];

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

/** The call's failure, which must be a ProviderError that is not retried (a final answer for its row). */
async function finalFailureOf(call: () => Promise<unknown>): Promise<ProviderError> {
  const error = await failureOf(call);
  assert(error instanceof ProviderError && !error.retryable, String(error));
  return error;
}

/** A fetch that answers "7" and counts its calls (a test asserts none was made). */
function answerCounting(): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  return {
    fetch: () => {
      calls++;
      return Promise.resolve(completion("7"));
    },
    calls: () => calls,
  };
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
    assertEquals(request.headers.get("accept-encoding"), "gzip"); // not brotli: see lib/qa/answer/_body.ts
    // The SDK's own headers, as its Python counterpart sends them for the reference; no retries of its own.
    assertEquals(request.headers.get("user-agent"), "OpenAI/JS 7.59.0");
    assertEquals(request.headers.get("x-stainless-lang"), "js");
    assertEquals(request.headers.get("x-stainless-package-version"), "7.59.0");
    assertEquals(request.headers.get("x-stainless-runtime"), "deno");
    assertEquals(request.headers.get("x-stainless-retry-count"), "0");
    // No organisation or project: nothing the SDK would take from OPENAI_* variables.
    assertEquals([...request.headers.keys()], WIRE_HEADERS);
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
    assertMatch(error.message, /^HTTP 503 from 127\.0\.0\.1:\d+: error 503 \(2 attempts\)$/);
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
    assertMatch(
      error.message,
      /^HTTP 401 from 127\.0\.0\.1:\d+: Incorrect API key provided: \[redacted\] \(1 attempt\)$/,
    );
    assert(!error.message.includes(KEY), error.message);
    assertEquals(unauthorized.requests.length, 1);
  } finally {
    await unauthorized.close();
  }
  const noContent = /^response has no choices\[0\]\.message\.content \(1 attempt\)$/;
  for (
    const [respond, message] of [
      [() => Response.json({ choices: [] }), noContent],
      [() => completion(null), noContent],
      [() => new Response("<html>not json</html>", { headers: { "content-type": "text/html" } }), noContent],
      [
        () => new Response("{not json", { headers: { "content-type": "application/json" } }),
        /^response is not valid JSON \(1 attempt\)$/,
      ],
    ] as const
  ) {
    const server = startAnswerServer(respond);
    try {
      const error = await assertRejects(
        () => answerWithRetries(provider(server.url), MESSAGES, { maxAttempts: 3, ...FAST }),
        AnswerFailedError,
      );
      assertEquals(error.attempts, 1);
      assertMatch(error.message, message);
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
  assertMatch(error.message, /^cannot reach 127\.0\.0\.1:\d+: connection refused \(2 attempts\)$/);
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
  // What the provider itself read of the body, as against what the server produced into the socket.
  const read = { bytes: 0 };
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = response.body!.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          read.bytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, response);
  };
  try {
    const error = await assertRejects(
      () => answerWithRetries(provider(server.url, 5, counting), MESSAGES, { maxAttempts: 3, ...FAST }),
      AnswerFailedError,
    );
    assertMatch(error.message, /^response too large \(over 4 MiB\) \(1 attempt\)$/);
    assertEquals(server.requests.length, 1);
    assert(read.bytes < RESPONSE_BODY_LIMIT + 1024 * 1024, `the provider read ${read.bytes} bytes`);
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
    assertEquals([error.attempts, (error.cause as ProviderError).status], [1, 400]);
    assertMatch(
      error.message,
      /^HTTP 400 from 127\.0\.0\.1:\d+: response too large \(over 4 MiB\) \(1 attempt\)$/,
    );
    assert(error.message.length < 400, "an error body is never quoted at length");
  } finally {
    await server.close();
  }
});

const SHELL = JSON.stringify({ model: "m", choices: [{ message: { content: "" } }] });

/** A chat completion body of exactly `bytes` bytes (the answer padded to fit). */
function completionOfSize(bytes: number): Response {
  const body = SHELL.replace('"content":""', `"content":"${"c".repeat(bytes - SHELL.length)}"`);
  return new Response(body, { headers: { "content-type": "application/json" } });
}

Deno.test("the cap is exact: a body of 4 MiB is an answer, one of 4 MiB + 1 byte fails at once", async () => {
  const server = startAnswerServer((_request, index) =>
    completionOfSize(index === 0 ? RESPONSE_BODY_LIMIT : RESPONSE_BODY_LIMIT + 1)
  );
  try {
    const answer = await provider(server.url)(MESSAGES);
    assertEquals(answer.prediction.length, RESPONSE_BODY_LIMIT - SHELL.length);
    const error = await finalFailureOf(() => provider(server.url)(MESSAGES));
    assertEquals(error.message, "response too large (over 4 MiB)");
  } finally {
    await server.close();
  }
});

Deno.test("a base URL that is no URL, or an empty key, fails the call at once, sending nothing", async () => {
  const { fetch: counting, calls } = answerCounting();
  const error = await finalFailureOf(() => provider("llm.test/v1", 5, counting)(MESSAGES));
  assertMatch(error.message, /^invalid base URL: llm\.test\/v1$/);
  const keyless = openAiProvider({
    baseUrl: "https://llm.test/v1",
    apiKey: "",
    settings: SETTINGS,
    timeoutSeconds: 5,
    fetch: counting,
  });
  const refused = await finalFailureOf(() => keyless(MESSAGES));
  assertEquals(refused.message, "no API key");
  assertEquals(calls(), 0);
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
    const host = new URL(server.url).host;
    assertEquals(failures, [
      [`HTTP 422 from ${host}: model not found`, false, 422, undefined],
      [`HTTP 502 from ${host}: Bad gateway`, true, 502, 2],
      [`HTTP 503 from ${host}`, true, 503, undefined],
      [`HTTP 429 from ${host}: {"detail":"slow down"}`, true, 429, undefined],
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
    const answered = await finalFailureOf(() => provider(server.url)(MESSAGES));
    assertEquals(answered.message, "response is not valid UTF-8");
    const rejected = await finalFailureOf(() => provider(server.url)(MESSAGES));
    assertEquals(rejected.message, `HTTP 400 from ${new URL(server.url).host}: response is not valid UTF-8`);
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
  assertEquals(error.message, "response cut off: connection reset while sending [redacted]");
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

Deno.test("the base URL is joined as the openai SDK joins it: one slash, the base's query after the path", async () => {
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
  for (const [base, expected] of cases) {
    const urls: string[] = [];
    const recording: typeof fetch = (input) => {
      urls.push(String(input));
      return Promise.resolve(completion("7"));
    };
    await provider(base, 5, recording)(MESSAGES);
    assertEquals(urls, [expected], base);
  }
});

Deno.test("an error status is worded from its body: the server's message, else what it sent", async () => {
  const cases: [string, string][] = [
    ['{"error":{"message":"m","type":"t"}}', ": m"],
    ['{"error":{"message":{"a":1}}}', ': {"message":{"a":1}}'],
    ['{"error":{"message":""}}', ': {"message":""}'],
    ['{"error":{"code":"c"}}', ': {"code":"c"}'],
    ['{"error":"str"}', ": str"],
    ['{"detail":"x"}', ': {"detail":"x"}'],
    ["[1,2]", ": [1,2]"],
    ["bad gateway", ": bad gateway"],
    ["", ""],
    ["  \n", ""],
    ["null", ": null"],
    [`{"error":{"message":"bad key ${KEY}"}}`, ": bad key [redacted]"],
    // Split by a newline: its whitespace collapsed first, so no key "but for one space" is printed.
    [
      JSON.stringify({ error: { message: `bad key ${KEY.slice(0, 9)}\n  ${KEY.slice(9)} given` } }),
      ": bad key [redacted] given",
    ],
    // A server's control sequences (OSC 52, a screen clear, a C1 CSI, a bidi override) shown as escapes.
    [
      JSON.stringify({ error: { message: "m\x1b]52;c;aGk=\x07\x1b[2J\u009b1m\u202e" } }),
      ": m\\u001b]52;c;aGk=\\u0007\\u001b[2J\\u009b1m\\u202e",
    ],
    [`${"x".repeat(1000)}`, `: ${"x".repeat(240 - "HTTP 400 from llm.test: ".length)}…`],
  ];
  for (const [body, expected] of cases) {
    const server: typeof fetch = () => Promise.resolve(new Response(body, { status: 400 }));
    const error = await failureOf(() => provider("https://llm.test/v1", 5, server)(MESSAGES));
    assert(error instanceof ProviderError && !error.retryable && error.status === 400, String(error));
    assertEquals(error.message, `HTTP 400 from llm.test${expected}`, body);
  }
});

Deno.test("the SDK takes nothing from OPENAI_* variables and logs nothing", async () => {
  const server = startAnswerServer(() => completion("7"));
  const variables: Record<string, string> = {
    OPENAI_BASE_URL: "http://127.0.0.1:9/elsewhere",
    OPENAI_API_KEY: "sk-from-the-environment",
    OPENAI_ORG_ID: "org-env",
    OPENAI_PROJECT_ID: "proj-env",
    OPENAI_LOG: "debug",
  };
  const logged: unknown[] = [];
  const saved = { ...console };
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    console[level] = (...args: unknown[]) => logged.push(args);
  }
  try {
    for (const [name, value] of Object.entries(variables)) Deno.env.set(name, value);
    await provider(server.url)(MESSAGES);
    await failureOf(() => provider(server.url.replace(/:\d+/, ":1"))(MESSAGES));
  } finally {
    Object.assign(console, saved);
    for (const name of Object.keys(variables)) Deno.env.delete(name);
    await server.close();
  }
  assertEquals(logged, []);
  const [request] = server.requests;
  assertEquals([server.requests.length, request.path, request.authorization], [
    1,
    "/v1/chat/completions",
    `Bearer ${KEY}`,
  ]);
  assertEquals([...request.headers.keys()].filter((name) => /^openai-/.test(name)), []);
});

Deno.test("under run-qa's permission flags, OPENAI_* variables in the environment change nothing and print nothing", async () => {
  const server = startAnswerServer(() => completion("7"));
  try {
    await withTempDir(async (directory) => {
      const script = `${directory}/call.ts`;
      await Deno.writeTextFile(
        script,
        `import { openAiProvider } from "${ROOT}lib/qa/answer/provider.ts";
const settings = ${JSON.stringify(SETTINGS)};
const provider = openAiProvider({ baseUrl: Deno.args[0], apiKey: "${KEY}", settings, timeoutSeconds: 120 });
console.log((await provider([{ role: "user", content: "Q?" }])).prediction);
`,
      );
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--config", `${ROOT}deno.json`, ...taskFlags("run-qa"), script, server.url],
        env: {
          NO_COLOR: "1",
          OPENAI_BASE_URL: "http://127.0.0.1:9/elsewhere",
          OPENAI_API_KEY: "sk-from-the-environment",
          OPENAI_ORG_ID: "org-env",
          OPENAI_PROJECT_ID: "proj-env",
          OPENAI_LOG: "debug",
          OPENAI_CUSTOM_HEADERS: "X-From-Environment: 1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const decoder = new TextDecoder();
      assertEquals([output.code, decoder.decode(output.stdout), decoder.decode(output.stderr)], [
        0,
        "7\n",
        "",
      ]);
    });
    const [request] = server.requests;
    assertEquals(server.requests.length, 1);
    assertEquals(request.authorization, `Bearer ${KEY}`);
    assertEquals([...request.headers.keys()], WIRE_HEADERS);
  } finally {
    await server.close();
  }
});

/** A 200 of `body` typed as JSON. */
function jsonBody(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": "application/json" } });
}

/** A chat completion answering "7" whose `extra` field nests `depth` arrays in all. */
function nestedCompletion(depth: number): string {
  // The completion itself is 4 deep at its content: {choices:[{message:{...}}]}; `extra` sits at depth 1.
  return `{"choices":[{"message":{"content":"7"}}],"extra":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
}

Deno.test("nesting is bounded before the body is parsed: 1000 deep is an answer, 1001 fails at once", async () => {
  const answered = await provider(
    "http://127.0.0.1:9/v1",
    5,
    () => Promise.resolve(jsonBody(nestedCompletion(1000))),
  )(
    MESSAGES,
  );
  assertEquals(answered.prediction, "7");
  for (
    const [body, status] of [[nestedCompletion(1001), 200], ["[".repeat(2e6) + "]".repeat(2e6), 200]] as const
  ) {
    const error = await finalFailureOf(() =>
      provider("http://127.0.0.1:9/v1", 5, () => Promise.resolve(jsonBody(body, status)))(MESSAGES)
    );
    assertEquals(error.message, "response nests deeper than 1000");
  }
  // Brackets inside strings are text, not nesting.
  const text = `{"choices":[{"message":{"content":"${"[{".repeat(5000)}\\"]"}}]}`;
  assertEquals(
    (await provider("http://127.0.0.1:9/v1", 5, () => Promise.resolve(jsonBody(text)))(MESSAGES)).prediction,
    `${"[{".repeat(5000)}"]`,
  );
});

Deno.test("an error body nested too deep is reported, never parsed", async () => {
  const body = `{"error":${"[".repeat(1e5)}${"]".repeat(1e5)}}`;
  const error = await failureOf(() =>
    provider("https://llm.test/v1", 5, () => Promise.resolve(jsonBody(body, 400)))(MESSAGES)
  );
  assert(error instanceof ProviderError && !error.retryable && error.status === 400, String(error));
  assertEquals(error.message, "HTTP 400 from llm.test: response nests deeper than 1000");
});

Deno.test("the values in a body are bounded before it is parsed: 100000 are an answer, one more fails at once", async () => {
  // Six values (the body, choices, its item, message, content, extra) and `extra`'s zeros.
  const completionOf = (values: number) =>
    jsonBody(`{"choices":[{"message":{"content":"7"}}],"extra":[${"0,".repeat(values - 7)}0]}`);
  const answered = await provider("http://127.0.0.1:9/v1", 5, () => Promise.resolve(completionOf(100_000)))(
    MESSAGES,
  );
  assertEquals(answered.prediction, "7");
  const error = await finalFailureOf(() =>
    provider("http://127.0.0.1:9/v1", 5, () => Promise.resolve(completionOf(100_001)))(MESSAGES)
  );
  assertEquals(error.message, "response holds more than 100000 JSON values");
});

/** A fetch that counts the (decoded) body bytes the provider reads through it. */
function countingFetch(read: { bytes: number }): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = response.body!.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          read.bytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, response);
  };
}

Deno.test("a gzip bomb is refused at 4 MiB decoded, its decoded bytes counted as they arrive", async () => {
  const bomb = new Uint8Array(gzipSync(new Uint8Array(32 * 1024 * 1024)));
  assert(bomb.byteLength < 64 * 1024, "a small body");
  const server = startAnswerServer(() =>
    new Response(bomb, { headers: { "content-type": "application/json", "content-encoding": "gzip" } })
  );
  const read = { bytes: 0 };
  try {
    const error = await finalFailureOf(() => provider(server.url, 5, countingFetch(read))(MESSAGES));
    assertEquals(error.message, "response too large (over 4 MiB)");
    assert(read.bytes <= RESPONSE_BODY_LIMIT + 64 * 1024, `${read.bytes} bytes decoded`);
    assertEquals(server.requests[0].headers.get("accept-encoding"), "gzip");
  } finally {
    await server.close();
  }
});

Deno.test("a body in a coding not asked for (brotli, deflate) is refused unread: no decoder window is filled", async () => {
  const zeros = new Uint8Array(32 * 1024 * 1024);
  // A 16 MiB window: Deno's fetch would fill it before a decoded byte could be counted.
  const brotli = brotliCompressSync(zeros, { params: { [zlib.BROTLI_PARAM_LGWIN]: 24 } });
  const bodies = { br: new Uint8Array(brotli), deflate: new Uint8Array(deflateSync(zeros)) };
  for (const [coding, body] of Object.entries(bodies)) {
    const server = startAnswerServer(() =>
      new Response(body, { headers: { "content-type": "application/json", "content-encoding": coding } })
    );
    const read = { bytes: 0 };
    try {
      const error = await finalFailureOf(() => provider(server.url, 5, countingFetch(read))(MESSAGES));
      assertEquals(error.message, `response is compressed as ${coding}, which was not asked for`);
      assertEquals(read.bytes, 0);
    } finally {
      await server.close();
    }
  }
});

interface Seen {
  method: string;
  path: string;
  body: string;
  authorization: string | null;
  contentType: string | null;
}

/** A bare server on 127.0.0.1 recording every request (any method) and answering with `respond`. */
function bareServer(respond: (seen: Seen, index: number) => Response) {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const entry = {
      method: request.method,
      path: new URL(request.url).pathname,
      body: await request.text(),
      authorization: request.headers.get("authorization"),
      contentType: request.headers.get("content-type"),
    };
    seen.push(entry);
    return respond(entry, seen.length - 1);
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

const redirect = (status: number, location: string) => new Response(null, { status, headers: { location } });

Deno.test("a redirect to another origin fails the call at once, whatever its status; nothing is sent there", async () => {
  const elsewhere = bareServer(() => completion("from elsewhere"));
  const server = bareServer((seen) =>
    redirect(Number(seen.path.split("/")[1]), `${elsewhere.origin}/v1/chat/completions`)
  );
  try {
    for (const status of [301, 302, 303, 307, 308]) {
      const error = await finalFailureOf(() => provider(`${server.origin}/${status}`)(MESSAGES));
      assertEquals(error.message, `redirected to another host (${elsewhere.origin})`);
    }
    assertEquals([server.seen.length, elsewhere.seen.length], [5, 0]);
  } finally {
    await server.close();
    await elsewhere.close();
  }
});

Deno.test("a same-origin redirect is followed: 307 and 308 keep the method and body, 301 to 303 become a GET", async () => {
  const server = bareServer((seen) =>
    seen.path.startsWith("/to/")
      ? completion(seen.method)
      : redirect(Number(seen.path.split("/")[1]), `/to${seen.path}`)
  );
  try {
    for (
      const [status, method] of [[307, "POST"], [308, "POST"], [301, "GET"], [302, "GET"], [
        303,
        "GET",
      ]] as const
    ) {
      const answer = await provider(`${server.origin}/${status}/v1`)(MESSAGES);
      assertEquals(answer.prediction, method, String(status));
      const [sent, followed] = server.seen.splice(0);
      assertEquals([followed.path, followed.method, followed.authorization], [
        `/to/${status}/v1/chat/completions`,
        method,
        `Bearer ${KEY}`,
      ]);
      assertEquals(
        [followed.body, followed.contentType],
        method === "POST" ? [sent.body, "application/json"] : ["", null],
      );
    }
  } finally {
    await server.close();
  }
});

Deno.test("redirects are bounded: 20 are followed, the 21st fails the call", async () => {
  const server = bareServer((seen) => {
    const hops = Number(seen.path.split("/")[1]);
    const left = Number(seen.path.split("/")[2]);
    return left === 0
      ? completion(`after ${hops}`)
      : redirect(307, `/${hops + 1}/${left - 1}/v1/chat/completions`);
  });
  try {
    assertEquals((await provider(`${server.origin}/0/20/v1`)(MESSAGES)).prediction, "after 20");
    const error = await finalFailureOf(() => provider(`${server.origin}/0/21/v1`)(MESSAGES));
    assertEquals(error.message, "too many redirects (over 20)");
  } finally {
    await server.close();
  }
});

Deno.test("a key a header cannot carry fails the call at once, sending nothing and never quoting it", async () => {
  const { fetch: counting, calls } = answerCounting();
  for (const apiKey of ["sk-a\nb", "sk-ключ", "sk-\x7f", "sk-\r", "sk-\0", "sk-é", "sk-x1 "]) {
    const call = openAiProvider({
      baseUrl: "https://llm.test/v1",
      apiKey,
      settings: SETTINGS,
      timeoutSeconds: 5,
      fetch: counting,
    });
    const error = await finalFailureOf(() => call(MESSAGES));
    assertMatch(
      error.message,
      /^the API key (holds a character an HTTP header cannot carry|ends in whitespace)/,
    );
    assert(!error.message.includes(apiKey.slice(3)), error.message);
  }
  assertEquals(calls(), 0);
});

Deno.test("large bodies in flight share the provider's budget: beyond it a call waits its turn, then answers", async () => {
  const body = new TextEncoder().encode(
    JSON.stringify({ choices: [{ message: { content: "c".repeat(1024 * 1024) } }] }),
  );
  // Each body streams in 64 KiB pieces, 5 ms apart, so that the calls overlap.
  const server = startAnswerServer(() => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (sent >= body.byteLength) return controller.close();
        controller.enqueue(body.subarray(sent, sent += 65536));
      },
    }, { highWaterMark: 0 });
    const headers = { "content-type": "application/json", "content-length": String(body.byteLength) };
    return new Response(stream, { headers });
  });
  // Bodies past 512 KiB delivered hold a reservation: count how many at once.
  let holding = 0;
  let most = 0;
  const tracking: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    let delivered = 0;
    const counted = response.body!.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          if (delivered <= 512 * 1024 && delivered + chunk.byteLength > 512 * 1024) {
            most = Math.max(most, ++holding);
          }
          delivered += chunk.byteLength;
          controller.enqueue(chunk);
        },
        flush() {
          if (delivered > 512 * 1024) holding--;
        },
      }),
    );
    return new Response(counted, response);
  };
  try {
    const call = openAiProvider({
      baseUrl: server.url,
      apiKey: KEY,
      settings: SETTINGS,
      timeoutSeconds: 30,
      fetch: tracking,
      maxBytesInFlight: 2 * body.byteLength,
    });
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(MESSAGES)));
    assertEquals(answers.map((answer) => answer.prediction.length), Array(6).fill(1024 * 1024));
    assertEquals(most, 2);
  } finally {
    await server.close();
  }
});
