/**
 * The verify layer's public surface: the checks that prove a results directory follows from its rows.
 *
 * @module
 */

export { NotVerifiedError } from "./errors.ts";

export { type Check, checkLine, formatVerifyResult, NOT_REDERIVABLE, type VerifyResult } from "./checks.ts";
export { figureDetail } from "./figures.ts";
export {
  findPartialRun,
  gradedTasks,
  partialChecks,
  type PartialJson,
  partialJson,
  type PartialRun,
  verifyPartialRun,
} from "./partial_run.ts";
export { type PolicyRunModule, recordedPolicyModule, verifyPolicyRun } from "./policy_run.ts";
export { recordedCandidate, verifyQaRun, verifyResults } from "./qa_run.ts";
export { refuseOtherProtocol } from "./run_protocol.ts";
export { CheckJson, PartialJsonSchema, VerifyJson } from "./verify_json.ts";
export { SWEEP_CHECKS, type SweepVerification, verifySweep } from "./sweep_run.ts";
