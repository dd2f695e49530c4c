/**
 * The caller's LongMemEval oracle file: pinned by SHA-256 (checked on the raw bytes before parsing), parsed as
 * Python's `json.loads` would (floats stay floats), and rendered into evidence exactly as the reference does.
 *
 * @module
 */

import { DatasetIntegrityError } from "./errors.ts";
import type { HashedBytes } from "./fs.ts";
import { sha256Hex } from "./hash.ts";
import { dumps, parsePyJson, type PyJson } from "./pyjson.ts";
import { codePointLength, pyLower, pyStr, pyTruthy, pyUpper } from "./python.ts";

/** One dataset row, as the reference reads it. */
export interface DatasetRow {
  questionId: string;
  questionType: string;
  question: string;
  /** The reference answer: the string itself, or Python's `json.dumps` of a non-string answer. */
  answer: string;
  /** `str()` of `question_date`, or null when absent. */
  questionDate: string | null;
  /** The rendered evidence (`SESSION {id} AT {date}` blocks). */
  evidence: string;
  /** The evidence length in code points (Python `len`). */
  evidenceLength: number;
  /**
   * Why the reference's `evidence_record` would refuse this row (a non-string `question_date`, a missing or
   * non-string `question_type`/`question`), or undefined. It refuses only rows it turns into records: official-type
   * and distractor-type rows, so the check is made where those are chosen (cases.ts).
   */
  invalid?: string;
}

/** A verified, parsed dataset. */
export interface Dataset {
  sha256: string;
  rows: DatasetRow[];
  byId: Map<string, DatasetRow>;
}

/**
 * Python's `str()`-like rendering of an answer: strings unchanged, anything else as
 * `json.dumps(value, ensure_ascii=False, sort_keys=True)`.
 *
 * @example
 * ```ts
 * import { answerText } from "./dataset.ts";
 * console.log(answerText({ k: "v", a: 1 })); // {"a": 1, "k": "v"}
 * ```
 */
export function answerText(value: unknown): string {
  return typeof value === "string" ? value : dumps(value as PyJson);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Renders a row's evidence: per session the turns with `has_answer` exactly `true` (any role), else the
 * `user` turns; only object turns with string content; empty sessions skipped. Throws
 * {@linkcode DatasetIntegrityError} for malformed haystack arrays.
 *
 * @example
 * ```ts
 * import { renderEvidence } from "./dataset.ts";
 * const row = {
 *   question_id: "q1",
 *   haystack_session_ids: ["s1"],
 *   haystack_dates: ["2023/05/20"],
 *   haystack_sessions: [[{ role: "user", content: "I moved to Lisbon." }]],
 * };
 * console.log(renderEvidence(row)); // "SESSION s1 AT 2023/05/20\nUSER: I moved to Lisbon."
 * ```
 */
export function renderEvidence(row: Record<string, unknown>): string {
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
  const blocks: string[] = [];
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
    const lines = [`SESSION ${pyStr(ids[index])} AT ${pyStr(dates[index])}`];
    for (const turn of selected) {
      // `str(turn.get("role") or "unknown").upper()`: every falsy role (0, false, [], {} …) is UNKNOWN.
      const role = pyTruthy(turn.role) ? pyUpper(pyStr(turn.role)) : "UNKNOWN";
      lines.push(`${role}: ${turn.content}`);
    }
    blocks.push(lines.join("\n"));
  });
  return blocks.join("\n\n");
}

/**
 * Verifies the raw bytes against the pinned SHA-256 (before parsing anything), then parses and renders every
 * row. `path` names the file in errors. Takes the bytes, or the bytes with the digest `readBytesHashed` (fs.ts)
 * computed while reading them.
 *
 * @example
 * ```ts ignore
 * import { loadDataset } from "./dataset.ts";
 * const dataset = await loadDataset(await Deno.readFile(path), path, config.dataset.sha256);
 * ```
 */
