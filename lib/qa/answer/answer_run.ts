/**
 * `run-qa`'s work in three concepts: who answers a run (`answererFor`), what a dry run would do (`dryRunPlan`),
 * and answering a run's K runs (`answerRun`). The command keeps its flags, the permissions, the order of work and
 * its printing; these hold the provider, the stand-in, the key's redaction, the cost and the reuse.
 *
 * @module
 */

import { InputError, type PublishOptions } from "../../base/mod.ts";
import { type Contracts, type SourceState, STAND_IN_MODEL } from "../../protocol/mod.ts";
import type { RunCandidate } from "../run/candidate.ts";
import { epochDirectory } from "../run/epochs.ts";
import { type AnswerTask, requestSettings } from "../run/tasks.ts";
import { endpointIdentity, STAND_IN_ENDPOINT } from "./answer_reuse.ts";
import type { RunEvent, RunQaSummary } from "./answer_types.ts";
import { type CostBudget, costLines } from "./cost.ts";
import { resolveCredentials } from "./credentials.ts";
import { answerEpochs, epochDryRunLines, spentByRuns } from "./epoch_runs.ts";
import { openAiProvider } from "./provider.ts";
import { secretOf } from "./redact.ts";
import { planRows } from "./resume.ts";
import { dryRunReused, readReuseSourcesByRun, type ReuseRequest } from "./reuse_sources.ts";
import { startStandIn } from "./stand_in.ts";

/** The bearer token sent to the stand-in, which checks none (long enough to be redacted like any key). */
const STAND_IN_KEY = "stand-in-answerer-needs-no-key";

/** Who answers a run: the built-in stand-in (served on 127.0.0.1 while the run lasts), or an endpoint. */
export type Answerer = { kind: "stand-in" } | { kind: "endpoint"; apiKey: string; baseUrl: string };

/** What a run is about to do, told once before the first call. */
export interface RunStart {
  /** The text to redact (`""` when the key is too short to be a secret). */
  secret: string;
  /** The endpoint's host. */
  host: string;
  model: string;
  workers: number;
  attempts: number;
}

/** A run's K runs and where they go. */
export interface AnswerStage {
  contracts: Contracts;
  tasks: AnswerTask[];
  epochs: number;
  directory: string;
}

/**
 * Who answers: the stand-in when asked for (no key or base URL read); none for a dry run (the key is never
 * read); else the endpoint the config's two environment variables name, refused in one line naming every unset
 * or unusable variable (never its value).
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/mod.ts";
 * import { answererFor } from "./answer_run.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const env = () => undefined; // nothing set: neither the stand-in nor a dry run reads it
 * deepStrictEqual(answererFor(contracts, { standIn: true, dryRun: false, env }), { kind: "stand-in" });
 * strictEqual(answererFor(contracts, { standIn: false, dryRun: true, env }), undefined);
 * ```
 */
export function answererFor(
  contracts: Contracts,
  request: { standIn: boolean; dryRun: boolean; env: (name: string) => string | undefined },
): Answerer | undefined {
  if (request.standIn) return { kind: "stand-in" };
  if (request.dryRun) return undefined;
  return { kind: "endpoint", ...resolveCredentials(contracts.config, request.env) };
}

/** What a dry run asks: the directory it would resume (if any), the prices and budget, the reuse. */
export interface DryRunOptions {
  directory: string | undefined;
  prices?: CostBudget["prices"];
  maxCostUsd?: number;
  /** The sources and, read only when some are named, the base URL whose answers they may give. */
  reuse?: ReuseRequest & { baseUrl: () => string };
}

/**
 * A dry run: each run's task lines (row ids, fingerprints, sizes), then the cost estimate of the calls still
 * needed (what the directory's rows and the reused answers leave), counting what its ledgers already spent.
 * Calls nothing, writes nothing.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/mod.ts";
 * import { buildAnswerTasks } from "../run/tasks.ts";
 * import { dryRunPlan } from "./answer_run.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const tasks = await buildAnswerTasks(contracts, cases); // no directory: every task still to call
 * const { lines } = await dryRunPlan({ contracts, tasks, epochs: 1 }, { directory: undefined });
 * strictEqual(lines.length, 91);
 * strictEqual(lines.at(-1)!.startsWith("dry run: 90 tasks, "), true);
 * ```
 */
export async function dryRunPlan(
  stage: Omit<AnswerStage, "directory">,
  options: DryRunOptions,
): Promise<{ lines: string[]; estimate: string[] }> {
  const { contracts, tasks, epochs } = stage;
  const { directory, reuse } = options;
  const runs = Array.from({ length: epochs }, (_, index) => index + 1);
  const plans = await Promise.all(
    runs.map((run) => directory === undefined ? undefined : planRows(epochDirectory(directory, run), tasks)),
  );
  const taken = reuse === undefined || reuse.directories.length === 0
    ? plans.map(() => new Set<string>())
    : await dryRunReused(reuse, { contracts, endpoint: endpointIdentity(reuse.baseUrl()), tasks }, plans);
  const toCall = plans.flatMap((runPlans, index) =>
    (runPlans ?? tasks.map((task) => ({ task, state: "missing" as const })))
      .filter((plan) => plan.state !== "reuse" && !taken[index].has(plan.task.rowId)).map((plan) => plan.task)
  );
  const maxTokens = contracts.config.qa.max_tokens;
  const spent = directory === undefined || options.prices === undefined
    ? 0
    : await spentByRuns(directory, epochs, { maxTokens, prices: options.prices });
  const estimate = costLines(toCall, maxTokens, options.prices, options.maxCostUsd, spent);
  const reused = taken.reduce((sum, rows) => sum + rows.size, 0);
  if (reused > 0) estimate.unshift(`would reuse ${reused} answer(s) from earlier runs`);
  return { lines: epochDryRunLines(tasks, plans), estimate };
}

