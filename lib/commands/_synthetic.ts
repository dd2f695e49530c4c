/**
 * What a report says before anything else, decided by content, never by a protocol's id: a protocol that wears
 * the pinned id without its bytes says so first; the demo's generated data (its dataset's SHA-256, wherever it
 * was read from) is SYNTHETIC; answers the stand-in gave say so, on any data. In every format.
 *
 * @module
 */

import {
  type Contracts,
  DEMO_DATASET_SHA256,
  notPinnedLine,
  STAND_IN_MODEL,
  STAND_IN_NOTICE,
  SYNTHETIC_NOTICE,
} from "../protocol/mod.ts";
import { escapeHtml } from "../report/mod.ts";
import type { ReportFile } from "./_report_files.ts";

/** The formats a report is printed or written in. */
export type ReportFormat = "text" | "json" | "markdown" | "html";

/** The notices a report opens with, in order, and whether its data is the demo's. */
export interface Notices {
  lines: string[];
  synthetic: boolean;
}

/**
 * The notices for a report under `contracts`: `datasetSha256` the data the run was made on (a sweep's record;
 * by default the protocol's pinned dataset), `responseModels` its answers' models (none for a policy run).
 */
export async function reportNotices(
  contracts: Contracts,
  facts: { datasetSha256?: string; responseModels?: readonly (string | null)[] } = {},
): Promise<Notices> {
  const lines: string[] = [];
  const notPinned = await notPinnedLine(contracts);
  if (notPinned !== undefined) lines.push(notPinned);
  const synthetic = (facts.datasetSha256 ?? contracts.config.dataset.sha256) === DEMO_DATASET_SHA256;
  const standIn = (facts.responseModels ?? []).some((model) => model === STAND_IN_MODEL);
  if (synthetic) lines.push(standIn ? `${SYNTHETIC_NOTICE}; ${STAND_IN_NOTICE}` : SYNTHETIC_NOTICE);
  else if (standIn) lines.push(STAND_IN_NOTICE);
  return { lines, synthetic };
}

/** `document` with the notices first; unchanged when there are none. */
export function labelSynthetic(notices: Notices, format: ReportFormat, document: string): string {
  const { lines } = notices;
  if (lines.length === 0) return document;
  if (format === "text") return `${lines.join("\n")}\n${document}`;
  if (format === "markdown") return `${lines.map((line) => `> **${line}**\n\n`).join("")}${document}`;
  if (format === "json") {
    const synthetic = notices.synthetic ? `  "synthetic": ${JSON.stringify(SYNTHETIC_NOTICE)},\n` : "";
    return document.replace(/^\{\n/, `{\n  "notices": ${JSON.stringify(lines)},\n${synthetic}`);
  }
  // The title (the browser's first line) and the first thing in the body.
  const title = notices.synthetic ? "SYNTHETIC — " : "";
  const notPinned = lines[0].startsWith("not the pinned protocol") ? "NOT THE PINNED PROTOCOL — " : "";
  return document.replace("<title>", `<title>${notPinned}${title}`).replace(
    /<body>\n?/,
    (body) => `${body}${lines.map((line) => `<p><strong>${escapeHtml(line)}</strong></p>\n`).join("")}`,
  );
}

/** The report files, each labelled as {@linkcode labelSynthetic} does. */
export function labelFiles(notices: Notices, files: readonly ReportFile[]): ReportFile[] {
  return files.map((file) => ({
    ...file,
    render: () => labelSynthetic(notices, file.flag === "--html" ? "html" : "markdown", file.render()),
  }));
}
