/**
 * The caller's LongMemEval oracle file: pinned by SHA-256 (checked on the raw bytes before parsing), parsed as
 * Python's `json.loads` would (floats stay floats), and rendered into evidence exactly as the reference does.
 *
 * @module
 */

import {
  decodeStrictUtf8,
  firstInvalidUtf8,
  type HashedBytes,
  invalidUtf8Text,
  sha256Hex,
} from "../base/mod.ts";
import { DatasetIntegrityError } from "./errors.ts";
import {
  answerText,
  type EvidenceBlock,
  evidenceCodePoints,
  evidenceText,
  isRecord,
  selectEvidence,
} from "./evidence.ts";
import { checkJsonLimits, type JsonLimits, parsePyJson, pyStr } from "../py/mod.ts";

/** One dataset row, as the reference reads it. */
export interface DatasetRow {
  /** The LongMemEval question ID. */
  questionId: string;
  /** The question type. */
  questionType: string;
  /** The question. */
  question: string;
  /** The reference answer: the string itself, or Python's `json.dumps` of a non-string answer. */
  answer: string;
  /** `str()` of `question_date`, or null when absent. */
  questionDate: string | null;
  /** The rendered evidence (`SESSION {id} AT {date}` blocks), built on first use. */
  readonly evidence: string;
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
  /** The file's SHA-256. */
  sha256: string;
  /** The rows, in file order. */
  rows: DatasetRow[];
  /** The rows by question ID. */
  byId: Map<string, DatasetRow>;
}

/**
 * Verifies the raw bytes against the pinned SHA-256, then parses and renders every row; `path` names the file
 * in errors. Given plain bytes, it hashes them off the main thread while it decodes and parses them, and uses
 * nothing parsed before the digest matches: a wrong file is always a SHA-256 mismatch, never a parse error.
 * Given the bytes with the digest `readBytesHashed` (fs.ts) computed, it checks that digest first.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { loadDataset } from "./dataset.ts";
 * import { DatasetIntegrityError } from "./errors.ts";
 * import { sha256Hex } from "../base/hash.ts";
 * const bytes = new TextEncoder().encode(
 *   '[{"question_id": "q1", "question_type": "x", "question": "Q?", "answer": "a", ' +
 *     '"haystack_session_ids": [], "haystack_dates": [], "haystack_sessions": []}]',
 * );
 * const dataset = await loadDataset(bytes, "d.json", await sha256Hex(bytes));
 * strictEqual(dataset.byId.get("q1")?.question, "Q?");
 * await rejects(loadDataset(bytes, "d.json", "0".repeat(64)), DatasetIntegrityError); // not the pinned file
 * ```
 */
export async function loadDataset(
  source: Uint8Array | HashedBytes,
  path: string,
  pinnedSha256: string,
): Promise<Dataset> {
  const bytes = source instanceof Uint8Array ? source : source.bytes;
  const checkDigest = (sha256: string) => {
    if (sha256 !== pinnedSha256) {
      throw new DatasetIntegrityError(`SHA-256 mismatch: expected ${pinnedSha256}, actual ${sha256}`, {
        path,
      });
    }
    return sha256;
  };
  // A file too large to be the pinned one is not worth a parse before its digest is known.
  const overlap = source instanceof Uint8Array && bytes.length <= OVERLAP_LIMIT;
  const digest = source instanceof Uint8Array ? sha256Hex(bytes) : Promise.resolve(source.sha256);
  if (!overlap) checkDigest(await digest);
  let parsed: { rows: ParsedRows } | { error: unknown };
  try {
    parsed = { rows: parseDatasetRows(bytes, path) };
  } catch (error) {
    parsed = { error };
  }
  const sha256 = checkDigest(await digest);
  if ("error" in parsed) {
    const { error } = parsed;
    // A row the reference would refuse, in a file that parses: named as parseRows names it.
    if (error instanceof DatasetIntegrityError) throw error;
    // Bytes that are not UTF-8 are named by their place, as in every other file (not by the decoder's words).
    const problem = firstInvalidUtf8(bytes) >= 0
      ? invalidUtf8Text(bytes)
      : `not valid JSON: ${(error as Error).message}`;
    throw new DatasetIntegrityError(problem, { path, cause: error });
  }
  return { sha256, ...parsed.rows };
}

