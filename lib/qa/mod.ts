/**
 * The qa layer's public surface.
 *
 * @module
 */

export { GRADER_VERSION } from "../protocol/mod.ts";
export { type RunEvent, type RunQaSummary } from "./_answer_types.ts";
export { qaSummary, type QaSummaryGroup, qaSummaryGroups } from "./accuracy_summary.ts";
export { endpointOrigin, readReuseSource, refuseSelfReuse, type ReuseSource } from "./answer_reuse.ts";
export {
  ANSWER_ROW_SCHEMA_VERSION,
  AnswerRow,
  answerRow,
  answerRowJson,
  checkRowIdentity,
  IDENTITY_FIELDS,
  type IdentityMismatch,
  identityMismatches,
  parseAnswerRow,
} from "./answer_rows.ts";
export { answerTasks, LOCKED_ACTION } from "./answering.ts";
export {
  type ExpectedCandidate,
  parseBaseline,
  type PolicyPair,
  policyPair,
  PUBLISHED_PAIR,
  type QaCandidate,
  type RunCandidate,
  runCandidateSchema,
} from "./candidate.ts";
export { type CostBudget, costLines, TOKEN_RULE } from "./cost.ts";
export { resolveCredentials } from "./credentials.ts";
export { GradedRow, gradedRow, gradedRowLine, gradedRowsJsonl, parseGradedRows } from "./graded_rows.ts";
export {
  type Grade,
  GRADE_RULES,
  gradeAnswer,
  type GradeRule,
  normalizeAnswer,
  STOPWORDS,
} from "./grading.ts";
export { holmAdjust } from "./holm.ts";
export { interruptHandler } from "./interrupt.ts";
export {
  gradedRowIds,
  pairedTasks,
  parsePartialRecord,
  PARTIAL_DIR,
  PARTIAL_RECORD_FILE,
  partialLine,
  type PartialRecord,
  partialRecordJson,
} from "./partial.ts";
export {
  type ChatMessage,
  fingerprintPayload,
  type MemoryFact,
  parsePromptTemplate,
  type PromptTemplate,
  renderMessages,
  requestFingerprint,
  type RequestSettings,
} from "./prompt.ts";
export { openAiProvider } from "./provider.ts";
export { MIN_SECRET_LENGTH, redact, secretOf } from "./redact.ts";
export { checkRunDirectory, dryRunLines, planRows } from "./resume.ts";
export {
  GRADED_OUTPUTS,
  GRADED_ROWS_FILE,
  MARKER_FILE,
  QA_STATS_FILE,
  QA_SUMMARY_FILE,
  responsePath,
  RESPONSES_DIR,
  responsesDir,
  rowFileName,
  SUPERSEDED_DIR,
} from "./run_dir.ts";
export {
  ARTIFACT_KEYS,
  checkMarker,
  expectedArtifacts,
  MARKER_SCHEMA_VERSION,
  OTHER_PROTOCOL_ADVICE,
  QaRunMarker,
  qaRunMarker,
  readMarker,
} from "./run_marker.ts";
export { startStandIn } from "./stand_in.ts";
export {
  type BootstrapOptions,
  type BootstrapResult,
  exactMcnemar,
  type McnemarResult,
  type Pair,
  pairedBootstrapDifference,
} from "./stats.ts";
export {
  OFFICIAL_SOURCE,
  qaStats,
  qaStatsOf,
  type QaStatsSuites,
  qaStatsSuites,
  type QaSuiteStats,
  SUITE_ROWS,
  suiteLines,
} from "./suite_stats.ts";
export {
  type AnswerTask,
  buildAnswerTasks,
  type CandidateModule,
  checkQaSettings,
  requestSettings,
} from "./tasks.ts";
export { type DemoGradedRun, demoGradedRun } from "./demo_run.ts";
