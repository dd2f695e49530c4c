/**
 * The preamble every stage shares, in its one order: the contracts (embedded, or the files given), any check of
 * the stage's own that must come before the dataset is touched, the pinned dataset and its cases. The answer
 * tasks are built after that, and only by a stage that answers, grades or re-derives answers
 * ({@linkcode loadTaskProtocol}, {@linkcode withTasks}): the others never build them.
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

/** The protocol a stage works on: the contracts and the dataset prepared against them. */
export interface StageProtocol {
  contracts: Contracts;
  prepared: PreparedProtocol;
}

/** The protocol of a stage that answers, grades or re-derives answers: also the answer tasks. */
export interface TaskStageProtocol extends StageProtocol {
  tasks: AnswerTask[];
}

/** What a stage asks of the preamble. */
export interface PreambleOptions {
  /** Runs after the contracts are read and before the dataset is (credentials, directory checks …). */
  beforeDataset?: (contracts: Contracts) => Promise<void> | void;
}

/** What a stage that builds the tasks asks of the preamble. */
export interface TaskPreambleOptions extends PreambleOptions {
  /** A candidate to answer against its baseline in place of the published pair (asked after `beforeDataset`). */
  candidate?: () => StageCandidate | undefined;
}

/**
 * Reads the contracts, runs the stage's own early checks, then prepares the dataset (its pin checked before it is
 * parsed). Builds no tasks.
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
  return await prepareStage(contracts, dataset);
}

/** {@linkcode loadProtocol}, then the answer tasks (with a candidate: its baseline's and its own). */
export async function loadTaskProtocol(
  paths: ContractPaths,
  dataset: string | undefined,
  options: TaskPreambleOptions = {},
): Promise<TaskStageProtocol> {
  const stage = await loadProtocol(paths, dataset, options);
  return await withTasks(stage, options.candidate?.());
}

/** The second half of {@linkcode loadProtocol}: the dataset prepared against `contracts`. */
export async function prepareStage(
  contracts: Contracts,
  dataset: string | undefined,
): Promise<StageProtocol> {
  return { contracts, prepared: await prepareDataset(contracts, dataset) };
}

/** The answer tasks of a prepared stage (with a candidate: its baseline's and its own), beside it. */
export async function withTasks(
  stage: StageProtocol,
  candidate?: StageCandidate,
): Promise<TaskStageProtocol> {
  const decided: QaCandidate | undefined = candidate &&
    await candidateDecisions(candidate.loaded, candidate.baseline, stage.prepared);
  return { ...stage, tasks: await buildAnswerTasks(stage.contracts, stage.prepared.cases, decided) };
}

/**
 * {@linkcode loadProtocol} when a dataset is given, else the contracts alone; with `tasks`, the answer tasks too
 * (a stage that reads a run learns first whether the run holds answers).
 */
export async function loadProtocolIfDataset(
  paths: ContractPaths,
  dataset: string | undefined,
  options: TaskPreambleOptions,
  tasks: boolean,
): Promise<{ contracts: Contracts; stage?: StageProtocol; tasks?: AnswerTask[] }> {
  if (dataset === undefined) {
    const contracts = await readContracts(paths);
    await options.beforeDataset?.(contracts);
    return { contracts };
  }
  if (!tasks) {
    const stage = await loadProtocol(paths, dataset, options);
    return { contracts: stage.contracts, stage };
  }
  const { tasks: built, ...stage } = await loadTaskProtocol(paths, dataset, options);
  return { contracts: stage.contracts, stage, tasks: built };
}