/** A dataset's rows, in file order and by question ID. */
type ParsedRows = { rows: DatasetRow[]; byId: Map<string, DatasetRow> };

/**
 * The rows of the dataset file, as `parseRows(parseDatasetJson(bytes))` gives them, each row read from its
 * piece as soon as it is parsed: the parsed tree of the whole file is never held at once, only its rows. A piece
 * that does not parse falls back to the single parse; a row the reference refuses is thrown once every piece
 * parses (the single parse would have succeeded, and `parseRows` meets that row first).
 */
function parseDatasetRows(bytes: Uint8Array, path: string): ParsedRows {
  checkJsonLimits(bytes, DATASET_JSON_LIMITS);
  const pieces = rowPieces(bytes);
  if (pieces !== undefined) {
    const parsed: ParsedRows = { rows: [], byId: new Map() };
    let refused: { error: unknown } | undefined;
    let whole = true;
    try {
      for (let index = 0; index < pieces.length; index += 2) {
        const piece = bytes.subarray(pieces[index], pieces[index + 1]);
        const item = parsePyJson(decodeStrictUtf8(piece), CHECKED);
        if (refused !== undefined) continue;
        try {
          addRow(parsed, item, index / 2, path, piece);
        } catch (error) {
          refused = { error };
        }
      }
    } catch {
      whole = false; // the single parse decides, and names what is wrong
    }
    if (whole) {
      if (refused !== undefined) throw refused.error;
      return parsed;
    }
  }
  return parseRows(parseWhole(bytes), path);
}

// A parse overlapping the hash of a file that proves not to be the pinned one holds its rows for nothing.
const OVERLAP_LIMIT = 64 * 2 ** 20;

/**
 * The dataset's bounds as one JSON document, checked on its bytes before any row is parsed: 900 levels, and 2^23
 * values (the pinned file holds some 400,000; a file of the pinned file's make at its 128 MiB cap some 3.5 million).
 */
export const DATASET_JSON_LIMITS: JsonLimits = { depth: 900, values: 1 << 23 };

// The whole file is checked once; each row piece then parses without a second scan.
const CHECKED: JsonLimits = { depth: Infinity, values: Infinity };

/**
 * Parses the dataset file as one `parsePyJson` of its whole text would. A top-level array of objects is cut
 * before each element that opens as the first one does (`{"question_id":`), after a comma; each piece is then
 * decoded and parsed alone, so a row of ASCII text stays a one-byte string instead of the whole text becoming
 * two-byte at its first non-ASCII character. The cut is used only when every piece parses: then the text is
 * `[` piece `,` … `]` with each piece a JSON value, whose single parse is exactly that list of values. Otherwise
 * (a cut inside a nested value, invalid JSON, another shape) the whole text is decoded and parsed at once.
 */
export function parseDatasetJson(bytes: Uint8Array): unknown {
  checkJsonLimits(bytes, DATASET_JSON_LIMITS);
  const pieces = rowPieces(bytes);
  if (pieces !== undefined) {
    const rows: unknown[] = [];
    try {
      for (let index = 0; index < pieces.length; index += 2) {
        // A byte-order mark inside the file is kept, and fails the piece's parse as it fails the whole one.
        rows.push(parsePyJson(decodeStrictUtf8(bytes.subarray(pieces[index], pieces[index + 1])), CHECKED));
      }
      return rows;
    } catch {
      // Fall through to the single parse, which also gives the error message for invalid input.
    }
  }
  return parseWhole(bytes);
}

/**
 * The whole file in one parse, as the reference's `json.load` of the file opened as UTF-8 reads it: a leading
 * byte-order mark is refused in Python's words ("Unexpected UTF-8 BOM"), not skipped.
 */
function parseWhole(bytes: Uint8Array): unknown {
  return parsePyJson(decodeStrictUtf8(bytes), CHECKED);
}

