/**
 * The frozen blind grader `deterministic-overlap-v1`. It takes a prediction and a reference — two strings and
 * nothing else — so it cannot know which policy produced an answer. Any rule change needs a new version.
 *
 * Follows the reference harness (deer-flow `backend/scripts/benchmark/deermem_eviction`) grader
 * `deterministic-overlap-v1` rule for rule; the golden vectors (`grader.jsonl`) hold its verdicts under CPython 3.11.7.
 *
 * @module
 */

import { RowIntegrityError } from "../../base/mod.ts";
import { DatasetIntegrityError } from "../../protocol/mod.ts";
import { PY_INT_MAX_STR_DIGITS, pyLower } from "../../py/mod.ts";

export { GRADER_VERSION } from "../../protocol/mod.ts";

/** Accept threshold for the overlap rule, in both directions. */
export const OVERLAP_THRESHOLD = 0.6;

const NUMBER_WORDS: Readonly<Record<string, string>> = {
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  fifteen: "15",
};

/**
 * Function words dropped by the overlap rule; `yes`, `no` and `not` are deliberately absent.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { STOPWORDS } from "./grading.ts";
 * strictEqual(STOPWORDS.has("the"), true);
 * strictEqual(STOPWORDS.has("not"), false); // a negation changes the answer
 * ```
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ("a an the this that these those all any both each few more most other some such same own i you he she it we " +
    "they me him her us them my your his its our their mine yours hers ours theirs whose am is are was were be " +
    "been being do does did doing have has had having will would shall should can could may might must and or " +
    "but nor so yet if then than because while until once although though whether of in on at by for with about " +
    "against between into through during before after above below to from up down out off over under again " +
    "further what which who whom when where why how there here only too very just also").split(" "),
);

/** Every rule the grader can decide by, in the order it tries them. */
export const GRADE_RULES = [
  "empty-prediction",
  "insufficient",
  "exact",
  "substring",
  "numeric-range",
  "numeric-conflict",
  "overlap-accept",
  "overlap-reject",
] as const;

/** Why a prediction was judged as it was. */
export type GradeRule = (typeof GRADE_RULES)[number];

/** A verdict. */
export interface Grade {
  /** Whether the prediction is accepted. */
  correct: boolean;
  /** The rule that decided. */
  rule: GradeRule;
}

/**
 * The grader's normalisation: Unicode lower-case, every run outside `[0-9a-z]` a separator, number words
 * one–ten and fifteen as digits.
 *
 * @param text A prediction or a reference answer.
 * @returns Its tokens, in order.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { normalizeAnswer } from "./grading.ts";
 * deepStrictEqual(normalizeAnswer("Seven WEEKS!"), ["7", "weeks"]);
 * deepStrictEqual(normalizeAnswer("fifteen-twenty"), ["15", "twenty"]);
 * ```
 */
export function normalizeAnswer(text: string): string[] {
  return pyLower(text).split(/[^0-9a-z]+/).filter((token) => token !== "").map((token) =>
    NUMBER_WORDS[token] ?? token
  );
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let offset = 0; offset < needle.length; offset++) {
      if (haystack[start + offset] !== needle[offset]) continue outer;
    }
    return true;
  }
  return false;
}

function integers(tokens: readonly string[], side: "prediction" | "reference answer"): bigint[] {
  // Arbitrary precision: 12345678901234567890 and …891 must differ.
  return tokens.filter((token) => /^[0-9]+$/.test(token)).map((token) => {
    // Python 3.11's int() raises past 4,300 digits, so the reference grader crashes; refuse it plainly.
    if (token.length > PY_INT_MAX_STR_DIGITS) {
      const message = `has an integer of ${token.length} digits; the reference grader's int() refuses more ` +
        `than ${PY_INT_MAX_STR_DIGITS}`;
      throw side === "prediction"
        ? new RowIntegrityError(message, { field: "prediction" })
        : new DatasetIntegrityError(message, { field: "reference answer" });
    }
    return BigInt(token);
  });
}

const RANGE = /\branging from (\d+)(?:\s\S+)*?\sto (\d+)\b/;

function overlap(from: ReadonlySet<string>, to: ReadonlySet<string>): number {
  let shared = 0;
  for (const token of from) if (to.has(token)) shared++;
  return shared / from.size;
}

/**
 * Grades a prediction against a reference answer. Blind by construction: two strings in, a verdict out.
 *
 * @param prediction The model's answer.
 * @param reference The reference answer.
 * @returns Whether the prediction is accepted, and the rule that decided.
 * @throws {DatasetIntegrityError} When the reference has no token (the reference grader raises), or holds an
 * integer token longer than Python's `int()` accepts.
 * @throws {RowIntegrityError} When the prediction holds such an integer token.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { DatasetIntegrityError } from "../../protocol/mod.ts";
 * import { gradeAnswer } from "./grading.ts";
 * deepStrictEqual(gradeAnswer("in Paris", "Paris"), { correct: true, rule: "substring" });
 * deepStrictEqual(gradeAnswer("25", "5"), { correct: false, rule: "numeric-conflict" });
 * deepStrictEqual(gradeAnswer("Seven weeks", "7 weeks"), { correct: true, rule: "exact" });
 * throws(() => gradeAnswer("anything", "?!"), DatasetIntegrityError);
 * ```
 */
export function gradeAnswer(prediction: string, reference: string): Grade {
  const referenceTokens = normalizeAnswer(reference);
  if (referenceTokens.length === 0) {
    // The reference's own message, which the shared grader vectors pin.
    throw new DatasetIntegrityError("The grading reference must contain at least one token");
  }
  const predictionTokens = normalizeAnswer(prediction);
  if (predictionTokens.length === 0) return { correct: false, rule: "empty-prediction" };
  if (predictionTokens.length === 1 && predictionTokens[0] === "insufficient") {
    return { correct: false, rule: "insufficient" };
  }
  if (
    predictionTokens.length === referenceTokens.length &&
    predictionTokens.every((token, index) => token === referenceTokens[index])
  ) {
    return { correct: true, rule: "exact" };
  }
  if (containsRun(referenceTokens, predictionTokens) || containsRun(predictionTokens, referenceTokens)) {
    return { correct: true, rule: "substring" };
  }
  const predictionNumbers = integers(predictionTokens, "prediction");
  const referenceNumbers = integers(referenceTokens, "reference answer");
  const range = RANGE.exec(referenceTokens.join(" "));
  if (range !== null && predictionNumbers.length > 0) {
    const [a, b] = [BigInt(range[1]), BigInt(range[2])];
    const [low, high] = a <= b ? [a, b] : [b, a];
    if (predictionNumbers.every((value) => value >= low && value <= high)) {
      return { correct: true, rule: "numeric-range" };
    }
  }
  if (predictionNumbers.length > 0 && referenceNumbers.length > 0) {
    const left = new Set(predictionNumbers);
    const right = new Set(referenceNumbers);
    if (left.size !== right.size || [...left].some((value) => !right.has(value))) {
      return { correct: false, rule: "numeric-conflict" };
    }
  }
  const predictionContent = new Set(predictionTokens.filter((token) => !STOPWORDS.has(token)));
  const referenceContent = new Set(referenceTokens.filter((token) => !STOPWORDS.has(token)));
  if (
    predictionContent.size > 0 && referenceContent.size > 0 &&
    overlap(predictionContent, referenceContent) >= OVERLAP_THRESHOLD &&
    overlap(referenceContent, predictionContent) >= OVERLAP_THRESHOLD
  ) {
    return { correct: true, rule: "overlap-accept" };
  }
  return { correct: false, rule: "overlap-reject" };
}
