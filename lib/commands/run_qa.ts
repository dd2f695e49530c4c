/**
 * Stage 4, `run-qa` (the only networked stage): checks the settings, resolves the credentials before the dataset
 * is touched, refuses a locked or foreign directory, prepares the tasks and asks the answer model for each,
 * resuming what a previous run stored. Signals and printing stay with the caller (an `AbortSignal`, callbacks).
 *
 * @module
 */

import { InputError, type PublishOptions } from "../base/mod.ts";
import {
  type ContractPaths,
  type ProtocolConfig,
  type SourceState,
  STAND_IN_MODEL,
} from "../protocol/mod.ts";
import {
  type Answerer,
  answererFor,
  answerRun,
  checkOutputDirectory,
  checkQaSettings,
  type CostBudget,
  dryRunPlan,
  MAX_EPOCHS,
  MIN_SECRET_LENGTH,
  redact,
  refuseSelfReuse,
  type ReuseRequest,
  type RunCandidate,
  type RunEvent,
  type RunQaSummary,
  type RunStart,
} from "../qa/mod.ts";

import { defineCommand, publishOptions, writeDocument } from "./_command.ts";
import { loadTaskProtocol } from "./_protocol.ts";
import {
  loadCandidate,
  type ModuleRequest,
  moduleRequest,
  POLICY_MODULE_FLAG,
  type StageCandidate,
} from "./_candidate.ts";
import { RUN_KIND_FILE, type RunKindName, runKindRecord } from "./_run_kinds.ts";
import { type EvictionPolicy, POLICIES } from "../policy/mod.ts";
import { DATASET_FLAG, PRICE_FLAGS, pricePair, PROTOCOL_FLAGS, requiredDirectory } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";
import { progressReporter, redactingIo } from "./_run_qa_progress.ts";
import { dryRunBaseUrl, proveReuseSource, REUSE_FLAG } from "./_reuse.ts";
import { SOURCE_STATE } from "./_version.ts";
import { RUN_QA_DESCRIPTION } from "./_run_qa_help.ts";
import {
  requireLoopbackPermission,
  requireNetPermission,
  requireRunQaPermissions,
} from "./_run_qa_permissions.ts";
import { listenForInterrupt, reportOutcome } from "./_run_qa_outcome.ts";

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
  /** The kind a new run records in `run_kind.json` (`demo` for the demo's; else a QA or candidate QA run). */
  kind?: RunKindName;
  /** Stop before a call's worst case would pass this many USD (needs `prices`). */
  maxCostUsd?: number;
  /** K, how many times every task is answered (each run a complete run directory); default what DIR records, else 1. */
  epochs?: number;
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
  let answerer: Answerer | undefined;
  let stageCandidate: StageCandidate | undefined;
  let candidate: RunCandidate | undefined;
  let epochs = request.epochs ?? 1;
  const { contracts, tasks } = await loadTaskProtocol(request.contracts, request.dataset, {
    beforeDataset: async (contracts) => {
      checkQaSettings(contracts);
      // Credentials first: a missing variable must fail before the dataset is touched.
      if (request.standIn) requireLoopbackPermission();
      else if (!dryRun) requireRunQaPermissions(contracts.config.qa);
      answerer = answererFor(contracts, { standIn: request.standIn ?? false, dryRun, env: request.env });
      if (answerer?.kind === "endpoint") requireNetPermission(answerer.baseUrl, contracts.config.qa);
      // The module is loaded (and hashed) after the credentials are read and before any call is made.
      if (request.policyModule !== undefined) {
        const loaded = await loadCandidate(request.policyModule);
        const baseline = request.baseline ?? POLICIES[0];
        stageCandidate = { loaded, baseline };
        candidate = { ...loaded.identity, baseline };
      }
      if (directory !== undefined) {
        epochs = await checkOutputDirectory(directory, contracts, candidate, {
          asked: request.epochs,
          dryRun,
        });
      }
    },
    candidate: () => stageCandidate,
  });
  const reuse = reuseRequest(request);
  if (answerer === undefined) {
    const baseUrl = () => dryRunBaseUrl(contracts, request.env);
    const { prices, maxCostUsd } = request;
    const planned = await dryRunPlan({ contracts, tasks, epochs }, {
      directory,
      prices,
      maxCostUsd,
      reuse: { ...reuse, baseUrl },
    });
    return { kind: "dry-run", ...planned };
  }
  const { source, signal, onStart, onEvent, publish, limit, prices, maxCostUsd } = request;
  const summary = await answerRun({ contracts, tasks, epochs, directory: directory! }, answerer, {
    ...{ source, signal, onStart, onEvent, publish, limit, candidate, prices, maxCostUsd, reuse },
    record: {
      name: RUN_KIND_FILE,
      text: runKindRecord(request.kind ?? (candidate === undefined ? "qa" : "candidate-qa")),
    },
  });
  return { kind: "ran", summary, qa: contracts.config.qa, maxCostUsd };
}

/** The `--reuse` sources as the qa layer reads them, each graded source proved by `verify`. */
function reuseRequest(request: RunQaRequest): ReuseRequest {
  return {
    directories: request.reuse ?? [],
    ungraded: request.reuseUngraded ?? false,
    warn: request.onNotice ?? (() => {}),
    prove: proveReuseSource,
  };
}

/** The `run-qa` command. */
export const command = defineCommand({
  name: "run-qa",
  summary: "ask the answer model for every task (the only networked command); resumable",
  description: RUN_QA_DESCRIPTION,
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
    epochs: {
      type: "integer",
      of: "runs",
      min: 1,
      max: MAX_EPOCHS,
      value: "K",
      help: "answer every task K times (default 1, or what DIR records): run 1 in DIR, run r in\n" +
        "DIR/epoch-r, each a complete run; --limit and --max-cost count all K",
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
          onInterrupt = listenForInterrupt(progress.note, interrupt);
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
        epochs: flags.epochs,
        reuseUngraded,
        onNotice: (line) => io.err(line),
      });
    } catch (error) {
      if (onInterrupt !== undefined) Deno.removeSignalListener("SIGINT", onInterrupt);
      throw error;
    } finally {
      progress?.end();
    }
    // Ctrl-C's second copy (deno task relays it) may come after the run: the handler stays until the summary is out.
    try {
      if (outcome.kind === "dry-run") {
        // One task a line (id, fingerprint, size) for diffs and scripts: never wrapped; the closing line is text.
        if (outcome.lines.length > 1) writeDocument(io, outcome.lines.slice(0, -1).join("\n"));
        io.out(outcome.lines.at(-1)!);
        for (const line of outcome.estimate) io.out(line);
        return;
      }
      reportOutcome(outcome, say);
    } finally {
      if (onInterrupt !== undefined) Deno.removeSignalListener("SIGINT", onInterrupt);
    }
  },
});
