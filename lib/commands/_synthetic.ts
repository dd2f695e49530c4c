/**
 * Reports of the demo's generated data say so in their first lines, in every format.
 *
 * @module
 */

import { type Contracts, DEMO_PROTOCOL_ID, SYNTHETIC_NOTICE } from "../protocol/mod.ts";
import { escapeHtml } from "../report/mod.ts";
import type { ReportFile } from "./_report_files.ts";

/** The formats a report is printed or written in. */
export type ReportFormat = "text" | "json" | "markdown" | "html";

/** `document` with the synthetic notice first when `contracts` are the demo's; unchanged otherwise. */
export function labelSynthetic(contracts: Contracts, format: ReportFormat, document: string): string {
  if (contracts.config.protocol_id !== DEMO_PROTOCOL_ID) return document;
  if (format === "text") return `${SYNTHETIC_NOTICE}\n${document}`;
  if (format === "markdown") return `> **${SYNTHETIC_NOTICE}**\n\n${document}`;
  if (format === "json") {
    return document.replace(/^\{\n/, `{\n  "synthetic": ${JSON.stringify(SYNTHETIC_NOTICE)},\n`);
  }
  // The title (the browser's first line) and the first thing in the body.
  return document.replace("<title>", "<title>SYNTHETIC — ").replace(
    /<body>\n?/,
    (body) => `${body}<p><strong>${escapeHtml(SYNTHETIC_NOTICE)}</strong></p>\n`,
  );
}

/** The report files, each labelled as {@linkcode labelSynthetic} does. */
export function labelFiles(contracts: Contracts, files: readonly ReportFile[]): ReportFile[] {
  return files.map((file) => ({
    ...file,
    render: () => labelSynthetic(contracts, file.flag === "--html" ? "html" : "markdown", file.render()),
  }));
}
