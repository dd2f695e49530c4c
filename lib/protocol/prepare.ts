/**
 * Stages 1 and 2, `validate-contracts` and `validate`: load the contracts (embedded, or the files a command
 * names) and prepare the dataset (verify its pin, recompute the selection, build the bank and every case). Every
 * command that needs contracts or cases comes through {@linkcode readContracts} and {@linkcode prepareDataset}.
 *
 * @module
 */

import { type Contracts, type ContractSources, embeddedSources, loadContracts } from "./contracts.ts";
import { type Dataset, loadDataset } from "./dataset.ts";
import { CONTRACT_CAP, DATASET_CAP, type HashedBytes, InputError, readBytes } from "../base/mod.ts";
import { DatasetIntegrityError } from "./errors.ts";
import { demoDatasetSource, isDemoDataset } from "./_demo_dataset.ts";
import { prepareCases, type PreparedCase } from "./cases.ts";
import { type EligibleCount, eligibleCount } from "./eligible.ts";

/** Files that replace the embedded contracts (each absent one stays embedded). */
export interface ContractPaths {
  config?: string;
  officialManifest?: string;
  syntheticManifest?: string;
}

/**
 * Reads the contracts from `paths` (the embedded artifact for each one not given) and checks they agree.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { embeddedSources } from "./contracts.ts";
 * import { InputError } from "../base/errors.ts";
 * import { readContracts } from "./prepare.ts";
 * const path = `${await Deno.makeTempDir()}/config.yaml`;
 * await rejects(readContracts({ config: path }), InputError); // not found: bad input, exit 2
 * await Deno.writeFile(path, embeddedSources().config.bytes);
 * const contracts = await readContracts({ config: path }); // the manifests stay embedded
 * strictEqual(contracts.sources.config, path);
 * strictEqual(contracts.hashes.config, (await readContracts()).hashes.config);
 * ```
 */
export async function readContracts(paths: ContractPaths = {}): Promise<Contracts> {
  const embedded = embeddedSources();
  const load = async (path: string | undefined, fallback: ContractSources["config"], what: string) =>
    path === undefined ? fallback : { source: path, bytes: await readBytes(path, what, CONTRACT_CAP) };
  return await loadContracts({
    config: await load(paths.config, embedded.config, "config"),
    official: await load(paths.officialManifest, embedded.official, "official manifest"),
    synthetic: await load(paths.syntheticManifest, embedded.synthetic, "synthetic manifest"),
  });
}

/** What `validate-contracts` found: the contracts and how many cases each manifest names. */
export interface ContractsValidation {
  contracts: Contracts;
  official: number;
  synthetic: number;
}

/**
 * Stage 1: loads the contracts and counts their cases.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { contractsLine, validateContracts } from "./prepare.ts";
 * const validation = await validateContracts(); // the embedded contracts
 * deepStrictEqual([validation.official, validation.synthetic], [40, 5]);
 * deepStrictEqual(contractsLine(validation), "validated 40 official and 5 synthetic cases");
 * ```
 */
export async function validateContracts(paths: ContractPaths = {}): Promise<ContractsValidation> {
  const contracts = await readContracts(paths);
  return {
    contracts,
    official: Object.values(contracts.official.scenarios).reduce((sum, ids) => sum + ids.length, 0),
    synthetic: contracts.synthetic.cases.length,
  };
}

/** The line `validate-contracts` prints. */
export function contractsLine(validation: ContractsValidation): string {
  return `validated ${validation.official} official and ${validation.synthetic} synthetic cases`;
}

/** A verified dataset and the cases rebuilt from it. */
export interface PreparedProtocol {
  /** The contracts the cases were prepared from. */
  contracts: Contracts;
  /**
   * The dataset the cases were drawn from, by its SHA-256: its rows are let go once the cases are prepared (the
   * cases hold what they drew), so a large dataset's text is not held beside what a stage reads next.
   */
  dataset: Pick<Dataset, "sha256">;
  /** The prepared cases, official first, in protocol order. */
  cases: PreparedCase[];
  /** The official cases the manifest's selection rule finds eligible in the whole dataset. */
  eligible: EligibleCount;
}

