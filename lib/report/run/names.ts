/**
 * The one name every report (text, Markdown, HTML) gives each suite and source: the rows' and summaries' source name
 * (`longmemeval`) for the suite `qa.stats.json` calls `official`, so a heading, a chart and a table never name
 * the same cases two ways.
 *
 * @module
 */

import { OFFICIAL_SOURCE } from "../../qa/mod.ts";

export { OFFICIAL_SOURCE };

/** A suite of `qa.stats.json` (official, synthetic, overall) by the name the reports use. */
export function suiteName(suite: string): string {
  return suite === "official" ? OFFICIAL_SOURCE : suite;
}
