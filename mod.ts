/**
 * deermem-eval's library surface: the DeerMem eviction policies, the frozen blind grader, the paired
 * statistics, Python-compatible JSON, and the protocol schemas — for a TypeScript memory system or another
 * reproduction.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { gradeAnswer, selectFactsForCapacity } from "./mod.ts";
 * const result = selectFactsForCapacity(
 *   [{ id: "a", confidence: 0.9 }, { id: "b", confidence: 0.7, category: "correction" }],
 *   { maxFacts: 1, policy: "hybrid-v1", now: "2026-08-13T00:00:00Z" },
 * );
 * deepStrictEqual(result.kept.map((fact) => fact.id), ["b"]); // the correction slot
 * strictEqual(gradeAnswer("Seven weeks", "7 weeks").correct, true);
 * ```
 *
 * @module
 */

export {
  boundedNumber,
  DEFAULT_HYBRID_PARAMS,
  type EvictedFact,
  EVICTION_POLICY_CONFIDENCE,
  EVICTION_POLICY_HYBRID_V1,
  EVICTION_POLICY_VERSION,
  type EvictionPolicy,
  type FactScore,
  type HybridParams,
  parseTimestamp,
  type ScoreComponents,
  selectFactsForCapacity,
  type SelectionOptions,
  type SelectionResult,
} from "./lib/policy/mod.ts";
export {
  type BootstrapOptions,
  type BootstrapResult,
  exactMcnemar,
  type Grade,
  GRADE_RULES,
  gradeAnswer,
  type GradeRule,
  type McnemarResult,
  normalizeAnswer,
  type Pair,
  pairedBootstrapDifference,
  STOPWORDS,
} from "./lib/qa/mod.ts";
export {
  builtinPolicies,
  CONFIDENCE_POLICY,
  evaluatePolicy,
  type EvaluatePolicyOptions,
  hybridPolicy,
  type ModulePolicy,
  type Policy,
  type PolicyDecision,
  type PolicyInput,
  type PolicyProtocol,
  type PolicyResult,
  type SandboxModule,
} from "./lib/policy/mod.ts";
export { type Fact, type Pool, type UsageEntry } from "./lib/protocol/mod.ts";
export {
  type Artifact,
  type Contracts,
  type ContractSources,
  embeddedSources,
  loadContracts,
} from "./lib/protocol/mod.ts";
export { type EligibleCount, type PreparedProtocol, prepareProtocol } from "./lib/protocol/mod.ts";
export { CASE_SOURCES, type CaseSource, type PreparedCase } from "./lib/protocol/mod.ts";
export { type Dataset, type DatasetRow } from "./lib/protocol/mod.ts";
export { type HashedBytes } from "./lib/base/mod.ts";
export { type Instant } from "./lib/py/mod.ts";
export { type AnswerTask, type CandidateModule } from "./lib/qa/mod.ts";
export { GRADER_VERSION, type SourceState } from "./lib/protocol/mod.ts";
export { PythonRandom } from "./lib/py/mod.ts";
export {
  dumps,
  type DumpsOptions,
  floatRepr,
  type JsonLimits,
  parsePyJson,
  PyFloat,
  pyFloat,
  type PyJson,
} from "./lib/py/mod.ts";
export { HybridWeights, ProtocolConfig } from "./lib/protocol/mod.ts";
export {
  OFFICIAL_SCENARIOS,
  OfficialManifest,
  type OfficialScenario,
  SYNTHETIC_SCENARIO,
  SyntheticCase,
  SyntheticManifest,
} from "./lib/protocol/mod.ts";
export { GradedRow } from "./lib/qa/mod.ts";
export {
  ANSWER_ROW_SCHEMA_VERSION,
  AnswerRow,
  answerRowJson,
  IDENTITY_FIELDS,
  type IdentityMismatch,
  identityMismatches,
} from "./lib/qa/mod.ts";
export { checkMarker, MARKER_SCHEMA_VERSION, QaRunMarker, qaRunMarker } from "./lib/qa/mod.ts";
export { type ExpectedCandidate, type RunCandidate } from "./lib/qa/mod.ts";
export {
  type ChatMessage,
  fingerprintPayload,
  type MemoryFact,
  type PromptTemplate,
  renderMessages,
  requestFingerprint,
  type RequestSettings,
} from "./lib/qa/mod.ts";
export { type Schema, type SchemaIssue, type SchemaResult } from "./lib/base/mod.ts";
export {
  ContractError,
  type DomainErrorOptions,
  InputError,
  IoError,
  OperationError,
  OverwriteError,
  RowIntegrityError,
  UnreadableFileError,
} from "./lib/base/mod.ts";
export { DatasetIntegrityError } from "./lib/protocol/mod.ts";
export { PolicyModuleError } from "./lib/policy/mod.ts";
export { ProviderError } from "./lib/qa/mod.ts";
