import { defaultBackoffMs } from "../../../lib/qa/answer/retry.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("back-off doubles from 0.5 s to an 8 s cap; Retry-After wins up to 30 s", () => {
  assertEquals([1, 2, 3, 4, 5, 6].map((n) => defaultBackoffMs(n)), [500, 1000, 2000, 4000, 8000, 8000]);
  assertEquals(defaultBackoffMs(1, 2), 2000);
  assertEquals(defaultBackoffMs(1, 600), 30_000);
});
