/**
 * The report for the terminal: titled sections of aligned tables, and the verification's lines when the
 * report refuses a directory.
 *
 * @module
 */

import { retentionTableOf } from "../../policy/mod.ts";
import { runPolicies } from "../run/groups.ts";
import { formatVerifyResult } from "../../verify/mod.ts";
import { type Claim, claimLines, claimOf } from "../run/claim.ts";
import { checksText, type Section, type Table } from "../document/model.ts";
import type { Notice } from "../document/notices.ts";
import { type PerModel, perModel, type RunReport } from "../run/run_report.ts";
import { reportHeading, reportSections } from "../run/sections.ts";
import type { Verification } from "../run/verification.ts";
import { alignedLines, fitTable, lineWidth } from "./_table_fit.ts";
import { columnsOf, visible } from "../../base/mod.ts";

/**
 * A table as aligned terminal lines (two spaces between columns; headers underlined by nothing, just first).
 * With a `width` a table wider than it is fitted (see {@linkcode fitTable}); one that fits is unchanged.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { tableLines } from "./text.ts";
 * deepStrictEqual(tableLines({ headers: ["a", "n"], rows: [["x", "10"]], numeric: [false, true] }), ["  a   n", "  x  10"]);
 * ```
 */
export function tableLines(table: Table, width?: number): string[] {
  const widths = table.headers.map((header, column) =>
    Math.max(columnsOf(header), ...table.rows.map((row) => columnsOf(row[column] ?? "")))
  );
  if (width !== undefined && lineWidth(widths) > width) return fitTable(table, width);
  return alignedLines(table, widths);
}

/**
 * Titled sections as terminal text; `replace` substitutes preformatted lines for a section's tables; tables
 * are fitted to `width` when given; `lead` lines (the result block) come right after the heading; each notice's
 * line comes before it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sectionsText } from "./text.ts";
 * const table = { headers: ["policy", "kept"], rows: [["hybrid-v1", "35/40"]], numeric: [false, true] };
 * const text = sectionsText("heading", [{ id: "a", title: "Retention", lines: ["at capacity 7"], tables: [table] }]);
 * strictEqual(text, "heading\n\nRETENTION\n  at capacity 7\n  policy      kept\n  hybrid-v1  35/40");
 * ```
 */
export function sectionsText(
  heading: string,
  sections: readonly Section[],
  replace: ReadonlyMap<string, string[]> = new Map(),
  width?: number,
  lead: readonly string[] = [],
  notices: readonly Notice[] = [],
): string {
  const lines = [...noticesText(notices), visible(heading), ...lead.map((line) => visible(line))];
  for (const section of sections) {
    lines.push(
      "",
      visible(section.title.toUpperCase()),
      ...section.lines.map((line) => `  ${visible(line)}`),
      ...(section.checks === undefined ? [] : checksText(section.checks)).map((line) => `  ${visible(line)}`),
    );
    const replacement = replace.get(section.id);
    // A replacement is printed as is: e.g. the retention table exactly as `run-policy` prints it.
    if (replacement !== undefined) lines.push(...replacement);
    else for (const item of section.tables) lines.push(...tableLines(visibleCells(item), width));
  }
  return lines.join("\n");
}

/** The notices as the terminal's first lines, one each. */
export function noticesText(notices: readonly Notice[]): string[] {
  return notices.map((notice) => visible(notice.line));
}

/** A table with every cell one visible line: a model name or an answer cannot break it or forge a line. */
function visibleCells(table: Table): Table {
  const cells = (row: string[]) => row.map((cell) => visible(cell));
  return { ...table, headers: cells(table.headers), rows: table.rows.map(cells) };
}

/**
 * The report for the terminal, its tables fitted to `width` when given: the result block first, then the
 * sections. A policy run's retention is the same table `run-policy` and `demo` print.
 *
 * @example
 * ```ts
 * import { match } from "node:assert/strict";
 * import { samplePolicyReport } from "../run/samples.ts";
 * import { reportText } from "./text.ts";
 * const report = samplePolicyReport();
 * match(reportText(report), /^deermem-eval report: run \(policy run\)\n/);
 * match(reportText(report), /\n {2}all 1 cases +0\/1 +1\/1\n/); // the retention table as run-policy prints it
 * ```
 */
export function reportText(report: RunReport, width?: number, notices: readonly Notice[] = []): string {
  return sectionsText(
    reportHeading(report),
    reportSections(report),
    perModel(REPLACED, report),
    width,
    claimText(claimOf(report)),
    notices,
  );
}

/** The sections each report model prints in its own words on the terminal, by id: a policy run's retention. */
const REPLACED: PerModel<[], Map<string, string[]>> = {
  qa: () => new Map(),
  policy: (report) =>
    new Map([["retention", retentionTableOf(report.entries, runPolicies(report.entries)).split("\n")]]),
};

/**
 * The result block for the terminal: its title, then its lines indented, after a blank line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sampleClaim } from "../run/samples.ts";
 * import { claimText } from "./text.ts";
 * deepStrictEqual(claimText(sampleClaim()), ["", "Result: b against a", "  overall (4 cases): a 1/4 vs b 3/4",
 *   "    exact McNemar p = 0.5000 (mid-p 0.2500) · difference +0.500, 95% interval [+0.000, +1.000]", "  what_next"]);
 * ```
 */
export function claimText(claim: Claim): string[] {
  return ["", claim.title, ...claimLines(claim).map((line) => `  ${line}`)];
}

/**
 * Verification as terminal lines: the checks, then what was proved (or why the report refuses).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { verificationLines } from "./text.ts";
 * const checks = [{ name: "summary.json matches", verdict: "fail" as const, detail: "differs" }];
 * deepStrictEqual(verificationLines({ checks, ok: false, proved: "", rederived: false, bound: true }).at(-1), "NOT verified: the report refuses this directory");
 * ```
 */
export function verificationLines(verification: Verification): string[] {
  const lines = formatVerifyResult({
    checks: verification.checks,
    ok: verification.ok,
    scope: "structure-and-statistics",
    notRederivable: [],
    conclusion: "",
  }).split("\n").slice(0, verification.checks.length); // the checks only: the report states what was proved
  lines.push(
    verification.ok ? `proved: ${verification.proved}` : "NOT verified: the report refuses this directory",
  );
  return lines;
}
