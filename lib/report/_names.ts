/**
 * The one name every report (text, Markdown, HTML) gives each suite and source: the rows' and summaries' source name
 * (`longmemeval`) for the suite `qa.stats.json` calls `official`, so a heading, a chart and a table never name
 * the same cases two ways.
 *
 * @module
 */

/** The name of the official suite's source, as `qa.rows.jsonl` and `qa.summary.json` write it. */
export const OFFICIAL_SOURCE = "longmemeval";

/** A suite of `qa.stats.json` (official, synthetic, overall) by the name the reports use. */
export function suiteName(suite: string): string {
  return suite === "official" ? OFFICIAL_SOURCE : suite;
}
