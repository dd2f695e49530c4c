/** `prompts.jsonl`: the embedded answer prompt rendered for a question and its facts, and the request's fingerprint. */

import { EMBEDDED_ARTIFACTS } from "../../protocol/mod.ts";
import { fingerprintPayload, parsePromptTemplate, renderMessages, requestFingerprint } from "../../qa/mod.ts";
import { type AsyncVectorChecker, differences } from "../compare.ts";
import { requireField, requireHexDouble, requireString, summarize } from "../_record.ts";

const answerTemplate = parsePromptTemplate(EMBEDDED_ARTIFACTS["prompts/answer-v1.txt"]);

/**
 * Checks one prompt line: the messages, the fingerprinted payload and the fingerprint.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { checkPrompt } from "./prompts.ts";
 * const qa = { model: "m", temperature_bits: "0000000000000000", max_tokens: 16, stream: false };
 * const line = { facts: [["f1", "Ann paid 12 dollars."]], qa, question: "How much?", question_date: null, fingerprint: "", messages: [], payload_json: "" };
 * strictEqual((await checkPrompt(line)).mismatches.some((mismatch) => mismatch.field === "fingerprint"), true);
 * ```
 */
export const checkPrompt: AsyncVectorChecker = async (record) => {
  const facts = requireField(record, "facts") as [string, string][];
  const qa = requireField(record, "qa") as Record<string, unknown>;
  const question = requireString(record, "question");
  const questionDate = requireField(record, "question_date") as string | null;
  const settings = {
    model: qa.model as string,
    temperature: requireHexDouble(qa.temperature_bits, "qa.temperature_bits"),
    maxTokens: qa.max_tokens as number,
    stream: qa.stream as boolean,
  };
  const messages = renderMessages(answerTemplate, {
    question,
    questionDate,
    facts: facts.map(([id, content]) => ({ id, content })),
  });
  const expected = {
    fingerprint: requireString(record, "fingerprint"),
    messages: requireField(record, "messages"),
    payload_json: requireString(record, "payload_json"),
  };
  const actual = {
    fingerprint: await requestFingerprint(settings, messages),
    messages: messages.map((message) => ({ content: message.content, role: message.role })),
    payload_json: fingerprintPayload(settings, messages),
  };
  return {
    mismatches: differences(expected, actual),
    tier: "core",
    input: `${facts.length} facts, ${summarize(question, 30)}`,
  };
};
