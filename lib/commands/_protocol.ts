/**
 * The preamble every stage shares, in its one order: the contracts (embedded, or the files given), any check of
 * the stage's own that must come before the dataset is touched, the pinned dataset and its cases, the tasks.
 *
 * @module
 */

import {
  type ContractPaths,
  type Contracts,
  prepareDataset,
  type PreparedProtocol,
  readContracts,
} from "../protocol/mod.ts";
import { type AnswerTask, buildAnswerTasks, type QaCandidate } from "../qa/mod.ts";
import { candidateDecisions, type StageCandidate } from "./_candidate.ts";

/** The protocol a stage works on, with the dataset prepared and the answer tasks built. */
export interface StageProtocol {
  contracts: Contracts;
  prepared: PreparedProtocol;
  tasks: AnswerTask[];
}

/** What a stage asks of the preamble. */
export interface PreambleOptions {
  /** Runs after the contracts are read and before the dataset is (credentials, directory checks …). */
  beforeDataset?: (contracts: Contracts) => Promise<void> | void;
  /** A candidate to answer against its baseline in place of the published pair (asked after `beforeDataset`). */
  candidate?: () => StageCandidate | undefined;
}

/**
 * Reads the contracts, runs the stage's own early checks, then prepares the dataset (its pin checked before it is
 * parsed) and builds the answer tasks.
 *
 * @throws {InputError} When no dataset is given (the program never downloads it) or any input is bad.
 */
export async function loadProtocol(
  paths: ContractPaths,
  dataset: string | undefined,
  options: PreambleOptions = {},
): Promise<StageProtocol> {
  const contracts = await readContracts(paths);
  await options.beforeDataset?.(contracts);
  return await prepareStage(contracts, dataset, options.candidate?.());
}

/**
 * The second half of {@linkcode loadProtocol}: the dataset prepared against `contracts`, the tasks built (with a
 * candidate: its baseline's and its own).
 */
export async function prepareStage(
  contracts: Contracts,
  dataset: string | undefined,
  candidate?: StageCandidate,
): Promise<StageProtocol> {
  const prepared = await prepareDataset(contracts, dataset);
  const decided: QaCandidate | undefined = candidate &&
    await candidateDecisions(candidate.loaded, candidate.baseline, prepared);
  return { contracts, prepared, tasks: await buildAnswerTasks(contracts, prepared.cases, decided) };
}

/** {@linkcode loadProtocol} when a dataset is given, else the contracts alone. */
export async function loadProtocolIfDataset(
  paths: ContractPaths,
  dataset: string | undefined,
  options: PreambleOptions = {},
): Promise<{ contracts: Contracts; stage?: StageProtocol }> {
  if (dataset === undefined) {
    const contracts = await readContracts(paths);
    await options.beforeDataset?.(contracts);
    return { contracts };
  }
  const stage = await loadProtocol(paths, dataset, options);
  return { contracts: stage.contracts, stage };
}
