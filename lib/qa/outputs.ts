/**
 * The names `cli.ts` and `lib/commands` import from this path, until it imports `mod.ts`; delete this file then.
 *
 * @module
 */

export { qaSummary } from "./accuracy_summary.ts";
export { GradedRow, gradedRowsJsonl } from "./graded_rows.ts";
export { qaStatsOf, type QaStatsSuites, qaStatsSuites, suiteLines } from "./suite_stats.ts";