function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Start and end offsets of the top-level array's elements, cut as {@linkcode parseDatasetJson} says. */
function rowPieces(bytes: Uint8Array): number[] | undefined {
  let start = 0;
  while (start < bytes.length && isJsonSpace(bytes[start])) start++;
  let end = bytes.length - 1;
  while (end > start && isJsonSpace(bytes[end])) end--;
  if (bytes[start] !== 0x5b || bytes[end] !== 0x5d) return undefined; // [ … ]
  let first = start + 1;
  while (first < end && isJsonSpace(bytes[first])) first++;
  if (bytes[first] !== 0x7b) return undefined; // {
  const colon = bytes.indexOf(0x3a, first);
  if (colon < 0 || colon >= end || colon - first > 256) return undefined;
  const opening = bytes.subarray(first, colon + 1);
  const pieces = [start + 1];
  for (
    let brace = bytes.indexOf(0x7b, first + 1);
    brace >= 0 && brace < end;
    brace = bytes.indexOf(0x7b, brace + 1)
  ) {
    let at = 1;
    while (at < opening.length && bytes[brace + at] === opening[at]) at++;
    if (at < opening.length) continue;
    let comma = brace - 1;
    while (isJsonSpace(bytes[comma])) comma--;
    if (bytes[comma] !== 0x2c) continue; // ,
    pieces.push(comma, comma + 1);
  }
  pieces.push(end);
  return pieces;
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
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parseRows } from "./dataset.ts";
 * const { rows } = parseRows([{ question_id: "q1", question_type: "x", question: "?", answer: 2,
 *   haystack_session_ids: [], haystack_dates: [], haystack_sessions: [] }], "d.json");
 * deepStrictEqual(rows[0].answer, "2");
 * ```
 */
export function parseRows(
  root: unknown,
  path: string,
): { rows: DatasetRow[]; byId: Map<string, DatasetRow> } {
  if (!Array.isArray(root)) {
    throw new DatasetIntegrityError("the root must be a list of objects", { path, field: "(root)" });
  }
  const parsed: ParsedRows = { rows: [], byId: new Map() };
  root.forEach((item, index) => addRow(parsed, item, index, path));
  return parsed;
}

/**
 * Validates and renders one parsed row (`index` in the file's list) into `parsed`; given the row's `piece` of the
 * file, its evidence is selected again from it when first asked for, and nothing of it is held till then.
 */
function addRow(parsed: ParsedRows, item: unknown, index: number, path: string, piece?: Uint8Array): void {
  const { rows, byId } = parsed;
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
  let evidence: EvidenceBlock[];
  try {
    evidence = selectEvidence(item);
  } catch (error) {
    if (error instanceof DatasetIntegrityError) {
      throw new DatasetIntegrityError(error.detail, { path, field: `[${index}] (question ${questionId})` });
    }
    throw error;
  }
  const evidenceLength = evidenceCodePoints(evidence);
  let blocks: EvidenceBlock[] | undefined = piece === undefined ? evidence : undefined;
  let source = piece;
  let text: string | undefined;
  const row: DatasetRow = {
    questionId,
    questionType: pyStr(item.question_type ?? null),
    question: pyStr(item.question ?? null),
    answer: answerText(item.answer ?? null),
    questionDate: item.question_date === undefined || item.question_date === null
      ? null
      : pyStr(item.question_date),
    // Built on first use: only the cases' support rows and the drawn distractors need the text.
    get evidence() {
      if (text === undefined) {
        // The piece parsed once already, so it parses again to the same row.
        text = evidenceText(
          blocks ??
            selectEvidence(parsePyJson(decodeStrictUtf8(source!), CHECKED) as Record<string, unknown>),
        );
        blocks = source = undefined; // the file's bytes are let go with the last row that held them
      }
      return text;
    },
    evidenceLength,
  };
  const invalid = recordProblem(item);
  if (invalid !== undefined) row.invalid = `${invalid} for ${questionId}`;
  rows.push(row);
  byId.set(questionId, row);
}
