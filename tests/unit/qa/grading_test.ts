/**
 * The grader: its rule table in readable cases (each rule with a pair that triggers it and a near miss that
 * does not), its edges (expected verdicts from the reference grader under CPython 3.11.7), and the golden
 * vectors replayed directly.
 */
import { RowIntegrityError } from "../../../lib/base/errors.ts";
import { DatasetIntegrityError } from "../../../lib/protocol/mod.ts";
import { type Grade, gradeAnswer, type GradeRule, normalizeAnswer } from "../../../lib/qa/grade/grading.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { GOLDEN } from "../../helpers/cli.ts";

/** One rule of the table: a pair that triggers it, and a near miss that another rule decides. */
interface RuleCase {
  rule: GradeRule;
  correct: boolean;
  hit: [prediction: string, reference: string];
  nearMiss: [prediction: string, reference: string, expected: Grade];
}

// In the order gradeAnswer applies them: the first rule that matches decides.
const RULES: RuleCase[] = [
  {
    rule: "empty-prediction",
    correct: false,
    hit: ["?!", "Paris"], // no token survives normalisation
    nearMiss: ["?! a", "Paris", { correct: false, rule: "overlap-reject" }], // one stopword is still a token
  },
  {
    rule: "insufficient",
    correct: false,
    hit: ["Insufficient.", "Paris"],
    nearMiss: ["insufficient data", "Paris", { correct: false, rule: "overlap-reject" }], // not the lone token
  },
  {
    rule: "exact",
    correct: true,
    hit: ["Seven WEEKS!", "7 weeks"], // the same tokens after normalisation
    nearMiss: ["weeks seven", "7 weeks", { correct: true, rule: "overlap-accept" }], // same tokens, other order
  },
  {
    rule: "substring",
    correct: true,
    hit: ["She moved to Paris in May", "Paris"], // the reference's tokens as a contiguous run
    // Not contiguous: the overlap rule decides instead.
    nearMiss: ["Paris she moved in", "moved to Paris", { correct: true, rule: "overlap-accept" }],
  },
  {
    rule: "numeric-range",
    correct: true,
    hit: ["12", "ranging from 10 to 15 days"],
    nearMiss: ["16", "ranging from 10 to 15 days", { correct: false, rule: "numeric-conflict" }], // outside
  },
  {
    rule: "numeric-conflict",
    correct: false,
    hit: ["25 minutes", "5 minutes"], // 25 is not 5, though "5 minutes" is no run of "25 minutes"
    nearMiss: ["five minutes exactly", "5 minutes", { correct: true, rule: "substring" }], // the same number
  },
  {
    rule: "overlap-accept",
    correct: true,
    hit: ["blue vintage bicycle", "vintage blue bicycle"], // ≥ 0.6 of content tokens shared both ways
    nearMiss: ["blue car", "vintage blue bicycle", { correct: false, rule: "overlap-reject" }], // 1 of 2, < 0.6
  },
  {
    rule: "overlap-reject",
    correct: false,
    hit: ["a red car", "vintage blue bicycle"],
    nearMiss: ["blue bicycle", "vintage blue bicycle", { correct: true, rule: "substring" }],
  },
];

for (const { rule, correct, hit, nearMiss } of RULES) {
  Deno.test(`rule table: ${rule} — ${JSON.stringify(hit[0])} vs ${JSON.stringify(hit[1])}, and a near miss`, () => {
    assertEquals(gradeAnswer(hit[0], hit[1]), { correct, rule });
    const [prediction, reference, expected] = nearMiss;
    assertEquals(gradeAnswer(prediction, reference), expected);
  });
}

Deno.test("rule table: every GradeRule has a row", () => {
  const rules: Record<GradeRule, true> = {
    "empty-prediction": true,
    insufficient: true,
    exact: true,
    substring: true,
    "numeric-range": true,
    "numeric-conflict": true,
    "overlap-accept": true,
    "overlap-reject": true,
  };
  assertEquals(RULES.map((item) => item.rule).sort(), Object.keys(rules).sort());
});

Deno.test("rule table: a reference without a token is an error, whatever the prediction", () => {
  assertThrows(() => gradeAnswer("Paris", "?!"), DatasetIntegrityError, "at least one token");
  assertThrows(() => gradeAnswer("", ""), DatasetIntegrityError, "at least one token");
});

Deno.test("golden vectors: gradeAnswer and normalizeAnswer give the reference grader's verdict on every pair", async () => {
  const lines = (await Deno.readTextFile(`${GOLDEN}/vectors/grader.jsonl`)).split("\n").filter((line) =>
    line
  );
  assertEquals(lines.length, 2000);
  const seen = new Set<string>();
  for (const line of lines) {
    const vector = JSON.parse(line);
    assertEquals(normalizeAnswer(vector.prediction), vector.normalized_prediction, line);
    assertEquals(normalizeAnswer(vector.reference), vector.normalized_reference, line);
    if ("error" in vector.expected) {
      assertThrows(
        () => gradeAnswer(vector.prediction, vector.reference),
        DatasetIntegrityError,
        vector.expected.error,
      );
      seen.add("error");
    } else {
      assertEquals(gradeAnswer(vector.prediction, vector.reference), vector.expected, line);
      seen.add(vector.expected.rule);
    }
  }
  assertEquals(seen.size, 9); // all eight rules and the error occur in the vectors
});

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

// The rules' boundaries, each pinned where a `>=` turned `>` (or `<=` turned `<`) would change the verdict.
Deno.test("overlap accepts at exactly the 0.6 threshold, in each direction", () => {
  // Reference → prediction is 3 of 5 content tokens (0.6 exactly); prediction → reference 3 of 3.
  assertEquals(gradeAnswer("alpha gamma epsilon", "alpha beta gamma delta epsilon"), {
    correct: true,
    rule: "overlap-accept",
  });
  // And the other way round: prediction → reference is 3 of 5.
  assertEquals(gradeAnswer("alpha beta gamma delta epsilon", "alpha gamma epsilon"), {
    correct: true,
    rule: "overlap-accept",
  });
  // One shared token fewer is below the threshold: 2 of 5.
  assertEquals(gradeAnswer("alpha gamma", "alpha beta gamma delta epsilon"), {
    correct: false,
    rule: "overlap-reject",
  });
});

Deno.test("a number equal to either bound of the reference's range is in the range", () => {
  assertEquals(gradeAnswer("it is 5", "ranging from 3 to 5 days"), { correct: true, rule: "numeric-range" });
  assertEquals(gradeAnswer("it is 3", "ranging from 3 to 5 days"), { correct: true, rule: "numeric-range" });
  assertEquals(gradeAnswer("it is 6", "ranging from 3 to 5 days"), {
    correct: false,
    rule: "numeric-conflict",
  });
});
