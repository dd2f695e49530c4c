/** Markdown rendering of reports: escaping and GFM tables. */
import { markdownEscape, markdownTable } from "../../lib/report/markdown.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("markdownEscape: Markdown's punctuation gets a backslash, line breaks become one space", () => {
  assertEquals(
    markdownEscape("a|b *c* _d_ `e` <f> #g ~h [i]{j} \\k"),
    "a\\|b \\*c\\* \\_d\\_ \\`e\\` \\<f\\> \\#g \\~h \\[i\\]\\{j\\} \\\\k",
  );
  assertEquals(markdownEscape("one\r\ntwo\n\nthree"), "one two three");
  assertEquals(markdownEscape("plain text, 0.5 (ok)."), "plain text, 0.5 (ok).");
});

Deno.test("markdownTable: header, alignment row (numeric right-aligned), escaped cells; empty headers named", () => {
  assertEquals(
    markdownTable({ headers: ["policy", "accuracy"], rows: [["a|b", "0.5"]], numeric: [false, true] }),
    [
      "| policy | accuracy |",
      "| --- | ---: |",
      "| a\\|b | 0.5 |",
    ],
  );
  assertEquals(markdownTable({ headers: ["", ""], rows: [], numeric: [false, false] }), [
    "| item | value |",
    "| --- | --- |",
  ]);
});
