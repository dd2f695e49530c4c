/**
 * The report layer's public surface.
 *
 * @module
 */

export { NotVerifiedError } from "../base/mod.ts";
export {
  comparePublished,
  publishedComparisonHeading,
  publishedComparisonSections,
  readPublishedComparison,
} from "./against_published.ts";
export { candidateView } from "./candidate_explanation.ts";
export { readCaseAnswers } from "./case_answers.ts";
export { compareRuns, comparisonHeading, comparisonSections } from "./compare.ts";
export { explainText } from "./explain.ts";
export { explainCase } from "./explanation.ts";
export { formatCount, formatSigned, shorten } from "./format.ts";
export { reportHtml, sectionsHtml, sweepHtml } from "./html.ts";
export { escapeHtml } from "./html_escape.ts";
export { PolicyReportJson, QaReportJson, reportJson, SweepReportJson, sweepReportJson } from "./json.ts";
export { buildReport, reportRuns } from "./load.ts";
export {
  type CandidateRow,
  type CandidateRunInput,
  checkOneBaseline,
  manyCandidates,
  manyCandidatesHeading,
  manyCandidatesJson,
  manyCandidatesSections,
} from "./many_candidates.ts";
export {
  markdownEscape,
  markdownTable,
  reportMarkdown,
  sectionsMarkdown,
  sweepMarkdown,
} from "./markdown.ts";
export { detectRunKind, isSweepDirectory } from "./run_kind.ts";
export { type PolicyReport, type Prices, type QaReport, type RunReport } from "./run_report.ts";
export { reportSections } from "./sections.ts";
export { readSweepReport, sweepReport } from "./sweep.ts";
export { reportText, sectionsText, tableLines, verificationLines } from "./text.ts";
export { type Verification } from "./verification.ts";
