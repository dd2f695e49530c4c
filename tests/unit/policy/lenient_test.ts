import { boundedNumber, parseTimestamp } from "../../../lib/policy/lenient.ts";
import { fromIsoFormat } from "../../../lib/py/time.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { random, randomIsoTimestamp } from "../../helpers/generate.ts";

Deno.test("dirty values read like Python: float() spellings, booleans, timestamps", () => {
  assertEquals(boundedNumber(" 1_0 "), 1);
  assertEquals(boundedNumber("١"), 1);
  assertEquals(boundedNumber(true), 0.5);
  assertEquals(boundedNumber("-0"), 0);
  assertEquals(Object.is(boundedNumber("-0"), 0), true);
  assertEquals(parseTimestamp("2026-08-06T24:00:00"), undefined);
  assertEquals(parseTimestamp("  2026-08-06T00:00:00Z  "), { day: 20671, microsecond: 0 });
});

Deno.test("the timestamp fast path gives the full parser's instant for every canonical spelling", () => {
  const next = random(11);
  for (let trial = 0; trial < 3000; trial++) {
    const text = randomIsoTimestamp(next);
    const full = fromIsoFormat(text.replaceAll("Z", "+00:00"));
    assertEquals(parseTimestamp(text), full, text);
  }
});
