/** The terminal renderer: aligned tables. */
import { sectionsText } from "../../../lib/report/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { tableLines } from "../../../lib/report/render/text.ts";

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

const WIDE = {
  headers: ["case", "won by", "only confidence", "answer"],
  rows: [
    ["10e09553", "hybrid-v1", "1", "The Nightingale by Kristin Hannah"],
    ["1cea1afa", "confidence", "13", "7"],
  ],
  numeric: [false, false, true, false],
};

Deno.test("tableLines with a width: a table that fits is the same lines as without one", () => {
  assertEquals(Math.max(...tableLines(WIDE).map((line) => line.length)), 74);
  assertEquals(tableLines(WIDE, 74), tableLines(WIDE));
  assertEquals(tableLines(WIDE, 73).length, 4); // one column narrower: its header wraps
});

Deno.test("tableLines with a width: headers wrap first, then text cells at spaces; figures stay whole", () => {
  assertEquals(tableLines(WIDE, 50), [
    "  case      won by            only  answer",
    "                        confidence",
    "  10e09553  hybrid-v1            1  The",
    "                                    Nightingale by",
    "                                    Kristin Hannah",
    "  1cea1afa  confidence          13  7",
  ]);
});

Deno.test("tableLines with a width too narrow for every column: groups of columns, each led by the first", () => {
  const lines = tableLines(WIDE, 30);
  assertEquals(lines, [
    "  case      won by",
    "  10e09553  hybrid-v1",
    "  1cea1afa  confidence",
    "",
    "  case      only confidence",
    "  10e09553                1",
    "  1cea1afa               13",
    "",
    "  case      answer",
    "  10e09553  The Nightingale by",
    "            Kristin Hannah",
    "  1cea1afa  7",
  ]);
  assertEquals(lines.filter((line) => line.length > 30), []);
});

Deno.test("sectionsText: a heading, a line or a cell holding controls shows them escaped, on its own line", () => {
  const hostile = "m\x1b]52;c;aGk=\x07\r\n✓ forged\u009b2J";
  const shown = "m\\u001b]52;c;aGk=\\u0007\\u000d\\u000a✓ forged\\u009b2J";
  const text = sectionsText(`report: ${hostile}`, [{
    id: "provenance",
    title: "Provenance",
    lines: [hostile],
    tables: [{ headers: ["item", "value"], rows: [["model", hostile]], numeric: [false, false] }],
  }]);
  assertEquals(text.split("\n"), [
    `report: ${shown}`,
    "",
    "PROVENANCE",
    `  ${shown}`,
    `  item   value`,
    `  model  ${shown}`,
  ]);
});
