/** Cell formatting: counts, signed differences, p-values, shortened predictions. */
import { assertEquals } from "../../helpers/assert.ts";
import { formatCount, formatP, formatSigned, pClause, shorten } from "../../../lib/report/document/format.ts";

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

Deno.test("a p-value at four decimals, below 0.0001 as < 0.0001, never 0.0000", () => {
  assertEquals([0.0018, 1, 0.0001, 0.00014].map(formatP), ["0.0018", "1.0000", "0.0001", "0.0001"]);
  assertEquals([0.0000999, 3e-6, 0].map(formatP), ["< 0.0001", "< 0.0001", "< 0.0001"]);
  assertEquals([pClause("0.0018"), pClause("< 0.0001")], ["p = 0.0018", "p < 0.0001"]);
});
