/**
 * The protocol contracts: config, two manifests and the answer prompt, embedded in the program (so the binary
 * needs nothing beside it) or loaded from files by flag. Whatever bytes were used are what gets hashed.
 *
 * @module
 */

import embeddedConfig from "../../configs/pr4789-reproduction-v1.yaml" with { type: "text" };
import embeddedOfficial from "../../manifests/longmemeval-pr4789-v1.json" with { type: "text" };
import embeddedSynthetic from "../../manifests/synthetic-corrections-pr4789-v1.json" with { type: "text" };
import embeddedPrompt from "../../prompts/answer-v1.txt" with { type: "text" };
import { parseConfig, type ProtocolConfig } from "./config.ts";
import { ContractError, decodeStrictUtf8, sha256Hex } from "../base/mod.ts";
import { EVICTION_POLICY_VERSION, GRADER_VERSION } from "./versions.ts";
import {
  type OfficialManifest,
  parseOfficialManifest,
  parseSyntheticManifest,
  type SyntheticManifest,
} from "./manifest.ts";

/** One artifact's bytes and where they came from. */
export interface Artifact {
  /** A file path, or `embedded:<relative path>` for the built-in copy. */
  source: string;
  /** The exact bytes, as read. */
  bytes: Uint8Array;
}

/** The contracts, parsed, with the SHA-256 of the exact bytes used. */
export interface Contracts {
  /** The validated config. */
  config: ProtocolConfig;
  /** The validated official manifest. */
  official: OfficialManifest;
  /** The validated synthetic manifest. */
  synthetic: SyntheticManifest;
  /** The answer prompt template text. */
  prompt: string;
  /** The exact texts read, by artifact. */
  sources: { config: string; official: string; synthetic: string; prompt: string };
  /** The SHA-256 of the exact bytes read, by artifact. */
  hashes: { config: string; official: string; synthetic: string; prompt: string };
}

const encoder = new TextEncoder();

/** The artifacts this program ships, keyed by their path relative to the protocol root. */
export const EMBEDDED_ARTIFACTS: Readonly<Record<string, string>> = Object.freeze({
  "configs/pr4789-reproduction-v1.yaml": embeddedConfig,
  "manifests/longmemeval-pr4789-v1.json": embeddedOfficial,
  "manifests/synthetic-corrections-pr4789-v1.json": embeddedSynthetic,
  "prompts/answer-v1.txt": embeddedPrompt,
});

/**
 * An embedded artifact by its protocol-root path.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { embeddedArtifact } from "./contracts.ts";
 * deepStrictEqual(embeddedArtifact("prompts/answer-v1.txt").source, "embedded:prompts/answer-v1.txt");
 * ```
 */
export function embeddedArtifact(path: string): Artifact {
  const text = EMBEDDED_ARTIFACTS[path];
  if (text === undefined) throw new ContractError(`no such artifact in this program`, { path });
  return { source: `embedded:${path}`, bytes: encoder.encode(text) };
}

/** The three artifacts a protocol is loaded from (the prompt is found through the config). */
export interface ContractSources {
  /** The config YAML. */
  config: Artifact;
  /** The official manifest JSON. */
  official: Artifact;
  /** The synthetic manifest JSON. */
  synthetic: Artifact;
}

/**
 * The embedded protocol `pr4789-reproduction-v1`.
 *
 * @returns The config, both manifests and the answer prompt, as built into the program.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources } from "./contracts.ts";
 * strictEqual(embeddedSources().config.source, "embedded:configs/pr4789-reproduction-v1.yaml");
 * ```
 */
export function embeddedSources(): ContractSources {
  return {
    config: embeddedArtifact("configs/pr4789-reproduction-v1.yaml"),
    official: embeddedArtifact("manifests/longmemeval-pr4789-v1.json"),
    synthetic: embeddedArtifact("manifests/synthetic-corrections-pr4789-v1.json"),
  };
}

function decode(artifact: Artifact): string {
  try {
    // A leading BOM is kept: PyYAML skips one in the config, the reference's json.load refuses one in a manifest.
    return decodeStrictUtf8(artifact.bytes);
  } catch (error) {
    throw new ContractError("not valid UTF-8", { path: artifact.source, cause: error });
  }
}

function displayPath(artifact: Artifact): string {
  return artifact.source.startsWith("embedded:")
    ? artifact.source.slice("embedded:".length)
    : artifact.source;
}

