/**
 * A protocol directory, laid out as this repository's own protocol files are, so `--protocol DIR` names three
 * files at once and a run directory can keep the protocol it was made under:
 *
 * ```text
 * DIR/configs/<name>.yaml               the config (exactly one)
 * DIR/manifests/synthetic-<name>.json   the synthetic correction manifest
 * DIR/manifests/<name>.json             the official case manifest (the other one)
 * DIR/prompts/<name>.txt                optional; the prompt in use is the program's own, pinned by the config
 * DIR/dataset/<name>.json               optional; the dataset the config pins, used when no --dataset is given
 * ```
 *
 * @module
 */

import { InputError, listDirectory } from "../base/mod.ts";
import type { ContractPaths } from "./prepare.ts";

/** The folder a run directory keeps its protocol in. */
export const KEPT_PROTOCOL_DIR = "protocol";

/** The three contract files of a protocol directory, and its dataset when it keeps one. */
export interface ProtocolDirectory {
  contracts: Required<ContractPaths>;
  dataset?: string;
}

/**
 * Finds the files of the protocol directory `directory`.
 *
 * @throws {InputError} When the directory, a folder or a file the layout needs is missing or ambiguous.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { readProtocolDirectory } from "./protocol_dir.ts";
 * const found = await readProtocolDirectory("."); // this repository is one
 * strictEqual(found.contracts.syntheticManifest, "./manifests/synthetic-corrections-pr4789-v1.json");
 * strictEqual(found.dataset, undefined);
 * ```
 */
export async function readProtocolDirectory(directory: string): Promise<ProtocolDirectory> {
  if (await listDirectory(directory) === undefined) {
    throw new InputError("protocol directory not found", { path: directory });
  }
  const configs = await filesIn(directory, "configs", ".yaml");
  const manifests = await filesIn(directory, "manifests", ".json");
  const synthetic = manifests.filter((name) => name.startsWith("synthetic-"));
  const official = manifests.filter((name) => !name.startsWith("synthetic-"));
  one(configs, `${directory}/configs`, "one config *.yaml");
  one(synthetic, `${directory}/manifests`, "one synthetic manifest synthetic-*.json");
  one(official, `${directory}/manifests`, "one official manifest *.json (not synthetic-*)");
  const datasets = await filesIn(directory, "dataset", ".json", false);
  if (datasets.length > 1) one(datasets, `${directory}/dataset`, "at most one dataset *.json");
  return {
    contracts: {
      config: `${directory}/configs/${configs[0]}`,
      officialManifest: `${directory}/manifests/${official[0]}`,
      syntheticManifest: `${directory}/manifests/${synthetic[0]}`,
    },
    ...(datasets.length === 1 ? { dataset: `${directory}/dataset/${datasets[0]}` } : {}),
  };
}

async function filesIn(
  directory: string,
  folder: string,
  suffix: string,
  required = true,
): Promise<string[]> {
  const names = await listDirectory(`${directory}/${folder}`);
  if (names === undefined && required) {
    throw new InputError(`a protocol directory needs ${folder}/ (configs/, manifests/)`, { path: directory });
  }
  return (names ?? []).filter((name) => name.endsWith(suffix));
}

function one(names: string[], folder: string, expected: string): void {
  if (names.length !== 1) {
    throw new InputError(`expected ${expected}, found ${names.length}`, { path: folder });
  }
}
