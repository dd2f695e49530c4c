/**
 * Stage 4, `run-qa` (the only networked stage): checks the settings, resolves the credentials before the dataset
 * is touched, refuses a locked or foreign directory, prepares the tasks and asks the answer model for each,
 * resuming what a previous run stored. Signals and printing stay with the caller (an `AbortSignal`, callbacks).
 *
 * @module
 */

import {
  BudgetExceededError,
  CommandFailedError,
  exitAtOnce,
  InputError,
  type PublishOptions,
  refuseIfLocked,
  StoppedError,
  visible,
} from "../base/mod.ts";
import {
  type ContractPaths,
  type Contracts,
  type ProtocolConfig,
  type SourceState,
  STAND_IN_MODEL,
} from "../protocol/mod.ts";
import {
  type AnswerTask,
  answerTasks,
  checkQaSettings,
  checkRunDirectory,
  type CostBudget,
  costLines,
  dryRunLines,
  endpointIdentity,
  interruptHandler,
  LOCKED_ACTION,
  MIN_SECRET_LENGTH,
  openAiProvider,
  planRows,
  readSpend,
  redact,
  refuseSelfReuse,
  requestSettings,
  resolveCredentials,
  reusableTasks,
  type ReuseSource,
  type RunCandidate,
  type RunEvent,
  type RunQaSummary,
  secretOf,
  spentUsd,
  STAND_IN_ENDPOINT,
  startStandIn,
  TOKEN_RULE,
} from "../qa/mod.ts";

import { defineCommand, type Io, publishOptions, writeDocument } from "./_command.ts";
import { loadTaskProtocol } from "./_protocol.ts";
import {
  loadCandidate,
  type ModuleRequest,
  moduleRequest,
  POLICY_MODULE_FLAG,
  type StageCandidate,
} from "./_candidate.ts";
import { type EvictionPolicy, POLICIES } from "../policy/mod.ts";
import { DATASET_FLAG, PRICE_FLAGS, pricePair, PROTOCOL_FLAGS, requiredDirectory } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";
import { progressReporter, redactingIo } from "./_run_qa_progress.ts";
import { readReuseSources, REUSE_FLAG } from "./_reuse.ts";
import { SOURCE_STATE } from "./_version.ts";

/** The bearer token sent to the stand-in, which checks none (long enough to be redacted like any key). */
const STAND_IN_KEY = "stand-in-answerer-needs-no-key";

/** The stand-in listens on the loopback address; without leave to, say which task grants it. */
function requireLoopbackPermission(): void {
  if (Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state === "granted") return;
  throw new InputError(
    "the stand-in answerer listens on 127.0.0.1, which this invocation may not: run it with " +
      "`deno task demo` or `deno task run-qa … --stand-in` (they grant --allow-net=127.0.0.1)",
  );
}

/** What `run-qa` reads and where it reports. */
export interface RunQaRequest {
  contracts: ContractPaths;
  dataset: string | undefined;
  /** The run directory; optional only for a dry run (which then plans no reuse). */
  directory: string | undefined;
  /** Build the tasks and describe them; call nothing, write nothing, need no key. */
  dryRun: boolean;
  /** Where the key and the base URL are read from (the two variables the config names). */
  env: (name: string) => string | undefined;
  /** Recorded in the marker in place of the reference's git state. */
  source: SourceState;
  /** Aborting stops new calls and cancels those in flight. */
  signal?: AbortSignal;
  /**
   * Called once, with the API key, just before the first call: from then on nothing printed may carry its
   * text.
   */
  onStart?: (start: RunStart) => void;
  onEvent?: (event: RunEvent) => void;
  /** How the marker and rows are published: the signals held off, where warnings go, a test's seam if any. */
  publish?: PublishOptions;
  /** Call at most this many tasks; resuming answers the rest. */
  limit?: number;
  /** A candidate policy module answered against `baseline` in place of the published pair. */
  policyModule?: ModuleRequest;
  /** The candidate's baseline (default `confidence`); only with `policyModule`. */
  baseline?: EvictionPolicy;
  /** Answer with the built-in stand-in, served on 127.0.0.1 for this run; no key or base URL is read. */
  standIn?: boolean;
  /** Prices for the dry run's cost line and `maxCostUsd`. */
  prices?: CostBudget["prices"];
  /** Stop before a call's worst case would pass this many USD (needs `prices`). */
  maxCostUsd?: number;
  /** Earlier run directories whose answers identical requests take. */
  reuse?: readonly string[];
  /** Take answers from an ungraded `reuse` source too (unproved; recorded as such). */
  reuseUngraded?: boolean;
  /** Told each source that gives nothing, and why. */
  onNotice?: (line: string) => void;
}

