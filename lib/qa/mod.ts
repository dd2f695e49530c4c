/**
 * The qa layer's public surface.
 *
 * @module
 */

export { BudgetExceededError, ProviderError } from "./answer/errors.ts";

export { type RunEvent, type RunQaSummary } from "./answer/answer_types.ts";
export { qaSummary, type QaSummaryGroup, qaSummaryGroups } from "./grade/accuracy_summary.ts";
export { readReusedRows, refuseSelfReuse, reusedLine, type ReusedRows } from "./answer/answer_reuse.ts";
export {
  ANSWER_ROW_SCHEMA_VERSION,
  AnswerRow,
  answerRowJson,
  checkRowIdentity,
  IDENTITY_FIELDS,
  type IdentityMismatch,
  identityMismatches,
  parseAnswerRow,
} from "./run/answer_rows.ts";
export { answerTasks } from "./answer/answering.ts";
export { type Answerer, answererFor, answerRun, dryRunPlan, type RunStart } from "./answer/answer_run.ts";
export { type ReuseRequest } from "./answer/reuse_sources.ts";
export { checkOutputDirectory } from "./answer/epoch_runs.ts";
export { epochRunDirectories, EPOCHS_FILE, MAX_EPOCHS } from "./run/epochs.ts";
export {
  type ExpectedCandidate,
  type PolicyPair,
  policyPair,
  PUBLISHED_PAIR,
  type QaCandidate,
  type RunCandidate,
  runCandidateSchema,
} from "./run/candidate.ts";
export { type CostBudget, TOKEN_RULE } from "./answer/cost.ts";
export {
  answerMismatch,
  GradedRow,
  gradedRow,
  gradedRowLine,
  gradedRowsJsonl,
  parseGradedRows,
} from "./grade/graded_rows.ts";
export {
  type Grade,
  GRADE_RULES,
  gradeAnswer,
  type GradeRule,
  normalizeAnswer,
  STOPWORDS,
} from "./grade/grading.ts";
export { holmAdjust } from "./grade/holm.ts";
export { plan, planLines, type PlanQuestion } from "./answer/plan.ts";
export { caseBootstrap, signFlipP } from "./grade/case_stats.ts";
export { caseLevelLines, type EpochStats, epochStats } from "./grade/epochs.ts";
export { interruptHandler } from "./answer/interrupt.ts";
export {
  gradedRowIds,
  pairedTasks,
  parsePartialRecord,
  PARTIAL_DIR,
  PARTIAL_RECORD_FILE,
  partialLine,
  type PartialRecord,
  partialRecordJson,
} from "./run/partial.ts";
export {
  type ChatMessage,
  fingerprintPayload,
  type MemoryFact,
  parsePromptTemplate,
  type PromptTemplate,
  renderMessages,
  requestFingerprint,
  type RequestSettings,
} from "./run/prompt.ts";
export { MIN_SECRET_LENGTH, redact } from "./answer/redact.ts";
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
} from "./run/run_dir.ts";
export {
  ARTIFACT_KEYS,
  checkMarker,
  expectedArtifacts,
  MARKER_SCHEMA_VERSION,
  OTHER_PROTOCOL_ADVICE,
  QaRunMarker,
  qaRunMarker,
  readMarker,
} from "./run/run_marker.ts";
export {
  type BootstrapOptions,
  type BootstrapResult,
  exactMcnemar,
  formatPValue,
  mcnemarMidP,
  type McnemarResult,
  type Pair,
  pairedBootstrapDifference,
} from "./grade/stats.ts";
export {
  OFFICIAL_SOURCE,
  qaStats,
  qaStatsOf,
  type QaStatsSuites,
  qaStatsSuites,
  type QaSuiteStats,
  SUITE_ROWS,
  suiteLines,
} from "./grade/suite_stats.ts";
export { type AnswerTask, buildAnswerTasks, type CandidateModule, checkQaSettings } from "./run/tasks.ts";
export { demoGradedRun } from "./grade/demo_run.ts";
