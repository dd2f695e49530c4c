/**
 * `run-qa --epochs K`: every task answered K times with identical settings, run r into its own complete run
 * directory (the directory itself for run 1, `epoch-r/` after). The directory's lock is held across the K runs;
 * `--limit` and `--max-cost` count the K runs' calls together, in run order; a stop (Ctrl-C, a rejected key, an
 * unreachable endpoint) ends the K runs where it happened, and the same command resumes.
 *
 * @module
 */

import type { Contracts } from "../../protocol/mod.ts";
import { codePointLength } from "../../py/mod.ts";
import {
  acquireDirectoryLock,
  ensureDir,
  exists,
  InputError,
  refuseIfLocked,
  writeFileAtomic,
} from "../../base/mod.ts";
import { answerTasks, answerTasksLocked, emptySummary, LOCKED_ACTION, takeoverText } from "./answering.ts";
import type { RunQaOptions, RunQaSummary } from "./answer_types.ts";
import type { AnswerProvider } from "./provider.ts";
import { checkRunDirectory, dryRunLines, planRows, type RowPlan } from "./resume.ts";
import { epochDirectory, EPOCHS_FILE, epochsRecordJson, readEpochs, settleEpochs } from "../run/epochs.ts";
import type { RunCandidate } from "../run/candidate.ts";
import type { AnswerTask } from "../run/tasks.ts";
import type { CostBudget } from "./cost.ts";
import { readSpend, spentUsd } from "./spend.ts";

/** How K runs are answered: a run's options apart from its provider and reuse, which differ per run. */
export interface EpochRunOptions extends Omit<RunQaOptions, "provider" | "reuse"> {
  /** The provider run `run` (from 1) calls. */
  providerFor: (run: number) => AnswerProvider;
  /** The endpoint and the earlier runs' answers run `run` may take (the same run number of each source). */
  reuseFor?: (run: number) => Promise<RunQaOptions["reuse"]>;
}

/** The tasks of a run not yet answered (a run not started yet; its directory may not exist). */
async function pendingOf(directory: string, tasks: readonly AnswerTask[]): Promise<number> {
  if (!await exists(directory)) return tasks.length;
  return (await planRows(directory, tasks)).filter((plan) => plan.state !== "reuse").length;
}

/** Adds run `run`'s summary into `total`, its row ids named by the run's directory inside the first. */
function addRun(total: RunQaSummary, part: RunQaSummary, run: number): void {
  const prefix = run === 1 ? "" : `epoch-${run}/`;
  const named = <T extends { rowId: string }>(item: T): T => ({ ...item, rowId: prefix + item.rowId });
  total.reused += part.reused;
  total.called += part.called;
  total.failed.push(...part.failed.map(named));
  total.notAttempted += part.notAttempted;
  total.interrupted ||= part.interrupted;
  total.tokens += part.tokens;
  total.credentialsRejected ??= part.credentialsRejected === null ? null : named(part.credentialsRejected);
  for (const [model, count] of Object.entries(part.responseModels)) {
    total.responseModels[model] = (total.responseModels[model] ?? 0) + count;
  }
  total.leftForLater += part.leftForLater;
  if (part.leftByBudget !== undefined) total.leftByBudget = (total.leftByBudget ?? 0) + part.leftByBudget;
  if (part.spentBefore !== undefined) total.spentBefore = (total.spentBefore ?? 0) + part.spentBefore;
  if (part.copiedFromRuns !== undefined) {
    total.copiedFromRuns = (total.copiedFromRuns ?? 0) + part.copiedFromRuns;
  }
  if (part.unreachable !== undefined) total.unreachable ??= named(part.unreachable);
}

/**
 * Answers (or resumes) K runs of `tasks` into `directory`: K = 1 is {@linkcode answerTasks} exactly; for K > 1
 * the directory's lock is taken for all K runs, `epochs.json` records K, and each run r is answered into
 * `epochDirectory(directory, r)` (holding its own lock too), its events naming it (`epoch`: r of K). The summary
 * adds the K runs'.
 *
 * @throws {InputError} When the directory records another K.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { answerEpochs } from "./epoch_runs.ts";
 * import { buildAnswerTasks } from "../run/tasks.ts";
 * import { readEpochs } from "../run/epochs.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const tasks = await buildAnswerTasks(contracts, cases.slice(0, 1)); // one case, both policies
 * const providerFor = () => () => Promise.resolve({ prediction: "Seven weeks.", responseModel: "m", usage: {} });
 * const options = { providerFor, retry: { maxAttempts: 1 }, workers: 1, source: { dirty: null, head: null } };
 * const dir = await Deno.makeTempDir();
 * strictEqual((await answerEpochs(contracts, tasks, dir, 3, options)).called, 6);
 * strictEqual((await answerEpochs(contracts, tasks, dir, 3, options)).reused, 6); // resumed: nothing called
 * strictEqual(await readEpochs(dir), 3); // recorded in DIR/epochs.json
 * ```
 */