/** How a `run-qa` ended: the dry run's lines, or the run's summary and the QA settings it ran under. */
export type RunQaOutcome =
  | { kind: "dry-run"; lines: string[]; estimate: string[] }
  | { kind: "ran"; summary: RunQaSummary; qa: ProtocolConfig["qa"]; maxCostUsd?: number };

const RUN_QA_HINT = "run it with `deno task run-qa …`";

/**
 * run-qa needs the network and the two variables the config names; `deno task cli` grants neither and would
 * make the variables read as unset, so say which task to use instead of "is not set".
 */
function requireRunQaPermissions(qa: { api_key_env: string; base_url_env: string }): void {
  const names = [qa.api_key_env, qa.base_url_env];
  const denied = names.filter((variable) =>
    Deno.permissions.querySync({ name: "env", variable }).state !== "granted"
  );
  if (denied.length === 0) return;
  if (Deno.permissions.querySync({ name: "net" }).state !== "granted") {
    throw new InputError(
      `run-qa calls the answer model: ${RUN_QA_HINT} (network access and the variables ${
        names.join(" and ")
      }); ` +
        "`deno task cli` runs the offline commands",
    );
  }
  throw new InputError(
    `run-qa may not read ${denied.join(" and ")}, which the config names: ` +
      `add ${denied.length === 1 ? "it" : "them"} to the run-qa task's --allow-env`,
  );
}

function requireNetPermission(baseUrl: string, qa: { api_key_env: string; base_url_env: string }): void {
  const host = new URL(baseUrl).host;
  if (Deno.permissions.querySync({ name: "net", host }).state === "granted") return;
  throw new InputError(
    `run-qa calls the answer model at ${host} (from ${qa.base_url_env}), but this invocation has no network ` +
      `permission for it: ${RUN_QA_HINT}`,
  );
}

/**
 * Stage 4: in this order — the contracts and their QA settings; the credentials and the permissions to use
 * them (before the dataset is touched); the directory's marker and lock; the dataset, cases and tasks; then
 * either the dry run's lines or the calls (resuming stored rows).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, writeDemoProtocol } from "../protocol/mod.ts";
 * import { runQa } from "./run_qa.ts";
 * const { contracts, dataset } = await writeDemoProtocol(await Deno.makeTempDir(), await buildDemoProtocol());
 * const source = { dirty: null, head: null }, env = () => undefined; // a dry run: no key, no call, nothing written
 * const outcome = await runQa({ contracts, dataset, directory: undefined, dryRun: true, env, source });
 * strictEqual(outcome.kind === "dry-run" && outcome.lines.at(-1)?.startsWith("dry run: 90 tasks, "), true);
 * ```
 */
