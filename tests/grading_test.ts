/** The grader's edges: expected verdicts from the reference grader under CPython 3.11.7. */
import { DatasetIntegrityError, RowIntegrityError } from "../lib/errors.ts";
import { gradeAnswer, normalizeAnswer } from "../lib/grading.ts";
import { assertEquals, assertThrows } from "./helpers/assert.ts";

Deno.test("a reference answer with no token is a one-line input error, not a crash", () => {
  const error = assertThrows(() => gradeAnswer("25", "/"), DatasetIntegrityError);
  assertEquals(error.message, "The grading reference must contain at least one token");
});

Deno.test("an integer token over 4,300 digits in a prediction is refused clearly (Python's int() raises)", () => {
  const long = "1".repeat(4301);
  const error = assertThrows(() => gradeAnswer(`about ${long} days`, "5 days"), RowIntegrityError);
  assertEquals(
    error.message,
    "prediction: has an integer of 4301 digits; the reference grader's int() refuses more than 4300",
  );
  // 4,300 digits is what Python accepts: numeric-conflict, as the reference grades it.
  assertEquals(gradeAnswer(`about ${"1".repeat(4300)} days`, "5 days"), {
    correct: false,
    rule: "numeric-conflict",
  });
  // Before the integer rules are reached, length does not matter (the reference never calls int()).
  assertEquals(gradeAnswer(long, long), { correct: true, rule: "exact" });
});

Deno.test("normalisation lower-cases with Python's Unicode 14 lower()", () => {
  // 'İ'.lower() is 'i̇' (i + U+0307): the i survives as a token; U+212A KELVIN SIGN lower-cases to k.
  assertEquals(normalizeAnswer("İT \u212Aelvin"), ["i", "t", "kelvin"]);
});
