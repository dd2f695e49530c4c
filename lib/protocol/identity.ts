/**
 * Where a record came from, built in one place for `run.json`, `qa_run.json` and `sweep.json`: the SHA-256 of
 * each protocol artifact, the dataset's identity, and the program that wrote it (in place of the reference's git
 * state).
 *
 * @module
 */

import { type Contracts, EMBEDDED_ARTIFACTS } from "./contracts.ts";
import { sha256Hex } from "../base/mod.ts";

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

/** The pinned protocol's id: a protocol wearing it must also have its bytes ({@linkcode pinnedDifferences}). */
export const PINNED_PROTOCOL_ID = "deermem-hybrid-v1-pr4789-reproduction-v1";

/** The pinned protocol's artifacts, by the key their hash has in `Contracts.hashes`. */
const PINNED_ARTIFACTS = {
  config: "configs/pr4789-reproduction-v1.yaml",
  official: "manifests/longmemeval-pr4789-v1.json",
  synthetic: "manifests/synthetic-corrections-pr4789-v1.json",
  prompt: "prompts/answer-v1.txt",
} as const;

/**
 * The artifacts of a protocol that wears the pinned id but whose bytes are not the pinned ones (by SHA-256; the
 * config pins the dataset's hash, so a changed dataset identity is a changed config). Empty for the pinned
 * protocol itself and for any protocol under another id.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "./mod.ts";
 * import { pinnedDifferences } from "./identity.ts";
 * const contracts = await loadContracts(embeddedSources());
 * deepStrictEqual(await pinnedDifferences(contracts), []);
 * const copy = { ...contracts, hashes: { ...contracts.hashes, prompt: "0".repeat(64) } };
 * deepStrictEqual(await pinnedDifferences(copy), ["prompts/answer-v1.txt"]);
 * ```
 */
export async function pinnedDifferences(contracts: Contracts): Promise<string[]> {
  if (contracts.config.protocol_id !== PINNED_PROTOCOL_ID) return [];
  const differ: string[] = [];
  for (const [key, path] of Object.entries(PINNED_ARTIFACTS) as [keyof typeof PINNED_ARTIFACTS, string][]) {
    const pinned = await sha256Hex(new TextEncoder().encode(EMBEDDED_ARTIFACTS[path]));
    if (contracts.hashes[key] !== pinned) differ.push(path);
  }
  return differ;
}

/**
 * The first line every reader prints for a protocol that wears the pinned id without its bytes; `undefined`
 * for any other.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "./mod.ts";
 * import { notPinnedLine } from "./identity.ts";
 * strictEqual(await notPinnedLine(await loadContracts(embeddedSources())), undefined);
 * ```
 */
export async function notPinnedLine(contracts: Contracts): Promise<string | undefined> {
  const differ = await pinnedDifferences(contracts);
  if (differ.length === 0) return undefined;
  return `not the pinned protocol: it wears the id ${PINNED_PROTOCOL_ID}, but ${differ.join(", ")} ` +
    `${differ.length === 1 ? "differs" : "differ"} from the pinned bytes (SHA-256)`;
}
