/**
 * The report as GitHub-flavoured Markdown, ready to paste into a pull request: the same sections and tables
 * as the terminal.
 *
 * @module
 */

import { type Claim, claimOf, claimScores, claimStatistics } from "../run/claim.ts";
import { visible } from "../../base/mod.ts";
import { checksText, type Section, type Table } from "../document/model.ts";
import type { Notice } from "../document/notices.ts";
import type { RunReport } from "../run/run_report.ts";
import { reportHeading, reportSections } from "../run/sections.ts";
import type { BuiltSweepReport } from "../sweep/sweep.ts";

/**
 * Escapes text for a Markdown table cell or paragraph: ASCII punctuation that Markdown interprets gets a
 * backslash, line breaks become spaces, any other control character a visible `\u001b`-style escape.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { markdownEscape } from "./markdown.ts";
 * strictEqual(markdownEscape("a|b *c*\nd"), "a\\|b \\*c\\* d");
 * strictEqual(markdownEscape("m\x1b[2J"), "m\\\\u001b\\[2J"); // shown as `m\u001b[2J`
 * ```
 */
export function markdownEscape(text: string): string {
  const line = visible(text.replace(/[\r\n]+/g, " "));
  return line.replace(/[\\`*_{}[\]<>|#~]/g, (char) => `\\${char}`);
}

/**
 * A table as GFM lines; numeric columns right-aligned.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { markdownTable } from "./markdown.ts";
 * const lines = markdownTable({ headers: ["a", "n"], rows: [["x", "1"]], numeric: [false, true] });
 * deepStrictEqual(lines, ["| a | n |", "| --- | ---: |", "| x | 1 |"]);
 * ```
 */
export function markdownTable(table: Table): string[] {
  const row = (cells: string[]) => `| ${cells.map(markdownEscape).join(" | ")} |`;
  const headers = table.headers.map((header, column) =>
    header === "" ? (column === 0 ? "item" : "value") : header
  );
  return [
    row(headers),
    `|${table.numeric.map((numeric) => numeric ? " ---: " : " --- ").join("|")}|`,
    ...table.rows.map(row),
  ];
}

function sectionMarkdown(section: Section): string[] {
  const lines = [`## ${section.title}`, ""];
  // A section's lines come first, as in the text (the verification's reused rows before its checks).
  for (const line of section.lines) lines.push(markdownEscape(line), "");
  if (section.checks !== undefined) {
    lines.push(...checksText(section.checks).map((line) => `- ${markdownEscape(line)}`), "");
  }
  for (const table of section.tables) lines.push(...markdownTable(table), "");
  return lines;
}

/**
 * The whole report as Markdown text (ends with one newline).
 *
 * @example
 * ```ts
 * import { match } from "node:assert/strict";
 * import { samplePolicyReport } from "../run/samples.ts";
 * import { reportMarkdown } from "./markdown.ts";
 * const report = samplePolicyReport();
 * match(reportMarkdown(report), /^# deermem-eval report: run \(policy run\)\n/);
 * match(reportMarkdown(report), /\n\| 7 \| longmemeval \| access\\_help \| 0\/1 \| 1\/1 \|\n/); // a GFM table, text escaped
 * ```
 */
export function reportMarkdown(report: RunReport, notices: readonly Notice[] = []): string {
  return sectionsMarkdown(
    reportHeading(report),
    reportSections(report),
    claimMarkdown(claimOf(report)),
    notices,
  );
}

/**
 * The result block as Markdown: a heading, one bullet per suite or capacity (counts, then statistics), and
 * what was checked; short lines so a phone-width render shows the numbers on its first screen.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sampleClaim } from "../run/samples.ts";
 * import { claimMarkdown } from "./markdown.ts";
 * deepStrictEqual(claimMarkdown(sampleClaim()), ["## Result: b against a", "",
 *   "- **overall** (4 cases): a 1/4 vs b 3/4 · exact McNemar p = 0.5000 (mid-p 0.2500) · difference +0.500, 95% interval \\[+0.000, +1.000\\]",
 *   "", "what\\_next", ""]); // one bullet a row, the text escaped
 * ```
 */
export function claimMarkdown(claim: Claim): string[] {
  const lines = [`## ${markdownEscape(claim.title)}`, ""];
  for (const row of claim.rows) {
    const statistics = claimStatistics(claim, row);
    lines.push(
      `- **${markdownEscape(row.label)}** (${row.cases} cases): ${
        markdownEscape(row.note ?? claimScores(row))
      }${statistics === undefined ? "" : ` · ${markdownEscape(statistics)}`}`,
    );
  }
  lines.push("", markdownEscape(claim.checked), "");
  return lines;
}

/**
 * Sections (e.g. a comparison's) as Markdown under a heading, `lead` lines (the result block) first; each
 * notice's line quoted above the heading.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sectionsMarkdown } from "./markdown.ts";
 * const table = { headers: ["policy", "kept"], rows: [["hybrid-v1", "35/40"]], numeric: [false, true] };
 * const markdown = sectionsMarkdown("heading", [{ id: "a", title: "Retention", lines: ["at capacity 7"], tables: [table] }]);
 * strictEqual(markdown, "# heading\n\n## Retention\n\nat capacity 7\n\n| policy | kept |\n| --- | ---: |\n| hybrid-v1 | 35/40 |\n");
 * ```
 */
export function sectionsMarkdown(
  heading: string,
  sections: readonly Section[],
  lead: readonly string[] = [],
  notices: readonly Notice[] = [],
): string {
  const lines = [
    ...notices.flatMap((notice) => [`> **${markdownEscape(notice.line)}**`, ""]),
    `# ${markdownEscape(heading)}`,
    "",
    ...lead,
  ];
  for (const section of sections) lines.push(...sectionMarkdown(section));
  return lines.join("\n").replace(/\n+$/, "") + "\n";
}

/**
 * A sweep's report as Markdown: its heading and the report's tables (the heat map is in the HTML report).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sweepMarkdown } from "./markdown.ts";
 * const table = { headers: ["capacity", "difference"], rows: [["7", "+18"]], numeric: [true, true] };
 * const sections = [{ id: "published", title: "Published parameters", lines: [], tables: [table] }];
 * const markdown = sweepMarkdown("/tmp/sweep", { sections });
 * strictEqual(markdown, "# deermem-eval report: /tmp/sweep (sweep)\n\n## Published parameters\n\n| capacity | difference |\n| ---: | ---: |\n| 7 | +18 |\n");
 * ```
 */
export function sweepMarkdown(
  directory: string,
  sweep: Pick<BuiltSweepReport, "sections">,
  notices: readonly Notice[] = [],
): string {
  return sectionsMarkdown(`deermem-eval report: ${directory} (sweep)`, sweep.sections, [], notices);
}
