/** Cell formatting: counts, signed differences, shortened predictions. */
import { formatCount, formatSigned, shorten } from "../../../lib/report/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("formatting helpers: counts, signed differences, shortened predictions", () => {
  assertEquals(formatCount(86342), "86,342");
  assertEquals(formatCount(999), "999");
  assertEquals(formatCount(1234567), "1,234,567");
  assertEquals(formatSigned(0.30000000000000004), "+0.300");
  assertEquals(formatSigned(-0.0001), "+0.000");
  assertEquals(formatSigned(-0.25), "-0.250");
  assertEquals(shorten("a\n  b"), "a b");
  assertEquals(shorten("x".repeat(50), 10), `${"x".repeat(9)}…`);
});