/** How a run is answered, apart from who answers it. */
export interface AnswerRunOptions {
  /** Recorded in the marker in place of the reference's git state. */
  source: SourceState;
  signal?: AbortSignal;
  /** Called once, just before the first call: from then on nothing printed may carry `secret`. */
  onStart?: (start: RunStart) => void;
  onEvent?: (event: RunEvent) => void;
  publish?: PublishOptions;
  limit?: number;
  candidate?: RunCandidate;
  prices?: CostBudget["prices"];
  /** Stop before a call's worst case would pass this many USD (needs `prices`). */
  maxCostUsd?: number;
  reuse?: ReuseRequest;
  /** A record published with each run's files (its `run_kind.json`). */
  record?: { name: string; text: string };
}

/**
 * Answers the K runs: refuses a directory whose rows come from the other answerer, starts the stand-in when it
 * answers (closed when the run ends), reads and proves every reuse source of every run before anything is
 * written or called, then calls (resuming stored rows) within the limit and the cost budget.
 */
export async function answerRun(
  stage: AnswerStage,
  answerer: Answerer,
  options: AnswerRunOptions,
): Promise<RunQaSummary> {
  const standInAnswers = answerer.kind === "stand-in";
  for (let run = 1; run <= stage.epochs; run++) {
    await refuseMixedAnswerers(epochDirectory(stage.directory, run), stage.tasks, standInAnswers);
  }
  const standIn = standInAnswers ? startStandIn() : undefined;
  try {
    const apiKey = answerer.kind === "endpoint" ? answerer.apiKey : STAND_IN_KEY;
    const baseUrlFor = (run: number) => standIn?.runUrl(run) ?? (answerer as { baseUrl: string }).baseUrl;
    return await answerAll(stage, { apiKey, baseUrlFor, standIn: standInAnswers }, options);
  } finally {
    await standIn?.close();
  }
}

/** A run's rows come all from the stand-in or none: its answers must never pass for, or mix with, a model's. */
async function refuseMixedAnswerers(directory: string, tasks: AnswerTask[], standIn: boolean): Promise<void> {
  const models = (await planRows(directory, tasks)).flatMap((plan) =>
    plan.state === "reuse" && plan.row !== undefined ? [plan.row.response_model] : []
  );
  const foreign = models.filter((model) => (model === STAND_IN_MODEL) !== standIn);
  if (foreign.length === 0) return;
  const from = standIn ? `${foreign[0]}, not the stand-in` : `the stand-in ${STAND_IN_MODEL}`;
  throw new InputError(
    `holds ${foreign.length} answer(s) from ${from}: a run's answers come from one answerer; use a fresh ` +
      "output directory",
    { path: directory },
  );
}

/** The calls of a run (the stand-in, when it answers, already listening at `baseUrlFor`). */
async function answerAll(
  stage: AnswerStage,
  credentials: { apiKey: string; baseUrlFor: (run: number) => string; standIn: boolean },
  options: AnswerRunOptions,
): Promise<RunQaSummary> {
  const { contracts, tasks } = stage;
  const qa = contracts.config.qa;
  const baseUrl = credentials.baseUrlFor(1);
  const endpoint = credentials.standIn ? STAND_IN_ENDPOINT : endpointIdentity(baseUrl);
  const reuses = options.reuse === undefined
    ? Array.from({ length: stage.epochs }, () => [])
    : await readReuseSourcesByRun(options.reuse, { contracts, endpoint, tasks }, stage.epochs);
  const budget: CostBudget | undefined = options.maxCostUsd === undefined
    ? undefined
    : { maxCostUsd: options.maxCostUsd, prices: options.prices!, maxTokens: qa.max_tokens };
  const providerFor = (run: number) =>
    openAiProvider({
      baseUrl: credentials.baseUrlFor(run),
      apiKey: credentials.apiKey,
      settings: requestSettings(contracts),
      timeoutSeconds: qa.timeout_seconds,
    });
  options.onStart?.({
    secret: secretOf(credentials.apiKey),
    host: new URL(baseUrl).host,
    model: credentials.standIn ? `the stand-in answerer ${STAND_IN_MODEL} (not a language model)` : qa.model,
    workers: qa.workers,
    attempts: qa.max_attempts,
  });
  const { source, signal, onEvent, publish, limit, candidate, record } = options;
  return await answerEpochs(contracts, tasks, stage.directory, stage.epochs, {
    providerFor,
    retry: { maxAttempts: qa.max_attempts },
    workers: qa.workers,
    ...{ source, signal, onEvent, publish, limit, candidate, budget, record },
    secret: secretOf(credentials.apiKey),
    reuseFor: (run: number) => Promise.resolve({ endpoint, sources: reuses[run - 1] }),
  });
}