export async function runQa(request: RunQaRequest): Promise<RunQaOutcome> {
  const { directory, dryRun } = request;
  if (request.standIn && dryRun) throw new InputError("--stand-in answers the tasks; --dry-run calls none");
  let credentials: ReturnType<typeof resolveCredentials> | undefined;
  let stageCandidate: StageCandidate | undefined;
  let candidate: RunCandidate | undefined;
  const { contracts, tasks } = await loadTaskProtocol(request.contracts, request.dataset, {
    beforeDataset: async (contracts) => {
      checkQaSettings(contracts);
      // Credentials first: a missing variable must fail before the dataset is touched.
      if (request.standIn) {
        requireLoopbackPermission();
        credentials = { apiKey: STAND_IN_KEY, baseUrl: "" }; // the stand-in's URL is known once it listens
      } else {
        if (!dryRun) requireRunQaPermissions(contracts.config.qa);
        credentials = dryRun ? undefined : resolveCredentials(contracts.config, request.env);
        if (credentials !== undefined) requireNetPermission(credentials.baseUrl, contracts.config.qa);
      }
      // The module is loaded (and hashed) after the credentials are read and before any call is made.
      if (request.policyModule !== undefined) {
        const loaded = await loadCandidate(request.policyModule);
        const baseline = request.baseline ?? POLICIES[0];
        stageCandidate = { loaded, baseline };
        candidate = { ...loaded.identity, baseline };
      }
      if (directory !== undefined) {
        await checkRunDirectory(directory, contracts, candidate);
        if (!dryRun) await refuseIfLocked(directory, LOCKED_ACTION);
      }
    },
    candidate: () => stageCandidate,
  });
  if (credentials === undefined) {
    const plans = directory === undefined ? undefined : await planRows(directory, tasks);
    const taken = await dryRunReuse(request, contracts, tasks, plans);
    const toCall = (plans ?? tasks.map((task) => ({ task, state: "missing" as const })))
      .filter((plan) => plan.state !== "reuse" && !taken.has(plan.task.rowId)).map((plan) => plan.task);
    const maxTokens = contracts.config.qa.max_tokens;
    const spent = directory === undefined || request.prices === undefined
      ? 0
      : spentUsd(await readSpend(directory), maxTokens, request.prices);
    const estimate = costLines(toCall, maxTokens, request.prices, request.maxCostUsd, spent);
    if (taken.size > 0) estimate.unshift(`would reuse ${taken.size} answer(s) from earlier runs`);
    return { kind: "dry-run", lines: dryRunLines(tasks, plans), estimate };
  }
  await refuseMixedAnswerers(request.directory!, tasks, request.standIn ?? false);
  const standIn = request.standIn ? startStandIn() : undefined;
  try {
    const baseUrl = standIn?.baseUrl ?? credentials.baseUrl;
    return await answerAll(request, { contracts, tasks }, { ...credentials, baseUrl }, candidate);
  } finally {
    await standIn?.close();
  }
}

/**
 * The rows a dry run with `--reuse` would take from earlier runs: the endpoint is the base URL variable's (the
 * key is not read), so a dry run prices only what would be called.
 */
