/**
 * The QA run marker `qa_run.json`: binds an output directory to the protocol's full identity — the SHA-256 of
 * the config, both manifests, the answer prompt and the dataset — plus the QA settings. `run-qa` writes it once
 * and refuses to resume under any other identity; `grade-qa` and `verify` check it read-only. Never holds a key.
 *
 * @module
 */

import { artifactHashes, datasetIdentity } from "../protocol/identity.ts";
import * as z from "../base/zod.ts";
import type { Contracts } from "../protocol/contracts.ts";
import { ContractError } from "../base/errors.ts";
import { readTextIfExists } from "../base/fs.ts";
import { dumps, PyFloat, type PyJson } from "../py/json.ts";
import { parseWith, type SameType, type Schema } from "../base/schema.ts";
import type { SourceState } from "../protocol/identity.ts";
import { createdAtStamp } from "../py/time.ts";
import { markerPath } from "./run_dir.ts";

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

/** The artifact keys, in the order a refusal names them. */
export const ARTIFACT_KEYS = [
  "config_sha256",
  "official_manifest_sha256",
  "synthetic_manifest_sha256",
  "answer_prompt_sha256",
  "dataset_sha256",
] as const;

const qaRunMarkerSchema = z.object({
  schema_version: z.literal(MARKER_SCHEMA_VERSION),
  protocol_id: z.string(),
  qa: z.object({ model: z.string() }),
  artifacts: z.strictObject(Object.fromEntries(ARTIFACT_KEYS.map((key) => [key, z.string()]))),
});

/**
 * What we read from a marker: the schema version, the protocol id, the answer model and exactly the five
 * artifact hashes (other top-level keys are the writer's).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ARTIFACT_KEYS, QaRunMarker } from "./run_marker.ts";
 * const artifacts = Object.fromEntries(ARTIFACT_KEYS.map((key) => [key, "0".repeat(64)]));
 * const marker = { schema_version: 2, protocol_id: "p", qa: { model: "m" }, artifacts, created_at: "x" };
 * strictEqual(QaRunMarker.parse(marker).protocol_id, "p");
 * strictEqual(QaRunMarker.safeParse({ ...marker, artifacts: { ...artifacts, extra: "f" } }).success, false);
 * ```
 */
export const QaRunMarker: Schema<QaRunMarker> = qaRunMarkerSchema;

/** A parsed marker: the fields compared, nothing else. */
export interface QaRunMarker {
  /** Always {@linkcode MARKER_SCHEMA_VERSION}. */
  schema_version: typeof MARKER_SCHEMA_VERSION;
  /** The protocol the run belongs to. */
  protocol_id: string;
  /** The QA settings; only the model is compared. */
  qa: {
    /** The answer model. */
    model: string;
  };
  /** The five artifact hashes by {@linkcode ARTIFACT_KEYS} key. */
  artifacts: Record<string, string>;
}

// The hand-written type must stay the schema's own: this line stops compiling when they drift apart.
const _sameMarker: SameType<QaRunMarker, z.infer<typeof qaRunMarkerSchema>> = true;

/**
 * The five artifact hashes of the protocol in use, by marker key.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
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
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
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

/**
 * The marker text: pretty JSON with sorted keys and a trailing newline, as the reference writes it.
 *
 * @param contracts The protocol in use.
 * @param createdAt When the run started.
 * @param source The provenance of this program.
 * @returns The file's text.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { checkMarker, qaRunMarker } from "./run_marker.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const text = qaRunMarker(contracts, new Date(0), { dirty: null, head: null });
 * strictEqual(text.endsWith("}\n"), true);
 * strictEqual(checkMarker(text, "run/qa_run.json", contracts).qa.model, contracts.config.qa.model);
 * ```
 */
export function qaRunMarker(contracts: Contracts, createdAt: Date, source: SourceState): string {
  const { config } = contracts;
  const qa = config.qa;
  const marker: Record<string, PyJson> = {
    artifacts: expectedArtifacts(contracts),
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
 * it must parse, have schema version 2, the config's protocol id and `qa.model`, exactly the five artifact keys,
 * and the same five hashes.
 *
 * @param text The marker file's text.
 * @param path The marker's path, for messages.
 * @param contracts The protocol in use.
 * @returns The parsed marker.
 * @throws {ContractError} Naming the marker, the field, and expected vs actual, when any check fails.
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { ContractError } from "../base/errors.ts";
 * import { checkMarker, qaRunMarker } from "./run_marker.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const text = qaRunMarker(contracts, new Date(0), { dirty: null, head: null });
 * checkMarker(text, "run/qa_run.json", contracts); // the same protocol: accepted
 * const other = text.replace(contracts.hashes.config, "0".repeat(64));
 * throws(() => checkMarker(other, "run/qa_run.json", contracts), ContractError);
 * ```
 */
export function checkMarker(text: string, path: string, contracts: Contracts): QaRunMarker {
  // The reference's json.load refuses a leading BOM rather than skipping it.
  if (text.startsWith("\ufeff")) throw new ContractError("not valid JSON: Unexpected UTF-8 BOM", { path });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ContractError("not valid JSON", { path, cause: error });
  }
  const marker = parseWith(QaRunMarker, data, path);
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
        }; use a fresh output directory`,
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
      }, protocol in use has ${expected[first]}); use a fresh output directory`,
      { path, field: "artifacts" },
    );
  }
  return marker;
}

/**
 * Reads and checks a run directory's `qa_run.json` read-only; a missing marker is a {@linkcode ContractError}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { qaRunMarker, readMarker } from "./run_marker.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const directory = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${directory}/qa_run.json`, qaRunMarker(contracts, new Date(0), { dirty: null, head: null }));
 * strictEqual((await readMarker(directory, contracts)).protocol_id, contracts.config.protocol_id);
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function readMarker(directory: string, contracts: Contracts): Promise<QaRunMarker> {
  const path = markerPath(directory);
  const text = await readTextIfExists(path, "run marker");
  if (text === undefined) throw new ContractError("missing: not a run-qa output directory", { path });
  return checkMarker(text, path, contracts);
}
