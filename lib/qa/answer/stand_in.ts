/**
 * The stand-in answerer: a deterministic, keyless OpenAI chat-completions endpoint this program serves itself on
 * 127.0.0.1, so `run-qa --stand-in` (and the demo) go through exactly the path a real endpoint takes — the SDK,
 * retries, caps, resume. It is not a language model: it answers with the stored fact that shares the most words
 * with the question, or INSUFFICIENT when none does, so whether the support was kept decides correctness. When
 * the request's temperature is above 0 it samples: a draw seeded by the request fingerprint and the run number
 * among the facts that share words with the question, so repeated runs vary, reproducibly and offline.
 *
 * @module
 */

import { sha256Hex } from "../../base/mod.ts";
import { PythonRandom } from "../../py/mod.ts";
import { normalizeAnswer, STOPWORDS } from "../grade/grading.ts";
import { fingerprintPayload } from "../run/prompt.ts";
import { STAND_IN_MODEL } from "../../protocol/mod.ts";

// The model name every stand-in answer carries (the demo's config asks for it), never a real model's.
export { STAND_IN_MODEL };

function contentWords(text: string): Set<string> {
  return new Set(normalizeAnswer(text).filter((token) => !STOPWORDS.has(token)));
}

/**
 * The stand-in's answer to a rendered answer prompt: the `STORED MEMORY` fact sharing the most content words with
 * the `QUESTION` (the first such fact in the prompt's order on a tie), or `INSUFFICIENT` when none shares one;
 * to a question asking for YES or NO, NO when that fact holds a negation, else YES.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { standInAnswer } from "./stand_in.ts";
 * const user = "STORED MEMORY:\n[a]\nOmar likes tea.\n\n[b]\nLena paid 42 dollars for the kite.\n\nQUESTION: What did Lena pay for the kite?";
 * strictEqual(standInAnswer([{ role: "system", content: "S" }, { role: "user", content: user }]), "Lena paid 42 dollars for the kite.");
 * strictEqual(standInAnswer([{ role: "user", content: user.replace("Lena", "Ada").replace("kite?", "lake?") }]), "INSUFFICIENT");
 * const yesNo = "STORED MEMORY:\n[c]\nNever ship to Beijing.\n\nQUESTION: Ship to Beijing? Answer YES or NO.";
 * strictEqual(standInAnswer([{ role: "user", content: yesNo }]), "NO");
 * // Sampling: `pick` chooses among the facts sharing a word (here 2: [a] shares "tea", [b] "Lena").
 * const both = user.replace("QUESTION: What did Lena pay for the kite?", "QUESTION: Did Lena buy tea?");
 * strictEqual(standInAnswer([{ role: "user", content: both }], (count) => count - 1), "Lena paid 42 dollars for the kite.");
 * strictEqual(standInAnswer([{ role: "user", content: both }], () => 0), "Omar likes tea.");
 * ```
 */
export function standInAnswer(
  messages: readonly { role?: string; content: string }[],
  pick?: (count: number) => number,
): string {
  const user = messages.at(-1)?.content ?? "";
  const memoryAt = user.indexOf("STORED MEMORY:\n");
  const questionAt = user.lastIndexOf("\n\nQUESTION: ");
  if (memoryAt < 0 || questionAt < memoryAt) return "INSUFFICIENT";
  const question = contentWords(user.slice(questionAt + "\n\nQUESTION: ".length));
  const facts = user.slice(memoryAt + "STORED MEMORY:\n".length, questionAt).split(/\n\n(?=\[[^\]\n]*\]\n)/)
    .map((block) => block.slice(block.indexOf("\n") + 1));
  let best = "INSUFFICIENT";
  let bestShared = 0;
  const sharing: string[] = [];
  for (const fact of facts) {
    let shared = 0;
    for (const word of contentWords(fact)) if (question.has(word)) shared++;
    if (shared > 0) sharing.push(fact);
    if (shared > bestShared) [best, bestShared] = [fact, shared];
  }
  if (pick !== undefined && sharing.length > 0) best = sharing[pick(sharing.length)];
  // A YES/NO question gets YES or NO, read off the fact: NO when it negates.
  if (bestShared > 0 && /\bYES or NO\b/i.test(user.slice(questionAt))) {
    return /\b(?:not|never|no|cannot|don't|doesn't|isn't|aren't|won't|shouldn't)\b/i.test(best)
      ? "NO"
      : "YES";
  }
  return best;
}

/** A running stand-in endpoint. */
export interface StandInServer {
  /** The base URL to give the client (`http://127.0.0.1:PORT/v1`). */
  baseUrl: string;
  /** The base URL of run `run` (from 1): the same origin, so reuse keys see one endpoint. */
  runUrl(run: number): string;
  /** Stops the server; resolves when it has. */
  close(): Promise<void>;
}

