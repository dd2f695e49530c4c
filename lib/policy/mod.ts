/**
 * The policy layer's public surface.
 *
 * @module
 */

export { PolicyModuleError } from "./errors.ts";
export { SANDBOX_LIMITS } from "./limits.ts";

export { rankOrder } from "./_radix.ts";
export { POLICY_MEMORY_BOUND } from "./_sandbox_command.ts";
export {
  builtinPolicies,
  CONFIDENCE_POLICY,
  HYBRID_PARAM_NAMES,
  hybridParams,
  hybridParamsConfig,
  hybridPolicy,
  POLICIES,
  selectionOptions,
} from "./builtins.ts";
export { checkCandidateName } from "./candidate_name.ts";
export { type Policy, type PolicyDecision, type PolicyInput, type PolicyResult } from "./contract.ts";
export {
  evaluateAll,
  evaluateCase,
  evaluatePolicy,
  type EvaluatePolicyOptions,
  evaluateTrusted,
  type PolicyProtocol,
} from "./evaluate.ts";
export { boundedNumber, parseTimestamp } from "./lenient.ts";
export { loadPolicyModule, type ModulePolicy, type PolicyModuleOptions } from "./module.ts";
export {
  parsePolicyRawRows,
  policyModuleOf,
  type PolicyModuleRecord,
  policyRawJsonl,
  PolicyRawRow,
  policySummary,
  type PolicySummaryGroup,
  policySummaryGroups,
  policySummaryOf,
  rawRowEntry,
  type RetentionEntry,
  retentionTable,
  retentionTableOf,
  runRecord,
} from "./outputs.ts";
export { type SandboxModule } from "./sandbox.ts";
export {
  DEFAULT_HYBRID_PARAMS,
  type EvictedFact,
  EVICTION_POLICY_CONFIDENCE,
  EVICTION_POLICY_HYBRID_V1,
  type EvictionPolicy,
  type FactScore,
  type HybridParams,
  type ScoreComponents,
  type SelectionOptions,
  type SelectionResult,
} from "./selection_types.ts";
export { selectFactsForCapacity } from "./selector.ts";
export { EVICTION_POLICY_VERSION } from "../protocol/mod.ts";
