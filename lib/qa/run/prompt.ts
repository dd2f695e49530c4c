/**
 * The answer request: the prompt template rendered for a case's kept facts, and the request fingerprint —
 * SHA-256 of Python's `json.dumps({model, temperature, max_tokens, stream, messages}, ensure_ascii=False,
 * sort_keys=True)` — that binds every stored row to the exact bytes sent.
 *
 * @module
 */

import { compareCodePoints, ContractError, sha256Hex } from "../../base/mod.ts";
import { dumps, PyFloat } from "../../py/mod.ts";

/** A chat message. */
export interface ChatMessage {
  /** Who speaks. */
  role: "system" | "user";
  /** The message text. */
  content: string;
}

/** A parsed answer prompt template. */
export interface PromptTemplate {
  /** The system message template. */
  system: string;
  /** The user message template. */
  user: string;
}

const PLACEHOLDERS = ["{{CURRENT_DATE_SECTION}}", "{{STORED_MEMORY}}", "{{QUESTION}}"];

function trimNewlines(text: string): string {
  return text.replace(/^\n+|\n+$/g, "");
}

/**
 * Splits the template into its `SYSTEM:` and `USER:` parts (newlines trimmed); both sections and all three
 * placeholders are required.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parsePromptTemplate } from "./prompt.ts";
 * const template = parsePromptTemplate("SYSTEM:\nBe brief.\n\nUSER:\n{{CURRENT_DATE_SECTION}}{{STORED_MEMORY}}\n{{QUESTION}}\n");
 * deepStrictEqual(template.system, "Be brief.");
 * ```
 */
export function parsePromptTemplate(text: string, path = "prompts/answer-v1.txt"): PromptTemplate {
  const systemAt = text.indexOf("SYSTEM:");
  const userAt = text.indexOf("USER:");
  if (systemAt < 0 || userAt < 0 || userAt < systemAt) {
    throw new ContractError("must contain a SYSTEM: section followed by a USER: section", { path });
  }
  const system = trimNewlines(text.slice(systemAt + "SYSTEM:".length, userAt));
  const user = trimNewlines(text.slice(userAt + "USER:".length));
  for (const placeholder of PLACEHOLDERS) {
    if (!user.includes(placeholder)) {
      throw new ContractError(`the USER: section lacks ${placeholder}`, { path });
    }
  }
  return { system, user };
}

/** A fact as the prompt shows it. */
export interface MemoryFact {
  /** The fact's ID. */
  id: string;
  /** The fact's text. */
  content: string;
}

/**
 * Renders the two chat messages: kept facts sorted by ID as `[{id}]\n{content}` blocks joined by a blank
 * line; `CURRENT DATE: {date}\n` only when the case has a date.
 *
 * @param template The parsed answer prompt.
 * @param input The question, its date (or `null`) and the kept facts.
 * @returns The system and user messages.
 * @throws {RangeError} When there is no fact, or two facts share an ID.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { parsePromptTemplate, renderMessages } from "./prompt.ts";
 * const template = parsePromptTemplate("SYSTEM:\nS\nUSER:\n{{CURRENT_DATE_SECTION}}{{STORED_MEMORY}}|{{QUESTION}}");
 * const facts = [{ id: "b", content: "2" }, { id: "a", content: "1" }];
 * const [system, user] = renderMessages(template, { question: "Q?", questionDate: null, facts });
 * strictEqual(system.content, "S");
 * strictEqual(user.content, "[a]\n1\n\n[b]\n2|Q?");
 * throws(() => renderMessages(template, { question: "Q?", questionDate: null, facts: [] }), RangeError);
 * ```
 */
export function renderMessages(
  template: PromptTemplate,
  input: { question: string; questionDate: string | null; facts: readonly MemoryFact[] },
): ChatMessage[] {
  if (input.facts.length === 0) throw new RangeError("the stored memory needs at least one fact");
  const facts = [...input.facts].sort((a, b) => compareCodePoints(a.id, b.id));
  for (let index = 1; index < facts.length; index++) {
    if (facts[index].id === facts[index - 1].id) throw new RangeError(`duplicate fact id ${facts[index].id}`);
  }
  const memory = facts.map((fact) => `[${fact.id}]\n${fact.content}`).join("\n\n");
  const dateSection = input.questionDate ? `CURRENT DATE: ${input.questionDate}\n` : "";
  // One pass, so text inside a fact that looks like a placeholder is never substituted again.
  const user = template.user.replace(
    /\{\{(CURRENT_DATE_SECTION|STORED_MEMORY|QUESTION)\}\}/g,
    (_match, name: string) =>
      name === "CURRENT_DATE_SECTION" ? dateSection : name === "STORED_MEMORY" ? memory : input.question,
  );
  return [{ role: "system", content: template.system }, { role: "user", content: user }];
}

/** The request settings that are part of the fingerprint. */
export interface RequestSettings {
  /** The answer model. */
  model: string;
  /** The sampling temperature. */
  temperature: number;
  /** The answer's token budget. */
  maxTokens: number;
  /** Whether the response is streamed. */
  stream: boolean;
}

/**
 * The exact JSON the fingerprint hashes (`temperature` always a float, as the reference's config holds it).
 *
 * @param settings The model, temperature, token budget and streaming flag.
 * @param messages The chat messages.
 * @returns The JSON text.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { fingerprintPayload } from "./prompt.ts";
 * strictEqual(
 *   fingerprintPayload({ model: "m", temperature: 0, maxTokens: 5, stream: false }, []),
 *   '{"max_tokens": 5, "messages": [], "model": "m", "stream": false, "temperature": 0.0}',
 * );
 * ```
 */
export function fingerprintPayload(settings: RequestSettings, messages: readonly ChatMessage[]): string {
  return dumps({
    max_tokens: settings.maxTokens,
    messages: messages.map((message) => ({ content: message.content, role: message.role })),
    model: settings.model,
    stream: settings.stream,
    temperature: new PyFloat(settings.temperature),
  });
}

/**
 * The request fingerprint: SHA-256 of {@linkcode fingerprintPayload} as UTF-8.
 *
 * @param settings The model, temperature, token budget and streaming flag.
 * @param messages The chat messages.
 * @returns 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { match, notStrictEqual } from "node:assert/strict";
 * import { requestFingerprint } from "./prompt.ts";
 * const settings = { model: "m", temperature: 0, maxTokens: 5, stream: false };
 * const fingerprint = await requestFingerprint(settings, []);
 * match(fingerprint, /^[0-9a-f]{64}$/);
 * notStrictEqual(await requestFingerprint({ ...settings, maxTokens: 6 }, []), fingerprint);
 * ```
 */
export async function requestFingerprint(
  settings: RequestSettings,
  messages: readonly ChatMessage[],
): Promise<string> {
  return await sha256Hex(fingerprintPayload(settings, messages));
}
