/**
 * A dataset row's evidence, rendered exactly as the reference does: the sessions that hold the answer, each
 * under its id and date, every turn under its role; and an answer as text.
 *
 * @module
 */

import { codePointLength, dumps, type PyJson, pyLower, pyStr, pyTruthy, pyUpper } from "../py/mod.ts";
import { DatasetIntegrityError } from "./errors.ts";

/**
 * Python's `str()`-like rendering of an answer: strings unchanged, anything else as
 * `json.dumps(value, ensure_ascii=False, sort_keys=True)`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { answerText } from "./evidence.ts";
 * deepStrictEqual(answerText({ k: "v", a: 1 }), '{"a": 1, "k": "v"}');
 * ```
 */
export function answerText(value: unknown): string {
  return typeof value === "string" ? value : dumps(value as PyJson);
}

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** One session's part of the evidence: its header line and the selected turns' role labels and contents. */
export interface EvidenceBlock {
  header: string;
  turns: { role: string; content: string }[];
}

/**
 * Selects a row's evidence without building its text: per session the turns with `has_answer` exactly `true`
 * (any role), else the `user` turns; only object turns with string content; empty sessions skipped.
 */
export function selectEvidence(row: Record<string, unknown>): EvidenceBlock[] {
  const questionId = pyStr(row.question_id);
  const ids = row.haystack_session_ids;
  const dates = row.haystack_dates;
  const sessions = row.haystack_sessions;
  if (!Array.isArray(ids) || !Array.isArray(dates) || !Array.isArray(sessions)) {
    throw new DatasetIntegrityError("LongMemEval row has invalid haystack arrays", {
      path: `question ${questionId}`,
    });
  }
  if (ids.length !== dates.length || ids.length !== sessions.length) {
    throw new DatasetIntegrityError("LongMemEval haystack arrays have different lengths", {
      path: `question ${questionId}`,
    });
  }
  const blocks: EvidenceBlock[] = [];
  sessions.forEach((session, index) => {
    if (!Array.isArray(session)) {
      throw new DatasetIntegrityError("LongMemEval row has invalid haystack arrays", {
        path: `question ${questionId}`,
      });
    }
    const turns = session.filter((turn): turn is Record<string, unknown> =>
      isRecord(turn) && typeof turn.content === "string"
    );
    let selected = turns.filter((turn) => turn.has_answer === true);
    if (selected.length === 0) {
      selected = turns.filter((turn) => pyLower(pyStr(pyTruthy(turn.role) ? turn.role : "")) === "user");
    }
    if (selected.length === 0) return;
    blocks.push({
      header: `SESSION ${pyStr(ids[index])} AT ${pyStr(dates[index])}`,
      turns: selected.map((turn) => ({
        // `str(turn.get("role") or "unknown").upper()`: every falsy role (0, false, [], {} …) is UNKNOWN.
        role: pyTruthy(turn.role) ? upperRole(pyStr(turn.role)) : "UNKNOWN",
        content: turn.content as string,
      })),
    });
  });
  return blocks;
}

// A role as the reference labels it, one string per role (a dataset repeats a few roles over millions of turns).
const ROLE_LABELS = new Map<string, string>();

function upperRole(role: string): string {
  const known = ROLE_LABELS.get(role);
  if (known !== undefined) return known;
  const label = pyUpper(role);
  if (ROLE_LABELS.size < 64) ROLE_LABELS.set(role, label);
  return label;
}

/** The evidence's text: each block's header and `ROLE: content` lines, blocks a blank line apart. */
export function evidenceText(blocks: readonly EvidenceBlock[]): string {
  return blocks.map((block) =>
    [block.header, ...block.turns.map((turn) => `${turn.role}: ${turn.content}`)].join("\n")
  ).join("\n\n");
}

/**
 * The code points of {@linkcode evidenceText}, without building it: every separator is ASCII, so no surrogate
 * pair spans two parts and the parts' lengths add up.
 */
export function evidenceCodePoints(blocks: readonly EvidenceBlock[]): number {
  let length = blocks.length > 0 ? 2 * (blocks.length - 1) : 0;
  for (const block of blocks) {
    length += codePoints(block.header);
    for (const turn of block.turns) length += 1 + codePoints(turn.role) + 2 + codePoints(turn.content);
  }
  return length;
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** Python's `len`: the UTF-16 length, less one per surrogate pair (counted only where a high surrogate occurs). */
function codePoints(text: string): number {
  return HIGH_SURROGATE.test(text) ? codePointLength(text) : text.length;
}

/**
 * Renders a row's evidence: per session the turns with `has_answer` exactly `true` (any role), else the
 * `user` turns; only object turns with string content; empty sessions skipped. Throws
 * {@linkcode DatasetIntegrityError} for malformed haystack arrays.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { renderEvidence } from "./evidence.ts";
 * const row = {
 *   question_id: "q1",
 *   haystack_session_ids: ["s1"],
 *   haystack_dates: ["2023/05/20"],
 *   haystack_sessions: [[{ role: "user", content: "I moved to Lisbon." }]],
 * };
 * deepStrictEqual(renderEvidence(row), "SESSION s1 AT 2023/05/20\nUSER: I moved to Lisbon.");
 * ```
 */
export function renderEvidence(row: Record<string, unknown>): string {
  return evidenceText(selectEvidence(row));
}
