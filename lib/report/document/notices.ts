/**
 * What a report says before anything else, as typed values every renderer draws in its own way: the demo's
 * data is SYNTHETIC, a run is PARTIAL. The text and Markdown open with the notice's line, the HTML with its
 * kind in the title and its line first in the body, the JSON with a key per kind.
 *
 * @module
 */

import { type Contracts, DEMO_PROTOCOL_ID, SYNTHETIC_NOTICE } from "../../protocol/mod.ts";
import { type PartialJson, partialJson, type PartialRun } from "../../verify/mod.ts";

/** A notice a report opens with. */
export type Notice =
  | { kind: "synthetic"; line: string }
  | { kind: "partial"; line: string; partial: PartialJson };

/**
 * The notices of a report on a run of `contracts`' protocol (and `partial`, when the run is one), in the order
 * the report shows them: PARTIAL first, then SYNTHETIC.
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
  if (contracts.config.protocol_id === DEMO_PROTOCOL_ID) {
    notices.push({ kind: "synthetic", line: SYNTHETIC_NOTICE });
  }
  return notices;
}

/** The word a notice puts before an HTML page's title, e.g. `SYNTHETIC`. */
export function noticeWord(notice: Notice): string {
  return notice.kind.toUpperCase();
}
