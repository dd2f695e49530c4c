/**
 * The QA run marker `qa_run.json`: binds an output directory to the protocol's full identity — the SHA-256 of
 * the config, both manifests, the answer prompt and the dataset — plus the QA settings. `run-qa` writes it once
 * and refuses to resume under any other identity; `grade-qa` and `verify` check it read-only. Never holds a key.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import { ContractError, type RunFiles, runFilesOf, type SameType, type Schema } from "../../base/mod.ts";
import { artifactHashes, type Contracts, datasetIdentity, type SourceState } from "../../protocol/mod.ts";
import { createdAtStamp, dumps, parseJsonTextWith, PyFloat, type PyJson } from "../../py/mod.ts";
import { MARKER_FILE } from "./run_dir.ts";
import {
  checkCandidate,
  type ExpectedCandidate,
  type RunCandidate,
  runCandidateSchema,
} from "./candidate.ts";

/**
 * The marker schema version the reference writes.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { MARKER_SCHEMA_VERSION } from "./run_marker.ts";
 * strictEqual(MARKER_SCHEMA_VERSION, 2);
 * ```
 */
export const MARKER_SCHEMA_VERSION = 2;

/** What to do about a run of another protocol when reading it (run-qa, resuming, says to start afresh). */
export const OTHER_PROTOCOL_ADVICE =
  "pass the protocol files it was made with (--config/--official-manifest/--synthetic-manifest)";

/** The artifact keys, in the order a refusal names them. */
export const ARTIFACT_KEYS = [
  "config_sha256",
  "official_manifest_sha256",
  "synthetic_manifest_sha256",
  "answer_prompt_sha256",
  "dataset_sha256",
] as const;

// Exactly the keys run-qa (ours or the reference's) writes, at every level: an extra or a missing key is refused.
const qaRunMarkerSchema = z.strictObject({
  artifacts: z.strictObject(Object.fromEntries(ARTIFACT_KEYS.map((key) => [key, z.string()]))),
  // Only a candidate run (run-qa --policy-module) has it: the published pair's marker is the reference's.
  candidate: z.optional(runCandidateSchema),
  created_at: z.string(),
  dataset: z.strictObject({
    filename: z.string(),
    repository: z.string(),
    revision: z.string(),
    sha256: z.string(),
  }),
  git: z.strictObject({
    dirty: z.nullable(z.boolean()),
    head: z.nullable(z.string()),
    tool: z.optional(z.string()),
  }),
  protocol_id: z.string(),
  qa: z.strictObject({
    api_key_env: z.string(),
    base_url_env: z.string(),
    capacity: z.number(),
    grader_version: z.string(),
    max_attempts: z.number(),
    max_tokens: z.number(),
    model: z.string(),
    stream: z.boolean(),
    temperature: z.number(),
    timeout_seconds: z.number(),
    workers: z.number(),
  }),
  schema_version: z.literal(MARKER_SCHEMA_VERSION),
});

/**
 * A marker as run-qa writes it: exactly its keys at every level (the reference's `git` block has no `tool`).
 * Only the schema version, the protocol id, the answer model and the five artifact hashes are compared.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { QaRunMarker, qaRunMarker } from "./run_marker.ts";
 * const marker = JSON.parse(qaRunMarker(await loadContracts(embeddedSources()), new Date(0), { dirty: null, head: null }));
 * strictEqual(QaRunMarker.parse(marker).schema_version, 2);
 * strictEqual(QaRunMarker.safeParse({ ...marker, extra: 1 }).success, false); // an extra key
 * strictEqual(QaRunMarker.safeParse({ ...marker, qa: { ...marker.qa, extra: 1 } }).success, false);
 * ```
 */
export const QaRunMarker: Schema<QaRunMarker> = qaRunMarkerSchema;

