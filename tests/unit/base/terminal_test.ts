/** Fitting and styling a line for where it is printed. */
import { describeStream, printable, styleLine, wrapLine } from "../../../lib/base/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("NO_COLOR present and non-empty, or no terminal, means no styling; a pipe is 100 columns", () => {
  const size = () => ({ columns: 132, rows: 40 });
  assertEquals(describeStream(true, false, size), { isTerminal: true, columns: 132, colour: true });
  assertEquals(describeStream(true, true, size).colour, false);
  assertEquals(describeStream(false, false, size), { isTerminal: false, columns: 100, colour: false });
  // A pseudo-terminal without a size, or one that cannot be asked, gets the pipe's width.
  assertEquals(describeStream(true, false, () => ({ columns: 0, rows: 0 })).columns, 100);
  assertEquals(
    describeStream(true, false, () => {
      throw new Error("closed");
    }).columns,
    100,
  );
});

Deno.test("wrapLine: at spaces, continuations under the text after a ✓/✗/– marker, never over the width", () => {
  const line = "  ✗ qa.summary.json: re-derived from the rows byte for byte: differs at official/confidence";
  const lines = wrapLine(line, 40);
  assertEquals(lines, [
    "  ✗ qa.summary.json: re-derived from the",
    "    rows byte for byte: differs at",
    "    official/confidence",
  ]);
  assertEquals(lines.map((part) => part.trim()).join(" "), line.trim()); // every word kept, in order
  assertEquals(wrapLine("a".repeat(25), 10), ["aaaaaaaaaa", "  aaaaaaaa", "  aaaaaaa"]);
  assertEquals(wrapLine("short", 10), ["short"]);
});

Deno.test("wrapLine: a command to copy is wrapped before its flags with shell continuations", () => {
  const command =
    "  deermem-eval report /tmp/demo --dataset /tmp/demo/protocol/dataset.json --config /tmp/c.yaml";
  const lines = wrapLine(command, 50);
  assertEquals(lines, [
    "  deermem-eval report /tmp/demo \\",
    "      --dataset /tmp/demo/protocol/dataset.json \\",
    "      --config /tmp/c.yaml",
  ]);
  assertEquals(lines.join("\n").replace(/ \\\n +/g, " "), command);
});

Deno.test("styleLine adds escape codes only: removed, the line is the same bytes", () => {
  const lines = [
    "  ✓ rows: valid",
    "  ✗ summary: differs",
    "NOT verified: 1 of 9 checks failed",
    "SUITES",
    "plain",
  ];
  const styled = lines.map(styleLine);
  // deno-lint-ignore no-control-regex -- the escape codes are what this test removes
  assertEquals(styled.map((line) => line.replace(/\x1b\[\d+m/g, "")), lines);
  assertEquals(styled, [
    "  \x1b[32m✓\x1b[39m rows: valid",
    "  \x1b[31m✗\x1b[39m summary: differs",
    "\x1b[31mNOT verified: 1 of 9 checks failed\x1b[39m",
    "\x1b[1mSUITES\x1b[22m",
    "plain",
  ]);
});

Deno.test("printable: a pipe gets fitted plain text; a terminal with colour gets it styled; JSON is never touched", () => {
  const pipe = { isTerminal: false, columns: 20, colour: false };
  const terminal = { isTerminal: true, columns: 20, colour: true };
  assertEquals(printable("✓ one two three four five", pipe, true), "✓ one two three four\n  five");
  assertEquals(
    printable("✓ one two three four five", terminal, false),
    "\x1b[32m✓\x1b[39m one two three four five",
  );
  const json = JSON.stringify({ detail: "✓ one two three four five six seven" }, null, 2);
  assertEquals(printable(json, terminal, true), json);
});
