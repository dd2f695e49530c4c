/**
 * The protocol layer's public surface.
 *
 * @module
 */

export { DatasetIntegrityError } from "./errors.ts";

export { CASE_SOURCES, type CaseSource, distractorOffset, type PreparedCase } from "./cases.ts";
export { ProtocolConfig } from "./config.ts";
export { type Contracts, EMBEDDED_ARTIFACTS, embeddedSources, loadContracts } from "./contracts.ts";
export { authorProtocol } from "./author.ts";
export { loadDataset } from "./dataset.ts";
export { answerText, renderEvidence } from "./evidence.ts";
export { type EligibleCount, eligibleLine, pinnedEligibleBound } from "./eligible.ts";
export {
  buildDemoProtocol,
  DEMO_DATASET_SHA256,
  prepareDemoProtocol,
  STAND_IN_MODEL,
  STAND_IN_NOTICE,
  SYNTHETIC_NOTICE,
  writeDemoProtocol,
} from "./demo.ts";
export {
  type ArtifactHashes,
  artifactHashes,
  type DatasetIdentity,
  datasetIdentity,
  notPinnedLine,
  type SourceState,
} from "./identity.ts";
export { buildPool, type Fact, type Pool, type UsageEntry } from "./pool.ts";
export {
  type ContractPaths,
  contractsLine,
  DATASET_ENV,
  prepareDataset,
  type PreparedProtocol,
  prepareProtocol,
  readContracts,
  validateContracts,
  validatedLine,
} from "./prepare.ts";
export { KEPT_PROTOCOL_DIR, readProtocolDirectory } from "./protocol_dir.ts";
export { embeddedOr, PUBLISHED_FILES, PUBLISHED_RUN, withPublishedRun } from "./published.ts";
export { EVICTION_POLICY_VERSION, GRADER_VERSION } from "./versions.ts";
export { type Artifact, type ContractSources } from "./contracts.ts";
export { type Dataset, type DatasetRow } from "./dataset.ts";
export { HybridWeights } from "./config.ts";
export {
  OFFICIAL_SCENARIOS,
  OfficialManifest,
  type OfficialScenario,
  SYNTHETIC_SCENARIO,
  SyntheticCase,
  SyntheticManifest,
} from "./manifest.ts";