/** A parsed marker. */
export interface QaRunMarker {
  /** The five artifact hashes by {@linkcode ARTIFACT_KEYS} key. */
  artifacts: Record<string, string>;
  /** A candidate run's module and baseline (absent for the published pair). */
  candidate?: RunCandidate;
  /** When the run started. */
  created_at: string;
  /** The dataset's identity. */
  dataset: {
    /** The file's name. */
    filename: string;
    /** The dataset repository. */
    repository: string;
    /** The pinned revision. */
    revision: string;
    /** The dataset's SHA-256. */
    sha256: string;
  };
  /** The writer's source state. */
  git: {
    /** Whether the working tree had changes (`null`: unknown). */
    dirty: boolean | null;
    /** The commit (`null`: unknown). */
    head: string | null;
    /** The program that wrote it (ours only). */
    tool?: string;
  };
  /** The protocol the run belongs to. */
  protocol_id: string;
  /** The QA settings; only the model is compared. */
  qa: {
    api_key_env: string;
    base_url_env: string;
    capacity: number;
    grader_version: string;
    max_attempts: number;
    max_tokens: number;
    /** The answer model. */
    model: string;
    stream: boolean;
    temperature: number;
    timeout_seconds: number;
    workers: number;
  };
  /** Always {@linkcode MARKER_SCHEMA_VERSION}. */
  schema_version: typeof MARKER_SCHEMA_VERSION;
}

// The hand-written type must stay the schema's own: this line stops compiling when they drift apart.
const _sameMarker: SameType<QaRunMarker, z.infer<typeof qaRunMarkerSchema>> = true;

/**
 * The five artifact hashes of the protocol in use, by marker key.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { expectedArtifacts } from "./run_marker.ts";
 * const contracts = await loadContracts(embeddedSources());
 * strictEqual(expectedArtifacts(contracts).config_sha256, contracts.hashes.config);
 * strictEqual(expectedArtifacts(contracts).dataset_sha256, contracts.config.dataset.sha256);
 * ```
 */
export function expectedArtifacts(contracts: Contracts): Record<(typeof ARTIFACT_KEYS)[number], string> {
  // The dataset is verified against this pin before any task is built, so the pin is the dataset's hash.
  return artifactHashes(contracts, contracts.config.dataset.sha256);
}

/**
 * Compares a marker's `artifacts` with the protocol in use; returns the keys that differ (or are missing).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { differingArtifacts, expectedArtifacts } from "./run_marker.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const artifacts = expectedArtifacts(contracts);
 * deepStrictEqual(differingArtifacts({ artifacts }, contracts), []);
 * deepStrictEqual(differingArtifacts({ artifacts: { ...artifacts, dataset_sha256: "0" } }, contracts), ["dataset_sha256"]);
 * ```
 */
export function differingArtifacts(marker: unknown, contracts: Contracts): string[] {
  const artifacts = (marker as { artifacts?: Record<string, unknown> } | null)?.artifacts ?? {};
  const expected = expectedArtifacts(contracts);
  return ARTIFACT_KEYS.filter((key) => artifacts[key] !== expected[key]);
}

/** Exactly the four keys of a marker's `candidate` block, whatever else the value carries. */
function candidateRecord(candidate: RunCandidate): Record<string, PyJson> {
  const { baseline, policy, policy_module, policy_module_sha256 } = candidate;
  return { baseline, policy, policy_module, policy_module_sha256 };
}

/**
 * The marker text: pretty JSON with sorted keys and a trailing newline, as the reference writes it.
 *
 * @param contracts The protocol in use.
 * @param createdAt When the run started.
 * @param source The provenance of this program.
 * @param candidate A candidate run's module and baseline, recorded as part of the run's identity.
 * @returns The file's text.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { checkMarker, qaRunMarker } from "./run_marker.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const text = qaRunMarker(contracts, new Date(0), { dirty: null, head: null });
 * strictEqual(text.endsWith("}\n"), true);
 * strictEqual(checkMarker(text, "run/qa_run.json", contracts).qa.model, contracts.config.qa.model);
 * ```
 */
