/** A local OpenAI-compatible chat completions server for the run-qa tests, on 127.0.0.1 and a free port. */

export interface ReceivedRequest {
  method: string;
  path: string;
  /** The query string, `?` included (`""` when none). */
  query: string;
  authorization: string | null;
  /** Every header as received. */
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

export type Handler = (request: ReceivedRequest, index: number) => Response | Promise<Response>;

export interface AnswerServer {
  /** The base URL to give the client (ends in `/v1`). */
  url: string;
  /** Every request received, in arrival order. */
  requests: ReceivedRequest[];
  /** The most requests that were ever in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** Starts a server answering every POST with `handler`. Requests with a body that is not JSON get a 400. */
export function startAnswerServer(handler: Handler): AnswerServer {
  const controller = new AbortController();
  const requests: ReceivedRequest[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen: () => {} },
    async (request) => {
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      try {
        let body: unknown;
        try {
          body = await request.json();
        } catch {
          return new Response("bad json", { status: 400 });
        }
        const url = new URL(request.url);
        const received: ReceivedRequest = {
          method: request.method,
          path: url.pathname,
          query: url.search,
          authorization: request.headers.get("authorization"),
          headers: request.headers,
          body,
        };
        requests.push(received);
        return await handler(received, requests.length - 1);
      } finally {
        inFlight--;
      }
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: async () => {
      for (const release of held) release();
      held.clear();
      controller.abort();
      await server.finished;
    },
  };
}

/** A chat completion response with `content` as the answer. */
export function completion(
  content: unknown,
  options: { model?: string; usage?: Record<string, unknown>; status?: number } = {},
): Response {
  return Response.json({
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 0,
    model: options.model ?? "test-model",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: options.usage ?? { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
  }, { status: options.status ?? 200 });
}

/** An OpenAI-style error response. */
export function errorResponse(status: number, message = `error ${status}`): Response {
  return Response.json({ error: { message, type: "test", code: null } }, { status });
}

const held = new Set<() => void>();

/** A response that never comes: the request is held until its server closes. */
export function never(): Promise<Response> {
  return new Promise((resolve) => held.add(() => resolve(new Response("gone", { status: 503 }))));
}
