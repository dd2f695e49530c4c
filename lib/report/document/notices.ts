/**
 * What a report says before anything else, decided by content, never by a protocol's id, as typed values every
 * renderer draws in its own way: a protocol wearing the pinned id without its bytes is NOT PINNED; a run is
 * PARTIAL; the demo's generated data (its dataset's SHA-256, wherever it was read from) is SYNTHETIC; answers
 * the stand-in gave say so, on any data; a protocol made by `author-protocol` is AUTHORED. The text and Markdown
 * open with each notice's line, the HTML with its word in the title and its line first in the body, the JSON
 * with `notices` (every line, in order) and a key per kind.
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
} from "../../protocol/mod.ts";
import { type PartialJson, partialJson, type PartialRun } from "../../verify/mod.ts";

/** A notice a report opens with. */
export type Notice =
  | { kind: "not-pinned"; line: string }
  | { kind: "partial"; line: string; partial: PartialJson }
  | { kind: "synthetic"; line: string; data: string }
  | { kind: "stand-in"; line: string }
  | { kind: "authored"; line: string; from: string };

/** The protocol this program pins and embeds. */
const PINNED_PROTOCOL_ID = "pr4789-reproduction-v1";

/** What a report knows of its run beyond the protocol: the data it was made on and its answers' models. */
export interface NoticeFacts {
  /** The partial run, when the run is one. */
  partial?: PartialRun;
  /** The dataset the run was made on (a sweep's record); by default the protocol's pinned dataset. */
  datasetSha256?: string;
  /** The models of the run's answers (none for a policy run or a sweep). */
  responseModels?: readonly (string | null)[];
}

/**
 * The notices of a report on a run of `contracts`' protocol, in the order the report shows them: NOT PINNED,
 * PARTIAL, SYNTHETIC (with the stand-in's answers named in its line), the stand-in on other data, AUTHORED.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { reportNotices } from "./notices.ts";
 * const { contracts } = await prepareDemoProtocol(await buildDemoProtocol());
 * deepStrictEqual((await reportNotices(contracts)).map((notice) => notice.kind), ["synthetic"]);
 * ```
 */
export async function reportNotices(contracts: Contracts, facts: NoticeFacts = {}): Promise<Notice[]> {
  const notices: Notice[] = [];
  const notPinned = await notPinnedLine(contracts);
  if (notPinned !== undefined) notices.push({ kind: "not-pinned", line: notPinned });
  if (facts.partial !== undefined) {
    notices.push({ kind: "partial", line: facts.partial.line, partial: partialJson(facts.partial) });
  }
  const synthetic = (facts.datasetSha256 ?? contracts.config.dataset.sha256) === DEMO_DATASET_SHA256;
  const standIn = (facts.responseModels ?? []).some((model) => model === STAND_IN_MODEL);
  if (synthetic) {
    const line = standIn ? `${SYNTHETIC_NOTICE}; ${STAND_IN_NOTICE}` : SYNTHETIC_NOTICE;
    notices.push({ kind: "synthetic", line, data: SYNTHETIC_NOTICE });
  } else if (standIn) notices.push({ kind: "stand-in", line: STAND_IN_NOTICE });
  const { protocol_id: id, authored_from: source } = contracts.config;
  if (source !== undefined) {
    const line =
      `AUTHORED protocol ${id}, extending ${source} by author-protocol — not the pinned ${PINNED_PROTOCOL_ID}`;
    notices.push({ kind: "authored", line, from: source });
  }
  return notices;
}

/** The word each kind of notice puts before an HTML page's title. */
const WORDS: Record<Notice["kind"], string> = {
  "not-pinned": "NOT THE PINNED PROTOCOL",
  partial: "PARTIAL",
  synthetic: "SYNTHETIC",
  "stand-in": "STAND-IN",
  authored: "AUTHORED",
};

/** The word a notice puts before an HTML page's title, e.g. `SYNTHETIC`. */
export function noticeWord(notice: Notice): string {
  return WORDS[notice.kind];
}
