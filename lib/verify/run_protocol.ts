/**
 * Whether a run directory was made under the protocol in use, told before any check is listed: a run of
 * another protocol is refused in one line naming the differing field and the flags that name its protocol.
 *
 * @module
 */

import { ContractError, decodeUtf8, type RunFiles, runFilesOf } from "../base/mod.ts";
import type { Contracts } from "../protocol/mod.ts";
import { jsonObjectOf } from "../py/mod.ts";
import { ARTIFACT_KEYS, expectedArtifacts, MARKER_FILE, OTHER_PROTOCOL_ADVICE } from "../qa/mod.ts";

type Field = [name: string, actual: unknown, expected: unknown];

/** The identity fields of a `qa_run.json`, as run-qa records them. */
function markerFields(record: Record<string, unknown>, contracts: Contracts): Field[] {
  const artifacts = (record.artifacts ?? {}) as Record<string, unknown>;
  const expected = expectedArtifacts(contracts);
  return [
    ["protocol_id", record.protocol_id, contracts.config.protocol_id],
    ["qa.model", ((record.qa ?? {}) as Record<string, unknown>).model, contracts.config.qa.model],
    ...ARTIFACT_KEYS.map((key): Field => [`artifacts.${key}`, artifacts[key], expected[key]]),
  ];
}

/** The identity fields of a policy run's `run.json`. */
function runRecordFields(record: Record<string, unknown>, contracts: Contracts): Field[] {
  const artifacts = (record.artifacts ?? {}) as Record<string, unknown>;
  const { hashes } = contracts;
  return [
    ["protocol_id", record.protocol_id, contracts.config.protocol_id],
    ["artifacts.config_sha256", artifacts.config_sha256, hashes.config],
    ["artifacts.official_manifest_sha256", artifacts.official_manifest_sha256, hashes.official],
    ["artifacts.synthetic_manifest_sha256", artifacts.synthetic_manifest_sha256, hashes.synthetic],
    ["artifacts.answer_prompt_sha256", artifacts.answer_prompt_sha256, hashes.prompt],
    [
      "dataset.sha256",
      ((record.dataset ?? {}) as Record<string, unknown>).sha256,
      contracts.config.dataset.sha256,
    ],
  ];
}

/** A JSON object of the run's files, or `undefined` when absent or not one (the checks then say why). */
async function jsonObject(
  files: RunFiles,
  name: string,
  what: string,
): Promise<Record<string, unknown> | undefined> {
  const bytes = await files.bytes(name, what);
  if (bytes === undefined) return undefined;
  return jsonObjectOf(decodeUtf8(bytes, files.path(name)));
}

/**
 * Refuses, in one line, a run whose `qa_run.json` (a QA run) or `run.json` (a policy run) names another
 * protocol than `contracts`: the first differing field with both values, the others named, and the flags to
 * pass. A record that is absent or unreadable is left to the checks.
 *
 * @example
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { refuseOtherProtocol } from "./run_protocol.ts";
 * const contracts = await loadContracts(embeddedSources()), dir = await Deno.makeTempDir();
 * await refuseOtherProtocol(dir, contracts); // nothing recorded: left to the checks
 * await Deno.writeTextFile(`${dir}/run.json`, JSON.stringify({ protocol_id: "other" }));
 * await rejects(refuseOtherProtocol(dir, contracts), /run\.json: made under another protocol: protocol_id/);
 * ```
 */
export async function refuseOtherProtocol(directory: string | RunFiles, contracts: Contracts): Promise<void> {
  // The records as the checks will read them: the same held bytes.
  const files = runFilesOf(directory);
  const markerPath = files.path(MARKER_FILE);
  const marker = await jsonObject(files, MARKER_FILE, "run marker");
  const recordPath = files.path("run.json");
  const record = marker === undefined ? await jsonObject(files, "run.json", "run record") : undefined;
  const fields = marker !== undefined
    ? markerFields(marker, contracts)
    : record !== undefined
    ? runRecordFields(record, contracts)
    : [];
  // A missing field is a malformed record, not another protocol: the checks name it.
  const differing = fields.filter(([, actual, expected]) => actual !== undefined && actual !== expected);
  if (differing.length === 0) return;
  const [[name, actual, expected], ...others] = differing;
  const also = others.length === 0 ? "" : ` (also ${others.map(([other]) => other).join(", ")})`;
  throw new ContractError(
    `made under another protocol: ${name}: the run has ${JSON.stringify(actual)}, the protocol in use ` +
      `${JSON.stringify(expected)}${also}; ${OTHER_PROTOCOL_ADVICE}`,
    { path: marker !== undefined ? markerPath : recordPath },
  );
}