function words(text: string): number {
  return text.split(/\s+/).filter((word) => word !== "").length;
}

/** A chat-completions request body as the stand-in reads it. */
interface CompletionBody {
  model?: unknown;
  messages?: { role?: unknown; content?: unknown }[];
  max_tokens?: unknown;
  stream?: unknown;
  temperature?: unknown;
}

/**
 * The stand-in's draw for a request at temperature above 0: Python's `randrange(count)` seeded by the SHA-256 of
 * the request fingerprint (as the rows record it) and the run number; `undefined` at temperature 0.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { standInPick } from "./stand_in.ts";
 * const body = { model: "m", messages: [{ role: "user", content: "Q" }], max_tokens: 5, stream: false };
 * strictEqual(await standInPick({ ...body, temperature: 0 }, 1), undefined);
 * const [one, again] = [await standInPick({ ...body, temperature: 0.7 }, 1), await standInPick({ ...body, temperature: 0.7 }, 1)];
 * strictEqual(one!(1000), again!(1000)); // seeded: the same request and run draw the same
 * ```
 */
export async function standInPick(
  body: CompletionBody,
  run: number,
): Promise<((count: number) => number) | undefined> {
  const temperature = typeof body.temperature === "number" ? body.temperature : 0;
  if (!(temperature > 0)) return undefined;
  const messages = (Array.isArray(body.messages) ? body.messages : []).map((message) => ({
    role: message?.role === "system" ? "system" as const : "user" as const,
    content: typeof message?.content === "string" ? message.content : "",
  }));
  const fingerprint = await sha256Hex(fingerprintPayload({
    model: typeof body.model === "string" ? body.model : "",
    temperature,
    maxTokens: typeof body.max_tokens === "number" ? body.max_tokens : 0,
    stream: body.stream === true,
  }, messages));
  const random = new PythonRandom(BigInt(`0x${await sha256Hex(`${fingerprint}\n${run}`)}`));
  return (count) => random.randrange(count);
}

/** One chat completion of the stand-in, its usage counted in words (deterministic, so resumes are exact). */
async function completion(body: CompletionBody, run: number): Promise<Response> {
  const messages = (Array.isArray(body.messages) ? body.messages : []).map((message) => ({
    content: typeof message?.content === "string" ? message.content : "",
  }));
  const answer = standInAnswer(messages, await standInPick(body, run));
  const prompt = messages.reduce((sum, message) => sum + words(message.content), 0);
  return Response.json({
    id: "stand-in",
    object: "chat.completion",
    created: 0,
    model: STAND_IN_MODEL,
    choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
    usage: { prompt_tokens: prompt, completion_tokens: words(answer), total_tokens: prompt + words(answer) },
  });
}

/**
 * Serves the stand-in on 127.0.0.1 at a free port until `close()`: `POST …/chat/completions` answers, anything
 * else is a 404. Under `/run-<r>/` it answers run r (the base URL is run 1): the run number seeds the draw
 * when the request's temperature is above 0.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { STAND_IN_MODEL, startStandIn } from "./stand_in.ts";
 * const server = startStandIn();
 * const user = "STORED MEMORY:\n[a]\nThe kite cost 42 dollars.\n\nQUESTION: What did the kite cost?";
 * const response = await fetch(`${server.baseUrl}/chat/completions`, {
 *   method: "POST",
 *   body: JSON.stringify({ model: "m", messages: [{ role: "user", content: user }] }),
 * });
 * const body = await response.json();
 * strictEqual(body.model, STAND_IN_MODEL);
 * strictEqual(body.choices[0].message.content, "The kite cost 42 dollars.");
 * strictEqual(server.runUrl(1), server.baseUrl);
 * strictEqual(server.runUrl(2), server.baseUrl.replace("/v1", "/run-2/v1"));
 * await server.close();
 * ```
 */
export function startStandIn(): StandInServer {
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen: () => {} },
    async (request) => {
      const pathname = new URL(request.url).pathname;
      if (request.method !== "POST" || !pathname.endsWith("/chat/completions")) {
        return Response.json({ error: { message: "the stand-in answers POST /v1/chat/completions" } }, {
          status: 404,
        });
      }
      let body: CompletionBody;
      try {
        body = await request.json();
      } catch {
        return Response.json({ error: { message: "the body is not JSON" } }, { status: 400 });
      }
      return await completion(body ?? {}, Number(/^\/run-([1-9]\d{0,2})\//.exec(pathname)?.[1] ?? 1));
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    baseUrl: `${origin}/v1`,
    runUrl: (run) => run === 1 ? `${origin}/v1` : `${origin}/run-${run}/v1`,
    close: async () => {
      controller.abort();
      await server.finished;
    },
  };
}