export async function answerEpochs(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  epochs: number,
  options: EpochRunOptions,
): Promise<RunQaSummary> {
  const { providerFor, reuseFor, ...shared } = options;
  const runOptions = async (run: number): Promise<RunQaOptions> => ({
    ...shared,
    ...(epochs === 1 ? {} : { onEvent: eventsOfRun(shared.onEvent, { run, of: epochs }) }),
    provider: providerFor(run),
    ...(reuseFor === undefined ? {} : { reuse: await reuseFor(run) }),
  });
  if (epochs === 1) return await answerTasks(contracts, tasks, directory, await runOptions(1));
  await checkRunDirectory(directory, contracts, options.candidate);
  await ensureDir(directory, options.publish);
  const lock = await acquireDirectoryLock(directory, "run-qa", LOCKED_ACTION, options.now);
  try {
    if (lock.tookOver !== null) {
      options.onEvent?.({ kind: "warning", message: `${lock.path}: ${takeoverText(lock.tookOver)}` });
    }
    const recorded = await readEpochs(directory);
    if (recorded === 1) {
      await writeFileAtomic(`${directory}/${EPOCHS_FILE}`, epochsRecordJson(epochs), options.publish);
    } else if (recorded !== epochs) {
      throw new InputError(`holds ${recorded} runs, not ${epochs}`, { path: `${directory}/${EPOCHS_FILE}` });
    }
    return await answerRuns(contracts, tasks, directory, epochs, runOptions, options);
  } finally {
    lock.release();
  }
}

/** `onEvent` with each event naming run `epoch.run` of `epoch.of` (what progress lines say with K > 1). */
function eventsOfRun(
  onEvent: RunQaOptions["onEvent"],
  epoch: { run: number; of: number },
): RunQaOptions["onEvent"] {
  return onEvent && ((event) => onEvent({ ...event, epoch }));
}

async function answerRuns(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  epochs: number,
  runOptions: (run: number) => Promise<RunQaOptions>,
  { limit, budget, signal }: Pick<RunQaOptions, "limit" | "budget" | "signal">,
): Promise<RunQaSummary> {
  const total = emptySummary();
  if (budget !== undefined) total.leftByBudget = 0;
  let limitLeft = limit;
  let stop: "stopped" | "limit" | "budget" | undefined;
  for (let run = 1; run <= epochs; run++) {
    const runDirectory = epochDirectory(directory, run);
    if (stop === undefined && signal?.aborted) [stop, total.interrupted] = ["stopped", true];
    if (stop !== undefined) {
      const pending = await pendingOf(runDirectory, tasks);
      if (stop === "stopped") total.notAttempted += pending;
      else if (stop === "limit") total.leftForLater += pending;
      else total.leftByBudget! += pending;
      continue;
    }
    const base = await runOptions(run);
    // The budget is the K runs': run r may spend what the other runs' ledgers leave.
    const spent = budget === undefined ? 0 : await spentByOtherRuns(directory, epochs, run, budget);
    const options: RunQaOptions = {
      ...base,
      limit: limitLeft,
      budget: budget === undefined
        ? undefined
        : { ...budget, maxCostUsd: Math.max(0, budget.maxCostUsd - spent) },
    };
    const part = run === 1
      ? await answerTasksLocked(contracts, tasks, runDirectory, options)
      : await answerTasks(contracts, tasks, runDirectory, options);
    addRun(total, part, run);
    if (limitLeft !== undefined) limitLeft -= tasks.length - part.reused - part.leftForLater;
    if (part.interrupted || part.credentialsRejected !== null || part.unreachable !== undefined) {
      stop = "stopped";
    } else if (part.leftForLater > 0 || limitLeft === 0) stop = "limit";
    else if ((part.leftByBudget ?? 0) > 0) stop = "budget";
  }
  return total;
}

