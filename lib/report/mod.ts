/**
 * The report layer's public surface.
 *
 * @module
 */

export {
  publishedComparisonHeading,
  publishedComparisonSections,
  readPublishedComparison,
} from "./compare/against_published.ts";
export { candidateView } from "./explain/candidate_explanation.ts";
export { readCaseAnswers } from "./explain/case_answers.ts";
export { compareRuns, comparisonHeading, comparisonSections } from "./compare/compare.ts";
export { explainText } from "./explain/explain.ts";
export { explainCase } from "./explain/explanation.ts";
export { reportHtml, sectionsHtml, sweepHtml } from "./render/html.ts";
export type { Section } from "./document/model.ts";
export { type Notice, reportNotices } from "./document/notices.ts";
export { reportJson, sweepReportJson } from "./render/json.ts";
export { buildReport, reportRuns, type RunsRequest } from "./run/load.ts";
export { type CandidateRunInput, checkOneBaseline, manyCandidates } from "./compare/many_candidates.ts";
export { renderManyCandidates } from "./compare/many_page.ts";
export { reportMarkdown, sectionsMarkdown, sweepMarkdown } from "./render/markdown.ts";
export { type Prices, type QaReport, type RunReport } from "./run/run_report.ts";
export { readSweepReport } from "./sweep/sweep.ts";
export { noticesText, reportText, sectionsText, verificationLines } from "./render/text.ts";
export { type Verification } from "./run/verification.ts";