export function qaRunMarker(
  contracts: Contracts,
  createdAt: Date,
  source: SourceState,
  candidate?: RunCandidate,
): string {
  const { config } = contracts;
  const qa = config.qa;
  const marker: Record<string, PyJson> = {
    artifacts: expectedArtifacts(contracts),
    ...(candidate === undefined ? {} : { candidate: candidateRecord(candidate) }),
    created_at: createdAtStamp(createdAt),
    dataset: datasetIdentity(contracts),
    git: source as unknown as PyJson,
    protocol_id: config.protocol_id,
    qa: {
      api_key_env: qa.api_key_env,
      base_url_env: qa.base_url_env,
      capacity: config.pool.qa_capacity,
      grader_version: qa.grader_version,
      max_attempts: qa.max_attempts,
      max_tokens: qa.max_tokens,
      model: qa.model,
      stream: qa.stream,
      temperature: new PyFloat(qa.temperature),
      timeout_seconds: qa.timeout_seconds,
      workers: qa.workers,
    },
    schema_version: MARKER_SCHEMA_VERSION,
  };
  return dumps(marker, { indent: 2 }) + "\n";
}

/**
 * Checks a marker's text against the protocol in use — the one check `run-qa`, `grade-qa` and `verify` share:
 * it must parse as `json.load` parses it (a leading BOM refused), have exactly the keys run-qa writes, schema
 * version 2, the config's protocol id and `qa.model`, the same five artifact hashes, and the same candidate
 * (module SHA-256 and baseline) as the one in use, or none for the published pair.
 *
 * @param text The marker file's text.
 * @param path The marker's path, for messages.
 * @param contracts The protocol in use.
 * @param candidate The candidate in use (`undefined`: the published pair; `"as recorded"`: whatever the run
 * records, for the checks that need no module).
 * @param advice What the refusal of another protocol's run tells the user to do.
 * @returns The parsed marker.
 * @throws {ContractError} Naming the marker, the field, and expected vs actual, when any check fails.
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { ContractError } from "../../base/errors.ts";
 * import { checkMarker, qaRunMarker } from "./run_marker.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const text = qaRunMarker(contracts, new Date(0), { dirty: null, head: null });
 * checkMarker(text, "run/qa_run.json", contracts); // the same protocol: accepted
 * const other = text.replace(contracts.hashes.config, "0".repeat(64));
 * throws(() => checkMarker(other, "run/qa_run.json", contracts), ContractError);
 * ```
 */
export function checkMarker(
  text: string,
  path: string,
  contracts: Contracts,
  candidate?: ExpectedCandidate | "as recorded",
  advice: string = OTHER_PROTOCOL_ADVICE,
): QaRunMarker {
  const marker = parseJsonTextWith(QaRunMarker, text, path);
  const { config } = contracts;
  for (
    const [field, actual, expected] of [
      ["protocol_id", marker.protocol_id, config.protocol_id],
      ["qa.model", marker.qa.model, config.qa.model],
    ] as const
  ) {
    if (actual !== expected) {
      throw new ContractError(
        `this run was made under a different protocol: expected ${JSON.stringify(expected)}, got ${
          JSON.stringify(actual)
        }; ${advice}`,
        { path, field },
      );
    }
  }
  const differing = differingArtifacts(marker, contracts);
  if (differing.length > 0) {
    const expected = expectedArtifacts(contracts);
    const first = differing[0] as (typeof ARTIFACT_KEYS)[number];
    throw new ContractError(
      `this run was made under a different protocol: ${differing.join(", ")} differ (${first}: run has ${
        marker.artifacts[first]
      }, protocol in use has ${expected[first]}); ${advice}`,
      { path, field: "artifacts" },
    );
  }
  if (candidate !== "as recorded") checkCandidate(marker.candidate, candidate, path);
  return marker;
}

/**
 * Reads and checks a run directory's `qa_run.json` read-only (from the files a command holds, when given: the
 * bytes every other check of the marker sees); a missing marker is a {@linkcode ContractError}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { qaRunMarker, readMarker } from "./run_marker.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const directory = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${directory}/qa_run.json`, qaRunMarker(contracts, new Date(0), { dirty: null, head: null }));
 * strictEqual((await readMarker(directory, contracts)).protocol_id, contracts.config.protocol_id);
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function readMarker(
  directory: string | RunFiles,
  contracts: Contracts,
  candidate?: ExpectedCandidate | "as recorded",
): Promise<QaRunMarker> {
  const files = runFilesOf(directory);
  const path = files.path(MARKER_FILE);
  const text = await files.text(MARKER_FILE, "run marker");
  if (text === undefined) throw new ContractError("missing: not a run-qa output directory", { path });
  return checkMarker(text, path, contracts, candidate);
}