export async function loadDataset(
  source: Uint8Array | HashedBytes,
  path: string,
  pinnedSha256: string,
): Promise<Dataset> {
  const { bytes, sha256 } = source instanceof Uint8Array
    ? { bytes: source, sha256: await sha256Hex(source) }
    : source;
  if (sha256 !== pinnedSha256) {
    throw new DatasetIntegrityError(`SHA-256 mismatch: expected ${pinnedSha256}, actual ${sha256}`, { path });
  }
  let root: unknown;
  try {
    root = parsePyJson(decodeUtf8Strict(bytes));
  } catch (error) {
    throw new DatasetIntegrityError(`not valid JSON: ${(error as Error).message}`, { path, cause: error });
  }
  return { sha256, ...parseRows(root, path) };
}

/**
 * UTF-8 bytes to text, refusing invalid sequences as Python's strict decoder does. The lenient decoder is several
 * times faster on a 15 MB file; only when its output holds U+FFFD (a replacement, or a genuine one) does the strict
 * decoder run to tell the two apart.
 */
function decodeUtf8Strict(bytes: Uint8Array): string {
  const text = new TextDecoder("utf-8").decode(bytes);
  return text.includes("\uFFFD") ? new TextDecoder("utf-8", { fatal: true }).decode(bytes) : text;
}

/** The reference's `evidence_record` checks: identity fields non-empty strings, `question_date` a string or null. */
function recordProblem(item: Record<string, unknown>): string | undefined {
  const { question_type: type, question, question_date: date } = item;
  if (typeof type !== "string" || type === "" || typeof question !== "string" || question === "") {
    return "question identity fields are missing";
  }
  if (date !== undefined && date !== null && typeof date !== "string") return "question_date is invalid";
  return undefined;
}

/**
 * Validates and renders already-parsed dataset rows (no hash check).
 *
 * @example
 * ```ts
 * import { parseRows } from "./dataset.ts";
 * const { rows } = parseRows([{ question_id: "q1", question_type: "x", question: "?", answer: 2,
 *   haystack_session_ids: [], haystack_dates: [], haystack_sessions: [] }], "d.json");
 * console.log(rows[0].answer); // "2"
 * ```
 */
export function parseRows(
  root: unknown,
  path: string,
): { rows: DatasetRow[]; byId: Map<string, DatasetRow> } {
  if (!Array.isArray(root)) {
    throw new DatasetIntegrityError("the root must be a list of objects", { path, field: "(root)" });
  }
  const rows: DatasetRow[] = [];
  const byId = new Map<string, DatasetRow>();
  root.forEach((item, index) => {
    if (!isRecord(item)) throw new DatasetIntegrityError("must be an object", { path, field: `[${index}]` });
    const questionId = item.question_id;
    if (typeof questionId !== "string" || questionId === "") {
      throw new DatasetIntegrityError("must be a non-empty string", {
        path,
        field: `[${index}].question_id`,
      });
    }
    if (byId.has(questionId)) {
      throw new DatasetIntegrityError(`duplicate question_id ${questionId}`, {
        path,
        field: `[${index}].question_id`,
      });
    }
    let evidence: string;
    try {
      evidence = renderEvidence(item);
    } catch (error) {
      if (error instanceof DatasetIntegrityError) {
        throw new DatasetIntegrityError(error.detail, { path, field: `[${index}] (question ${questionId})` });
      }
      throw error;
    }
    const row: DatasetRow = {
      questionId,
      questionType: pyStr(item.question_type ?? null),
      question: pyStr(item.question ?? null),
      answer: answerText(item.answer ?? null),
      questionDate: item.question_date === undefined || item.question_date === null
        ? null
        : pyStr(item.question_date),
      evidence,
      evidenceLength: codePointLength(evidence),
    };
    const invalid = recordProblem(item);
    if (invalid !== undefined) row.invalid = `${invalid} for ${questionId}`;
    rows.push(row);
    byId.set(questionId, row);
  });
  return { rows, byId };
}