/** The worst case the ledgers of the K runs but `run` record, in USD. */
function spentByOtherRuns(
  directory: string,
  epochs: number,
  run: number,
  budget: CostBudget,
): Promise<number> {
  return spentByRuns(directory, epochs, budget, run);
}

/**
 * What the K runs of `directory` have spent by their ledgers (`spend.jsonl`), in USD at each attempt's worst
 * case, run 1 first; run `except` left out.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { spentByRuns } from "./epoch_runs.ts";
 * const dir = await Deno.makeTempDir(); // no ledger yet: nothing spent
 * strictEqual(await spentByRuns(dir, 3, { maxTokens: 100, prices: { input: 1, output: 1 } }), 0);
 * ```
 */
export async function spentByRuns(
  directory: string,
  epochs: number,
  budget: Pick<CostBudget, "maxTokens" | "prices">,
  except?: number,
): Promise<number> {
  let spent = 0;
  for (let run = 1; run <= epochs; run++) {
    if (run === except) continue;
    spent += spentUsd(await readSpend(epochDirectory(directory, run)), budget.maxTokens, budget.prices);
  }
  return spent;
}

/**
 * The directory `run-qa` answers into, checked before the dataset is read: its marker (another protocol's or
 * candidate's run refused), the K it records against `--epochs` (`asked`), and, unless a dry run, no live lock.
 * Returns the K to answer.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { checkOutputDirectory } from "./epoch_runs.ts";
 * const { contracts } = await prepareDemoProtocol(await buildDemoProtocol());
 * const dir = await Deno.makeTempDir(); // a fresh directory takes any K
 * strictEqual(await checkOutputDirectory(dir, contracts, undefined, { asked: 3, dryRun: false }), 3);
 * strictEqual(await checkOutputDirectory(dir, contracts, undefined, { asked: undefined, dryRun: true }), 1);
 * ```
 */
export async function checkOutputDirectory(
  directory: string,
  contracts: Contracts,
  candidate: RunCandidate | undefined,
  options: { asked: number | undefined; dryRun: boolean },
): Promise<number> {
  await checkRunDirectory(directory, contracts, candidate);
  const epochs = await settleEpochs(directory, options.asked);
  if (!options.dryRun) await refuseIfLocked(directory, LOCKED_ACTION);
  return epochs;
}

/**
 * What `run-qa --dry-run --epochs K` prints: each run's task lines (run r > 1's row ids under `epoch-r/`), then
 * one total over the K runs. K = 1 is {@linkcode dryRunLines} exactly.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { epochDryRunLines } from "./epoch_runs.ts";
 * import { buildAnswerTasks } from "../run/tasks.ts";
 * import { readEpochs } from "../run/epochs.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const tasks = await buildAnswerTasks(contracts, cases);
 * const lines = epochDryRunLines(tasks, [undefined, undefined, undefined]);
 * strictEqual(lines.length, 3 * 90 + 1);
 * strictEqual(lines[90].startsWith(`epoch-2/${tasks[0].rowId}  `), true);
 * strictEqual(lines.at(-1)!.replace(/ \d+ characters/, ""), "dry run: 3 runs × 90 tasks, of messages, 270 call(s) needed; nothing called");
 * ```
 */
export function epochDryRunLines(
  tasks: readonly AnswerTask[],
  plans: readonly (readonly RowPlan[] | undefined)[],
): string[] {
  if (plans.length === 1) return dryRunLines(tasks, plans[0]);
  const lines: string[] = [];
  const size = tasks.reduce(
    (sum, task) =>
      sum + task.messages.reduce((inner, message) => inner + codePointLength(message.content), 0),
    0,
  );
  let calls = 0;
  for (const [index, runPlans] of plans.entries()) {
    calls += runPlans === undefined ? tasks.length : runPlans.filter((plan) => plan.state !== "reuse").length;
    const prefix = index === 0 ? "" : `epoch-${index + 1}/`;
    lines.push(...dryRunLines(tasks, runPlans).slice(0, -1).map((line) => prefix + line));
  }
  const characters = size * plans.length;
  lines.push(
    `dry run: ${plans.length} runs × ${tasks.length} tasks, ${characters} characters of messages, ${calls} ` +
      "call(s) needed; nothing called",
  );
  return lines;
}
