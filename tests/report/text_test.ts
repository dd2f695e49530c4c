/** The terminal renderer: aligned tables. */
import { tableLines } from "../../lib/report/mod.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("tableLines: columns aligned, numeric ones to the right", () => {
  assertEquals(
    tableLines({ headers: ["a", "n"], rows: [["xy", "5"], ["z", "10"]], numeric: [false, true] }),
    [
      "  a    n",
      "  xy   5",
      "  z   10",
    ],
  );
});