async function dryRunReuse(
  request: RunQaRequest,
  contracts: Contracts,
  tasks: AnswerTask[],
  plans: Awaited<ReturnType<typeof planRows>> | undefined,
): Promise<Set<string>> {
  if ((request.reuse ?? []).length === 0) return new Set();
  const variable = contracts.config.qa.base_url_env;
  const baseUrl = Deno.permissions.querySync({ name: "env", variable }).state === "granted"
    ? request.env(variable)
    : undefined;
  if (baseUrl === undefined || !URL.canParse(baseUrl)) {
    throw new InputError(
      `--reuse matches answers by endpoint: set ${variable} to its base URL for the dry run too (the key is ` +
        "not read)",
    );
  }
  const sources = await readReuseSources(request.reuse!, contracts, endpointIdentity(baseUrl), tasks, {
    warn: request.onNotice ?? (() => {}),
    ungraded: request.reuseUngraded ?? false,
  });
  const all = plans ?? tasks.map((task) => ({ task, path: "", state: "missing" as const }));
  return reusableTasks(all, sources);
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

/** The calls of a run (the stand-in, when asked for, already listening at `credentials.baseUrl`). */
async function answerAll(
  request: RunQaRequest,
  stage: { contracts: Contracts; tasks: AnswerTask[] },
  credentials: { apiKey: string; baseUrl: string },
  candidate: RunCandidate | undefined,
): Promise<RunQaOutcome> {
  const { contracts, tasks } = stage;
  const qa = contracts.config.qa;
  const endpoint = request.standIn ? STAND_IN_ENDPOINT : endpointIdentity(credentials.baseUrl);
  const sources: ReuseSource[] = await readReuseSources(request.reuse ?? [], contracts, endpoint, tasks, {
    warn: request.onNotice ?? (() => {}),
    ungraded: request.reuseUngraded ?? false,
  });
  const budget: CostBudget | undefined = request.maxCostUsd === undefined
    ? undefined
    : { maxCostUsd: request.maxCostUsd, prices: request.prices!, maxTokens: qa.max_tokens };
  const provider = openAiProvider({
    baseUrl: credentials.baseUrl,
    apiKey: credentials.apiKey,
    settings: requestSettings(contracts),
    timeoutSeconds: qa.timeout_seconds,
  });
  request.onStart?.({
    secret: secretOf(credentials.apiKey),
    host: new URL(credentials.baseUrl).host,
    model: request.standIn ? `the stand-in answerer ${STAND_IN_MODEL} (not a language model)` : qa.model,
    workers: qa.workers,
    attempts: qa.max_attempts,
  });
  const summary = await answerTasks(contracts, tasks, request.directory!, {
    provider,
    retry: { maxAttempts: qa.max_attempts },
    workers: qa.workers,
    source: request.source,
    signal: request.signal,
    onEvent: request.onEvent,
    secret: secretOf(credentials.apiKey),
    publish: request.publish,
    limit: request.limit,
    candidate,
    budget,
    reuse: { endpoint, sources },
  });
  return { kind: "ran", summary, qa, maxCostUsd: request.maxCostUsd };
}

/** What run-qa is about to do, told once before the first call. */
export interface RunStart {
  /** The text to redact (`""` when the key is too short to be a secret). */
  secret: string;
  /** The endpoint's host. */
  host: string;
  model: string;
  workers: number;
  attempts: number;
}

/** The `run-qa` command. */
export const command = defineCommand({
  name: "run-qa",
  summary: "ask the answer model for every task (the only networked command); resumable",
  description:
    `Builds the tasks (every case × both policies at the QA capacity) and asks the OpenAI-compatible endpoint,
with identical settings for both policies, from the config: model, temperature, max_tokens, timeout, attempts,
workers. The API key and base URL are read only from the two environment variables the config names (for the
embedded protocol DEERMEM_EVAL_ANSWER_API_KEY and DEERMEM_EVAL_ANSWER_BASE_URL), before the dataset is read.
Writes into DIR:
  qa_run.json               the run's identity: the five artifact SHA-256 values and the QA settings (no key)
  responses/<row_id>.json   one row per answered task, written the moment the answer arrives
  reuse.json                the endpoint's base URL and each reused row's source (no reference tool reads it)
With --policy-module, the module's policy (the candidate) is answered in place of hybrid-v1 against
--baseline (default confidence), with identical settings; its rows carry policy = its name, policy_module and
policy_module_sha256, and qa_run.json records the module's SHA-256 and the baseline: resuming with another
module or baseline is refused. The module is loaded before any call and never given the key.
Running the same command again resumes: a stored row is reused only when it equals its recomputed task (ids,
source, scenario, policy, capacity, kept facts, request fingerprint); any other row is moved to
responses/superseded/ and called again. A DIR made under a different protocol is refused. While it runs, DIR
holds run-qa.lock (pid, start time): another run-qa or a grade-qa there refuses. A 401 or 403 stops the run;
a response body over 4 MiB fails its row; the key's text is never stored or printed ([redacted]). Ctrl-C stops
cleanly (a second one, a second later, quits at once); rows already written stay valid. Exit 1 if any call
failed.
With --stand-in, no endpoint, key or base URL is used (the two variables are not read): the program serves its
own deterministic stand-in answerer on 127.0.0.1 (a free port, stopped when run-qa ends) and calls it through
the same path. The stand-in is not a language model: it answers with the stored fact sharing the most words
with the question, or INSUFFICIENT, so retention decides correctness; its rows record response_model
${STAND_IN_MODEL}. It needs network leave for 127.0.0.1 only. For trying a protocol or a module without a key.
Cost: --dry-run estimates the prompt tokens of the calls still needed by ${TOKEN_RULE}
(no tokenizer for the model is bundled), and with --price-input/--price-output the cost. --max-cost USD calls
only the tasks, in row order, whose summed worst case (that estimate, every completion at max_tokens) fits,
then stops with exit 3; the rows written stay valid and the same command with a larger budget resumes.
--max-cost is the run's total: every attempt (retries included) is recorded in DIR/spend.jsonl, by its
estimated prompt tokens, before it is sent, and counts at its worst case on every rerun. Usage a server reports
below 0 or at 10^12 and above fails its row (bad server output), never priced.
Reuse: with --reuse DIR[,DIR…], a task whose request fingerprint (prompt, model, settings) and endpoint (its
full base URL; the stand-in has one identity, whatever its port) equal a row an earlier run recorded takes that
row's answer, usage, attempts and time, under its own identity; only the rest are called. A source must be
graded, pass verify, and hold each answer exactly as its grades recorded; an ungraded one is refused unless
--reuse-ungraded is given, and verify and report then say its rows are unproved. A source another run-qa is
writing (its lock held) is refused. Sources are read one at a time. Every run records its endpoint and each
reused row's source in reuse.json (qa_run.json and the rows keep the reference's keys). A source under another
protocol or endpoint gives nothing (said on stderr). With --dry-run, the base URL variable (not the key) is read
and only the calls still needed are priced.`,
  network: true,
  flags: {
    ...DATASET_FLAG,
    "output-dir": {
      type: "string",
      value: "DIR",
      help: "the run directory (new or to resume); optional with --dry-run",
      required: true,
    },
    limit: {
      type: "integer",
      of: "tasks",
      min: 1,
      max: 999_999,
      value: "N",
      help: "answer only the first N tasks still to call (a trial run); the same command resumes the rest",
    },
    ...POLICY_MODULE_FLAG,
    baseline: {
      type: "choice",
      choices: POLICIES,
      value: "POLICY",
      help:
        "with --policy-module: the built-in policy it is compared with, confidence (default) or hybrid-v1",
    },
    "stand-in": {
      type: "boolean",
      help: `answer with the built-in stand-in (${STAND_IN_MODEL}, on 127.0.0.1), not an endpoint: no key`,
    },
    ...REUSE_FLAG,
    ...PRICE_FLAGS,
    "max-cost": {
      type: "number",
      of: "USD",
      min: 0,
      value: "USD",
      help: "stop before a call would take the summed worst case (prompt estimate, every\n" +
        "completion at max_tokens) past USD; needs the prices; exit 3, resumable",
    },
    "dry-run": {
      type: "boolean",
      help: "build the tasks and print row ids, fingerprints and sizes; call nothing, write\n" +
        "nothing, need no key (with --output-dir, also say which rows would be reused)",
    },
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, io, seams }) {
    const dryRun = flags["dry-run"] ?? false;
    const limit = flags.limit;
    if (dryRun && limit !== undefined) {
      throw new InputError("--limit calls a few tasks; --dry-run calls none");
    }
    const directory = dryRun ? flags["output-dir"] : requiredDirectory(flags["output-dir"]);
    const policyModule = moduleRequest(flags);
    if (flags.baseline !== undefined && policyModule === undefined) {
      throw new InputError("--baseline names what a --policy-module is compared with; give the module too");
    }
    const baseline = policyModule === undefined ? undefined : flags.baseline ?? POLICIES[0];
    const prices = pricePair(flags);
    const maxCostUsd = flags["max-cost"];
    if (maxCostUsd !== undefined && prices === undefined) {
      throw new InputError("--max-cost needs --price-input and --price-output (USD per million tokens)");
    }
    const reuse = flags.reuse ?? [];
    const reuseUngraded = flags["reuse-ungraded"] ?? false;
    if (reuseUngraded && reuse.length === 0) {
      throw new InputError("--reuse-ungraded says which --reuse sources may be taken; give --reuse too");
    }
    if (directory !== undefined) refuseSelfReuse(directory, reuse);
    const interrupt = new AbortController();
    // Until the key is known nothing printed can carry it; from then on every line is redacted.
    let say = io;
    let progress: ReturnType<typeof progressReporter> | undefined;
    let onInterrupt: (() => void) | undefined;
    let outcome: RunQaOutcome;
    try {
      outcome = await runQa({
        ...await protocolSource(flags, io, directory),
        directory,
        dryRun,
        env: io.env,
        source: SOURCE_STATE,
        signal: interrupt.signal,
        onStart: ({ secret, host, model, workers, attempts }) => {
          io.err(`run-qa: ${model} at ${host}, ${workers} worker(s), up to ${attempts} attempt(s) a call`);
          if (secret === "") {
            io.err(
              `notice: the API key is shorter than ${MIN_SECRET_LENGTH} characters, so it is not treated as a ` +
                "secret: nothing is redacted",
            );
          }
          say = redactingIo(io, secret, redact);
          progress = progressReporter(say);
          onInterrupt = listenForInterrupt(say, interrupt);
        },
        onEvent: (event) => progress?.onEvent(event),
        // Ctrl-C is run-qa's own (a graceful stop); a row's publish holds off only SIGTERM.
        publish: { ...publishOptions(io, seams), signals: ["SIGTERM"] },
        limit,
        policyModule,
        baseline,
        standIn: flags["stand-in"] ?? false,
        prices,
        maxCostUsd,
        reuse,
        reuseUngraded,
        onNotice: (line) => io.err(line),
      });
    } finally {
      progress?.end();
      if (onInterrupt !== undefined) Deno.removeSignalListener("SIGINT", onInterrupt);
    }
    if (outcome.kind === "dry-run") {
      // One task a line (id, fingerprint, size) for diffs and scripts: never wrapped; the closing line is text.
      if (outcome.lines.length > 1) writeDocument(io, outcome.lines.slice(0, -1).join("\n"));
      io.out(outcome.lines.at(-1)!);
      for (const line of outcome.estimate) io.out(line);
      return;
    }
    reportOutcome(outcome, say);
  },
});