/**
 * Parses the contracts and checks they agree: one protocol id, the grader version and policy version this
 * program implements, and the prompt's pinned SHA-256. The prompt path resolves against the tool's own
 * protocol root (the embedded artifacts), as in the reference — never against the config's folder.
 *
 * @param sources The config and manifests' bytes and where they came from.
 * @returns The parsed contracts with the SHA-256 of each artifact's exact bytes.
 * @throws {ContractError} When an artifact is not valid UTF-8, fails its schema, or disagrees with another.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "./contracts.ts";
 * import { ContractError } from "../base/errors.ts";
 * const contracts = await loadContracts(embeddedSources());
 * strictEqual(contracts.config.protocol_id, "deermem-hybrid-v1-pr4789-reproduction-v1");
 * strictEqual(contracts.hashes.prompt, contracts.config.qa.answer_prompt.sha256); // the pinned prompt
 * const broken = { ...embeddedSources(), config: { source: "x.yaml", bytes: new TextEncoder().encode("pool: 1\n") } };
 * await rejects(loadContracts(broken), ContractError);
 * ```
 */
export async function loadContracts(sources: ContractSources): Promise<Contracts> {
  const configPath = displayPath(sources.config);
  const officialPath = displayPath(sources.official);
  const syntheticPath = displayPath(sources.synthetic);
  const config = parseConfig(decode(sources.config), configPath);
  const official = parseOfficialManifest(decode(sources.official), officialPath);
  const synthetic = parseSyntheticManifest(decode(sources.synthetic), syntheticPath);
  checkAgreement(config, { official, officialPath, synthetic, syntheticPath, configPath });
  const { artifact: promptArtifact, sha256: promptHash } = await pinnedPrompt(config, configPath);
  const [configHash, officialHash, syntheticHash] = await Promise.all(
    [sources.config, sources.official, sources.synthetic].map((artifact) => sha256Hex(artifact.bytes)),
  );
  return {
    config,
    official,
    synthetic,
    prompt: decode(promptArtifact),
    sources: {
      config: sources.config.source,
      official: sources.official.source,
      synthetic: sources.synthetic.source,
      prompt: promptArtifact.source,
    },
    hashes: {
      config: configHash,
      official: officialHash,
      synthetic: syntheticHash,
      prompt: promptHash,
    },
  };
}

/** One protocol id across the three, and the grader and policy versions this program implements. */
function checkAgreement(
  config: ProtocolConfig,
  manifests: {
    official: OfficialManifest;
    officialPath: string;
    synthetic: SyntheticManifest;
    syntheticPath: string;
    configPath: string;
  },
): void {
  const { official, officialPath, synthetic, syntheticPath, configPath } = manifests;
  if (official.protocol_id !== config.protocol_id) {
    throw new ContractError(`${official.protocol_id} does not match the config's ${config.protocol_id}`, {
      path: officialPath,
      field: "protocol_id",
    });
  }
  if (synthetic.protocol_id !== config.protocol_id) {
    throw new ContractError(`${synthetic.protocol_id} does not match the config's ${config.protocol_id}`, {
      path: syntheticPath,
      field: "protocol_id",
    });
  }
  if (config.qa.grader_version !== GRADER_VERSION) {
    throw new ContractError(
      `expected ${GRADER_VERSION} (the grader this program implements), got ${config.qa.grader_version}`,
      {
        path: configPath,
        field: "qa.grader_version",
      },
    );
  }
  if (config.required_policy_version !== EVICTION_POLICY_VERSION) {
    throw new ContractError(
      `expected ${EVICTION_POLICY_VERSION} (the policy this program implements), got ${config.required_policy_version}`,
      { path: configPath, field: "required_policy_version" },
    );
  }
}

/** The prompt the config names, from this program's protocol root, checked against its pinned SHA-256. */
async function pinnedPrompt(
  config: ProtocolConfig,
  configPath: string,
): Promise<{ artifact: Artifact; sha256: string }> {
  const promptArtifact = EMBEDDED_ARTIFACTS[config.qa.answer_prompt.path] !== undefined &&
      config.qa.answer_prompt.path.startsWith("prompts/")
    ? embeddedArtifact(config.qa.answer_prompt.path)
    : undefined;
  if (promptArtifact === undefined) {
    throw new ContractError(`no prompt at ${config.qa.answer_prompt.path} in this program's protocol root`, {
      path: configPath,
      field: "qa.answer_prompt.path",
    });
  }
  const promptHash = await sha256Hex(promptArtifact.bytes);
  if (promptHash !== config.qa.answer_prompt.sha256) {
    throw new ContractError(
      `SHA-256 mismatch: expected ${config.qa.answer_prompt.sha256}, actual ${promptHash}`,
      {
        path: configPath,
        field: "qa.answer_prompt.sha256",
      },
    );
  }
  return { artifact: promptArtifact, sha256: promptHash };
}