/**
 * Stage 2: verifies the dataset bytes against the config's pin, recomputes the official selection and builds
 * the bank and all cases.
 *
 * @param contracts The loaded contracts.
 * @param datasetBytes The LongMemEval file's bytes (with their SHA-256 when already computed).
 * @param datasetPath The file's path, for messages.
 * @returns The contracts, the dataset and the prepared cases.
 * @throws {DatasetIntegrityError} When the bytes do not match the pin or the dataset is malformed.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, loadDemoContracts } from "./demo.ts";
 * import { prepareProtocol } from "./prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data, pinned: the real dataset is not in the package
 * const { cases } = await prepareProtocol(await loadDemoContracts(demo), demo.dataset, "demo.json");
 * strictEqual(cases.length, 45);
 * ```
 */
export async function prepareProtocol(
  contracts: Contracts,
  datasetBytes: Uint8Array | HashedBytes,
  datasetPath: string,
): Promise<PreparedProtocol> {
  let dataset: Dataset;
  try {
    dataset = await loadDataset(datasetBytes, datasetPath, contracts.config.dataset.sha256);
  } catch (error) {
    if (!(error instanceof DatasetIntegrityError) || !error.message.includes("SHA-256 mismatch")) throw error;
    throw new DatasetIntegrityError(
      `${error.message.slice(error.message.indexOf("SHA-256"))}: ${whereToGet(contracts)}`,
      {
        path: datasetPath,
        cause: error,
      },
    );
  }
  const cases = await prepareCases(dataset, contracts);
  const eligible = eligibleCount(dataset, contracts.official);
  return { contracts, dataset: { sha256: dataset.sha256 }, cases, eligible };
}

/** Where the CLI looks for the dataset when `--dataset` is not given. */
export const DATASET_ENV = "LONGMEMEVAL_ORACLE_PATH";

/**
 * Reads the dataset file at `path` and prepares it ({@linkcode prepareProtocol}); no path is bad usage (the
 * CLI never downloads the dataset).
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, loadDemoContracts } from "./demo.ts";
 * import { InputError } from "../base/errors.ts";
 * import { prepareDataset } from "./prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const contracts = await loadDemoContracts(demo);
 * await rejects(prepareDataset(contracts, undefined), InputError); // needs --dataset PATH
 * const path = await Deno.makeTempFile();
 * await Deno.writeFile(path, demo.dataset);
 * strictEqual((await prepareDataset(contracts, path)).cases.length, 45);
 * ```
 */
export async function prepareDataset(
  contracts: Contracts,
  path: string | undefined,
): Promise<PreparedProtocol> {
  if (path === undefined || path === "") {
    throw new InputError(`needs --dataset PATH (or ${DATASET_ENV}): ${whereToGet(contracts)}`);
  }
  // Plain bytes: loadDataset hashes them off the main thread while it parses, using nothing before the verdict.
  return await prepareProtocol(contracts, await readBytes(path, "dataset", DATASET_CAP), path);
}

/**
 * What a user needs to fetch the pinned dataset: the file, repository, revision, SHA-256 and public URL, and
 * that a mirror of the same path serves it too; the program itself never downloads it. The demo's generated
 * data has no URL: it says how to regenerate it.
 *
 * @example
 * ```ts
 * import { match } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "./contracts.ts";
 * import { whereToGet } from "./prepare.ts";
 * const text = whereToGet(await loadContracts(embeddedSources()));
 * match(text, /^the pinned longmemeval_oracle\.json of xiaowu0162\/longmemeval-cleaned at revision 98d7416c/);
 * match(text, /https:\/\/huggingface\.co\/datasets\/xiaowu0162\/longmemeval-cleaned\/resolve\/98d7416c\w+\/longmemeval_oracle\.json/);
 * ```
 */
export function whereToGet(contracts: Contracts): string {
  const { repository, revision, filename, sha256 } = contracts.config.dataset;
  if (isDemoDataset(contracts.config.dataset)) return demoDatasetSource(filename, sha256);
  const url = `https://huggingface.co/datasets/${repository}/resolve/${revision}/${filename}`;
  return `the pinned ${filename} of ${repository} at revision ${revision} (SHA-256 ${sha256}) is at ${url}` +
    " (a mirror serving the same /datasets/…/resolve/<revision>/… path works too); this program never downloads it";
}

/** The line `validate` prints. */
export function validatedLine(prepared: PreparedProtocol): string {
  return `validated dataset ${prepared.dataset.sha256} and prepared ${prepared.cases.length} cases`;
}
