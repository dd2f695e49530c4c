/**
 * Reports of the demo's generated data say so in their first lines, in every format; so do reports of a protocol
 * authored from another (`author-protocol`): which protocol it extends, and that it is not the pinned one.
 *
 * @module
 */

import { type Contracts, DEMO_PROTOCOL_ID, SYNTHETIC_NOTICE } from "../protocol/mod.ts";
import { escapeHtml } from "../report/mod.ts";
import type { ReportFile } from "./_report_files.ts";

/** The protocol this program pins and embeds. */
const PINNED_PROTOCOL_ID = "pr4789-reproduction-v1";

/** The formats a report is printed or written in. */
export type ReportFormat = "text" | "json" | "markdown" | "html";

/** The line every report of an authored protocol opens with. */
export function authoredNotice(contracts: Contracts): string | undefined {
  const { protocol_id: id, authored_from: source } = contracts.config;
  return source === undefined
    ? undefined
    : `AUTHORED protocol ${id}, extending ${source} by author-protocol ` +
      `— not the pinned ${PINNED_PROTOCOL_ID}`;
}

/** `document` with the synthetic and authored notices first when they apply; unchanged otherwise. */
export function labelSynthetic(contracts: Contracts, format: ReportFormat, document: string): string {
  const { protocol_id: id, authored_from: source } = contracts.config;
  const synthetic = id === DEMO_PROTOCOL_ID || source === DEMO_PROTOCOL_ID;
  const notices = [...synthetic ? [SYNTHETIC_NOTICE] : [], authoredNotice(contracts) ?? []].flat();
  if (notices.length === 0) return document;
  if (format === "text") return `${notices.join("\n")}\n${document}`;
  if (format === "markdown") return `${notices.map((notice) => `> **${notice}**\n\n`).join("")}${document}`;
  if (format === "json") {
    const keys = [
      ...synthetic ? [`  "synthetic": ${JSON.stringify(SYNTHETIC_NOTICE)},\n`] : [],
      ...source === undefined ? [] : [`  "authored_from": ${JSON.stringify(source)},\n`],
    ];
    return document.replace(/^\{\n/, `{\n${keys.join("")}`);
  }
  // The title (the browser's first line) and the first thing in the body.
  const title = synthetic ? "<title>SYNTHETIC — " : "<title>AUTHORED — ";
  return document.replace("<title>", title).replace(
    /<body>\n?/,
    (body) => `${body}${notices.map((notice) => `<p><strong>${escapeHtml(notice)}</strong></p>\n`).join("")}`,
  );
}

/** The report files, each labelled as {@linkcode labelSynthetic} does. */
export function labelFiles(contracts: Contracts, files: readonly ReportFile[]): ReportFile[] {
  return files.map((file) => ({
    ...file,
    render: () => labelSynthetic(contracts, file.flag === "--html" ? "html" : "markdown", file.render()),
  }));
}
