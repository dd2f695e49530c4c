/** Markdown rendering of reports: escaping and GFM tables. */
import { reportMarkdown, reportText } from "../../../lib/report/mod.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { publishedReport } from "../../helpers/published.ts";
import { markdownEscape, markdownTable } from "../../../lib/report/render/markdown.ts";

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

Deno.test("the Markdown report carries the same tables as GFM", async () => {
  const markdown = reportMarkdown(await publishedReport());
  assertStringIncludes(markdown, "# deermem-eval report:");
  assertStringIncludes(markdown, "## Discordant cases");
  assertStringIncludes(
    markdown,
    "| longmemeval | 40 | 23/40 | 35/40 | 14 | 1 | 13 | 0.0018 | +0.300 | \\[+0.150, +0.450\\] |",
  );
  assertStringIncludes(markdown, "| --- | ---: |");
  assertStringIncludes(markdown, "| total | 90 | 90 | 86,342 | 12,340 |");
  assertMatch(markdown, /\n$/);
  assert(!markdown.endsWith("\n\n"));
});

/** The tables of a Markdown text: each header line with the delimiter line under it. */
function tablesOf(markdown: string): { header: string; delimiter: string }[] {
  const lines = markdown.split("\n");
  return lines.flatMap((line, index) =>
    line.startsWith("| ") && /^\|( ---:? \|)+$/.test(lines[index + 1] ?? "")
      ? [{ header: line, delimiter: lines[index + 1] }]
      : []
  );
}

const cells = (line: string) => line.slice(1, -1).split(/(?<!\\)\|/).length;

Deno.test("every Markdown table's delimiter row has as many cells as its header, with and without prices", async () => {
  for (const prices of [undefined, { input: 0.27, output: 1.1 }]) {
    const tables = tablesOf(reportMarkdown(await publishedReport({ prices })));
    assert(tables.length >= 5, `${tables.length} tables`);
    for (const { header, delimiter } of tables) assertEquals(cells(delimiter), cells(header), header);
  }
});

Deno.test("a section's sentences are separate paragraphs in Markdown, never run together", async () => {
  const markdown = reportMarkdown(await publishedReport());
  assertStringIncludes(
    markdown,
    "17 won by hybrid-v1, 1 won by confidence\n\nsupport kept, answers and grade rules:",
  );
});

Deno.test("the Markdown and terminal reports open with the result block: the numbers before any verification line", async () => {
  const report = await publishedReport();
  const markdown = reportMarkdown(report).split("\n");
  // A phone's first screen of a GitHub render: the heading and the next dozen lines.
  const firstScreen = markdown.slice(0, 12).join("\n");
  assertEquals(markdown[2], "## Result: hybrid-v1 against confidence");
  for (
    const part of [
      "- **longmemeval** (40 cases): confidence 23/40 vs hybrid-v1 35/40 · exact McNemar p = 0.0018 (mid-p 0.000977) · difference +0.300, 95% interval \\[+0.150, +0.450\\]",
      "- **synthetic** (5 cases): confidence 1/5 vs hybrid-v1 5/5",
      "- **overall** (45 cases): confidence 24/45 vs hybrid-v1 40/45 · exact McNemar p = 0.0001",
      "The 90 recorded grades give this result; without --dataset the grades are taken as recorded: re-derive them with --dataset. The model's answers are always taken as recorded.",
    ]
  ) assertStringIncludes(firstScreen, part);
  assert(markdown.indexOf("## Verification") > markdown.indexOf("## Result: hybrid-v1 against confidence"));
  const text = reportText(report).split("\n");
  assertEquals(text.slice(1, 5), [
    "",
    "Result: hybrid-v1 against confidence",
    "  longmemeval (40 cases): confidence 23/40 vs hybrid-v1 35/40",
    "    exact McNemar p = 0.0018 (mid-p 0.000977) · difference +0.300, 95% interval [+0.150, +0.450]",
  ]);
  assert(text.indexOf("VERIFICATION") > 8, "verification after the result block");
});