function listenForInterrupt(say: Io, interrupt: AbortController): () => void {
  const handler = interruptHandler({
    stop: () => {
      say.err("interrupted: stopping; rows already written stay valid (Ctrl-C again to quit at once)");
      interrupt.abort();
    },
    // Leaving at once skips finally blocks; the lock is released by its "unload" listener.
    quit: () => exitAtOnce(new StoppedError("SIGINT")),
  });
  Deno.addSignalListener("SIGINT", handler);
  return handler;
}

function reportOutcome(outcome: Extract<RunQaOutcome, { kind: "ran" }>, say: Io): void {
  const { summary, qa } = outcome;
  if (summary.copiedFromRuns !== undefined && summary.copiedFromRuns > 0) {
    say.out(
      `reused from earlier runs: ${summary.copiedFromRuns} answer(s), ${summary.copiedFromRuns} call(s) saved ` +
        "(their origins in reuse.json)",
    );
  }
  say.out(`answer rows: ${summary.reused} reused, ${summary.called} called, ${summary.failed.length} failed`);
  if (summary.leftForLater > 0) {
    say.out(
      `limited by --limit: ${summary.leftForLater} task(s) left; run the same command without it to answer them`,
    );
  }
  const standIn = summary.responseModels[STAND_IN_MODEL];
  if (standIn !== undefined) {
    say.out(
      `stand-in: ${standIn} answer(s) from ${STAND_IN_MODEL}, a deterministic stand-in, not a language model`,
    );
  }
  const others = Object.entries(summary.responseModels).filter(([model]) =>
    model !== qa.model && model !== STAND_IN_MODEL
  );
  if (others.length > 0) {
    const count = others.reduce((sum, [, answers]) => sum + answers, 0);
    // A server's model name is outside text: JSON's quoting, then every control left in it escaped.
    const listed = others.map(([model, answers]) => `${visible(JSON.stringify(model))} (${answers})`).join(
      ", ",
    );
    say.err(`warning: ${count} answer(s) came from a model other than qa.model ${qa.model}: ${listed}`);
  }
  for (const failure of summary.failed) say.out(`  failed ${failure.rowId}: ${failure.reason}`);
  if (summary.credentialsRejected !== null) {
    say.out(
      `stopped: the endpoint rejected the API key (${summary.credentialsRejected.reason}), so no further ` +
        `call was sent; check ${qa.api_key_env} and ${qa.base_url_env}, then run the same command to resume`,
    );
    throw new CommandFailedError("the endpoint rejected the API key");
  }
  if (summary.unreachable !== undefined) {
    say.out(
      `stopped: ${summary.unreachable.reason}, so no further call was sent; check ${qa.base_url_env}, then run ` +
        "the same command to resume",
    );
    throw new CommandFailedError("the endpoint cannot be reached");
  }
  if (summary.leftByBudget !== undefined && summary.leftByBudget > 0) {
    const before = summary.spentBefore ?? 0;
    say.out(
      `stopped by --max-cost $${outcome.maxCostUsd} (the run's total; $${before.toFixed(4)} spent before ` +
        `this invocation): ${summary.leftByBudget} task(s) left; the rows written stay valid: a larger ` +
        "--max-cost answers them",
    );
  }
  if (summary.interrupted) {
    say.out(`interrupted: ${summary.notAttempted} row(s) not attempted; run the same command to resume`);
    throw new StoppedError("SIGINT");
  }
  if (summary.failed.length > 0) throw new CommandFailedError(`${summary.failed.length} row(s) failed`);
  if (summary.leftByBudget !== undefined && summary.leftByBudget > 0) {
    throw new BudgetExceededError(`${summary.leftByBudget} task(s) left by --max-cost`);
  }
}
