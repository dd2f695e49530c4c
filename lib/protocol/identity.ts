/**
 * Where a record came from, built in one place for `run.json`, `qa_run.json` and `sweep.json`: the SHA-256 of
 * each protocol artifact, the dataset's identity, and the program that wrote it (in place of the reference's git
 * state).
 *
 * @module
 */

import type { Contracts } from "./contracts.ts";

/** Provenance of the program that wrote a record, in place of the reference's git state. */
export interface SourceState {
  /** Whether the working tree had changes (`null`: unknown). */
  dirty: boolean | null;
  /** The commit the program was built from (`null`: unknown). */
  head: string | null;
  /** The program that wrote the record. */
  tool?: string;
}

// Types, not interfaces: a record's blocks go into `PyJson` objects, which need an index signature.

/** The SHA-256 of each protocol artifact, as a record's `artifacts` block holds them. */
export type ArtifactHashes = {
  /** The answer prompt template's. */
  answer_prompt_sha256: string;
  /** The config's. */
  config_sha256: string;
  /** The official manifest's. */
  official_manifest_sha256: string;
  /** The synthetic manifest's. */
  synthetic_manifest_sha256: string;
};

/** `qa_run.json`'s `artifacts` block: the four artifact hashes and the dataset's. */
export type ArtifactHashesWithDataset = {
  /** The answer prompt template's. */
  answer_prompt_sha256: string;
  /** The config's. */
  config_sha256: string;
  /** The dataset's. */
  dataset_sha256: string;
  /** The official manifest's. */
  official_manifest_sha256: string;
  /** The synthetic manifest's. */
  synthetic_manifest_sha256: string;
};

/**
 * A record's `artifacts` block: the SHA-256 of the exact bytes of each protocol artifact in use (`run.json`,
 * `sweep.json`), and with `datasetSha256` the dataset's too (`qa_run.json`). Keys in the order written.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { artifactHashes } from "./identity.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "./demo.ts";
 * const { contracts, dataset } = await prepareDemoProtocol(await buildDemoProtocol());
 * strictEqual(artifactHashes(contracts).config_sha256, contracts.hashes.config);
 * deepStrictEqual(Object.keys(artifactHashes(contracts, dataset.sha256)), [
 *   "answer_prompt_sha256", "config_sha256", "dataset_sha256", "official_manifest_sha256", "synthetic_manifest_sha256",
 * ]);
 * ```
 */
export function artifactHashes(contracts: Contracts): ArtifactHashes;
export function artifactHashes(contracts: Contracts, datasetSha256: string): ArtifactHashesWithDataset;
export function artifactHashes(
  contracts: Contracts,
  datasetSha256?: string,
): ArtifactHashes | ArtifactHashesWithDataset {
  const { hashes } = contracts;
  return {
    answer_prompt_sha256: hashes.prompt,
    config_sha256: hashes.config,
    ...(datasetSha256 === undefined ? {} : { dataset_sha256: datasetSha256 }),
    official_manifest_sha256: hashes.official,
    synthetic_manifest_sha256: hashes.synthetic,
  };
}

/** The pinned dataset a record was computed from, as its `dataset` block holds it. */
export type DatasetIdentity = {
  /** The file inside the repository. */
  filename: string;
  /** The Hugging Face repository. */
  repository: string;
  /** The 40-hex-digit commit. */
  revision: string;
  /** The file's SHA-256. */
  sha256: string;
};

/**
 * A record's `dataset` block: the config's pinned repository, revision and file, with `sha256` the dataset's
 * digest (default the pin, which a loaded dataset has been verified against). Keys in the order written.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { datasetIdentity } from "./identity.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "./demo.ts";
 * const { contracts, dataset } = await prepareDemoProtocol(await buildDemoProtocol());
 * const { filename, sha256 } = datasetIdentity(contracts, dataset.sha256);
 * deepStrictEqual([filename, sha256], ["demo-longmemeval-shaped.json", contracts.config.dataset.sha256]);
 * ```
 */
export function datasetIdentity(
  contracts: Contracts,
  sha256: string = contracts.config.dataset.sha256,
): DatasetIdentity {
  const { dataset } = contracts.config;
  return {
    filename: dataset.filename,
    repository: dataset.repository,
    revision: dataset.revision,
    sha256,
  };
}
