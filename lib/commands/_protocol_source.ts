/**
 * Which protocol a command runs on: `--protocol DIR` (a protocol directory), else the one a run directory keeps
 * in `protocol/`, else the three file flags (each absent one embedded); and the dataset: `--dataset`, else the
 * protocol directory's own, else `$LONGMEMEVAL_ORACLE_PATH`. A protocol directory is held to the artifact hashes
 * the run recorded before anything else is read.
 *
 * @module
 */

import { CONTRACT_CAP, InputError, readBytes, readTextIfExists, sha256Hex } from "../base/mod.ts";
import { jsonObjectOf } from "../py/mod.ts";
import { type ContractPaths, KEPT_PROTOCOL_DIR, readProtocolDirectory } from "../protocol/mod.ts";
import type { FlagValues, Io } from "./_command.ts";
import { contractPaths, type DATASET_FLAG, datasetPath, type PROTOCOL_FLAGS } from "./_flags.ts";

/** The protocol files and dataset a command reads. */
export interface ProtocolSource {
  contracts: ContractPaths;
  dataset: string | undefined;
  /** The dataset the protocol directory keeps, if any. */
  keptDataset?: string;
}

type Flags = FlagValues<typeof PROTOCOL_FLAGS> & Partial<FlagValues<typeof DATASET_FLAG>>;

/** {@linkcode protocolSource} with no run directory, as `loadProtocol` takes its first two arguments. */
export async function protocolArgs(flags: Flags, io: Io): Promise<[ContractPaths, string | undefined]> {
  const { contracts, dataset } = await protocolSource(flags, io);
  return [contracts, dataset];
}

/**
 * The protocol and dataset of a command, given its flags and the run directory it reads (if any).
 *
 * @throws {InputError} When `--protocol` comes with a file flag, the directory's layout is wrong, or its files
 *   differ from the hashes the run recorded (one line naming the file and the record's field).
 */
export async function protocolSource(flags: Flags, io: Io, run?: string): Promise<ProtocolSource> {
  const files = contractPaths(flags);
  const named = Object.values(files).some((path) => path !== undefined);
  if (flags.protocol !== undefined && named) {
    throw new InputError(
      "--protocol DIR names the config and both manifests; give it or --config/--official-manifest/" +
        "--synthetic-manifest, not both",
    );
  }
  const kept = run === undefined ? undefined : `${run}/${KEPT_PROTOCOL_DIR}`;
  const directory = flags.protocol ??
    (!named && kept !== undefined && await isDirectory(kept) ? kept : undefined);
  if (directory === undefined) return { contracts: files, dataset: datasetPath(flags, io) };
  const found = await readProtocolDirectory(directory);
  if (run !== undefined) await checkRecordedArtifacts(run, found.contracts);
  return {
    contracts: found.contracts,
    dataset: flags.dataset ?? found.dataset ?? datasetPath(flags, io),
    keptDataset: found.dataset,
  };
}

/** Whether `path` is a directory; anything that cannot be inspected is not one (the command's own reading says why). */
async function isDirectory(path: string): Promise<boolean> {
  return await Deno.stat(path).then((info) => info.isDirectory, () => false);
}

const RECORDS = ["run.json", "qa_run.json", "sweep.json"] as const;
const FIELDS = [
  ["config", "config_sha256"],
  ["officialManifest", "official_manifest_sha256"],
  ["syntheticManifest", "synthetic_manifest_sha256"],
] as const;

/** Each protocol file's SHA-256 against the run's record (a record that cannot be read is left to the checks). */
async function checkRecordedArtifacts(run: string, contracts: Required<ContractPaths>): Promise<void> {
  for (const record of RECORDS) {
    const text = await readTextIfExists(`${run}/${record}`, record, CONTRACT_CAP).catch(() => undefined);
    if (text === undefined) continue;
    const artifacts = jsonObjectOf(text)?.artifacts as Record<string, unknown> | null | undefined;
    if (typeof artifacts !== "object" || artifacts === null) return;
    for (const [key, field] of FIELDS) {
      const recorded = artifacts[field];
      if (typeof recorded !== "string") continue;
      const actual = await sha256Hex(await readBytes(contracts[key], key, CONTRACT_CAP));
      if (actual !== recorded) {
        throw new InputError(
          `SHA-256 ${actual} differs from ${run}/${record} artifacts.${field} ${recorded}: not the protocol ` +
            "this run was made under",
          { path: contracts[key] },
        );
      }
    }
    return;
  }
}
