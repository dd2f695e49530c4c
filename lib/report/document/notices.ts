/**
 * What a report says before anything else, as typed values every renderer draws in its own way: the demo's
 * data is SYNTHETIC, a run is PARTIAL, a protocol made by `author-protocol` is AUTHORED (not the pinned one). The text and Markdown open with the notice's line, the HTML with its
 * kind in the title and its line first in the body, the JSON with a key per kind.
 *
 * @module
 */

import { type Contracts, DEMO_PROTOCOL_ID, SYNTHETIC_NOTICE } from "../../protocol/mod.ts";
import { type PartialJson, partialJson, type PartialRun } from "../../verify/mod.ts";

/** A notice a report opens with. */
export type Notice =
  | { kind: "synthetic"; line: string }
  | { kind: "partial"; line: string; partial: PartialJson }
  | { kind: "authored"; line: string; from: string };

/** The protocol this program pins and embeds. */
const PINNED_PROTOCOL_ID = "pr4789-reproduction-v1";

/**
 * The notices of a report on a run of `contracts`' protocol (and `partial`, when the run is one), in the order
 * the report shows them: PARTIAL first, then SYNTHETIC, then AUTHORED.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { reportNotices } from "./notices.ts";
 * const { contracts } = await prepareDemoProtocol(await buildDemoProtocol());
 * deepStrictEqual(reportNotices(contracts).map((notice) => notice.kind), ["synthetic"]);
 * ```
 */
export function reportNotices(contracts: Contracts, partial?: PartialRun): Notice[] {
  const notices: Notice[] = [];
  if (partial !== undefined) {
    notices.push({ kind: "partial", line: partial.line, partial: partialJson(partial) });
  }
  const { protocol_id: id, authored_from: source } = contracts.config;
  if (id === DEMO_PROTOCOL_ID || source === DEMO_PROTOCOL_ID) {
    notices.push({ kind: "synthetic", line: SYNTHETIC_NOTICE });
  }
  if (source !== undefined) {
    const line =
      `AUTHORED protocol ${id}, extending ${source} by author-protocol — not the pinned ${PINNED_PROTOCOL_ID}`;
    notices.push({ kind: "authored", line, from: source });
  }
  return notices;
}

/** The word a notice puts before an HTML page's title, e.g. `SYNTHETIC`. */
export function noticeWord(notice: Notice): string {
  return notice.kind.toUpperCase();
}
