/**
 * The deermem-eval command line. Parses flags, loads the protocol (embedded by default, files by flag),
 * revokes network permission for every command but `run-qa`, runs one command, and maps errors to exit codes.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { z } from "zod";
import denoConfig from "./deno.json" with { type: "json" };
import { formatConformance, runConformance } from "./lib/conformance.ts";
import { type Contracts, type ContractSources, embeddedSources, loadContracts } from "./lib/contracts.ts";
import { exitCodeFor, InputError } from "./lib/errors.ts";
import { buildDemoProtocol } from "./lib/demo.ts";
import { readBytes, readBytesHashed } from "./lib/fs.ts";
import { retentionTable } from "./lib/policy_outputs.ts";
import { buildAnswerTasks, requestSettings } from "./lib/tasks.ts";
import { formatChecks, verifyResults } from "./lib/verify.ts";
import {
  gradeQa,
  POLICY_OUTPUTS,
  type PreparedProtocol,
  prepareProtocol,
  QA_OUTPUTS,
  runPolicy,
} from "./lib/stages.ts";
import { openAiProvider } from "./lib/provider.ts";
import { suiteLines } from "./lib/qa_outputs.ts";
import {
  checkQaSettings,
  checkRunDirectory,
  dryRunLines,
  planRows,
  resolveCredentials,
  type RunEvent,
  runQa,
} from "./lib/runner.ts";

/** The program's version (from `deno.json`). */
export const VERSION: string = denoConfig.version;

const OPTIONS = {
  config: { type: "string" },
  "official-manifest": { type: "string" },
  "synthetic-manifest": { type: "string" },
  dataset: { type: "string" },
  "output-dir": { type: "string" },
  json: { type: "boolean" },
  strict: { type: "boolean" },
  only: { type: "string" },
  "tolerate-ulps": { type: "string" },
  "dry-run": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

type Flags = {
  config?: string;
  "official-manifest"?: string;
  "synthetic-manifest"?: string;
  dataset?: string;
  "output-dir"?: string;
  json?: boolean;
  strict?: boolean;
  only?: string;
  "tolerate-ulps"?: string;
  "dry-run"?: boolean;
  help?: boolean;
  version?: boolean;
};

/** Where a command writes its lines; tests capture them. */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  env: (name: string) => string | undefined;
  /** A status line rewritten in place (terminals only; absent otherwise). */
  live?: { update: (text: string) => void; done: () => void };
}

interface Command {
  summary: string;
  usage: string;
  help: string;
  network?: boolean;
  run: (flags: Flags, positionals: string[], io: Io) => Promise<number>;
}

const PROTOCOL_FLAGS = `
Protocol (embedded pr4789-reproduction-v1 unless given):
  --config PATH               protocol config YAML
  --official-manifest PATH    official case manifest JSON
  --synthetic-manifest PATH   synthetic correction manifest JSON`;

async function contractSources(flags: Flags): Promise<ContractSources> {
  const embedded = embeddedSources();
  const load = async (path: string | undefined, fallback: ContractSources["config"], what: string) =>
    path === undefined ? fallback : { source: path, bytes: await readBytes(path, what) };
  return {
    config: await load(flags.config, embedded.config, "config"),
    official: await load(flags["official-manifest"], embedded.official, "official manifest"),
    synthetic: await load(flags["synthetic-manifest"], embedded.synthetic, "synthetic manifest"),
  };
}

const DATASET_ENV = "LONGMEMEVAL_ORACLE_PATH";

function datasetPath(flags: Flags, io: Io): string {
  const path = flags.dataset ?? io.env(DATASET_ENV);
  if (path === undefined || path === "") {
    throw new InputError(`needs --dataset PATH (or ${DATASET_ENV}); the CLI never downloads the dataset`);
  }
  return path;
}

function outputDir(flags: Flags): string {
  const path = flags["output-dir"];
  if (path === undefined || path === "") throw new InputError("needs --output-dir DIR");
  return path;
}

async function prepare(flags: Flags, io: Io, contracts?: Contracts) {
  contracts ??= await loadContracts(await contractSources(flags));
  const path = datasetPath(flags, io);
  return await prepareProtocol(contracts, await readBytesHashed(path, "dataset"), path);
}

/** Runs both policies into `directory` and prints the retention table and the files written. */
async function writePolicyRun(prepared: PreparedProtocol, directory: string, io: Io): Promise<void> {
  const results = await runPolicy(prepared, directory, new Date(), SOURCE_STATE);
  io.out(retentionTable(results));
  io.out(wroteLine(directory, POLICY_OUTPUTS));
}

function wroteLine(directory: string, names: readonly string[]): string {
  return `wrote ${names.map((name) => `${directory}/${name}`).join(", ")}`;
}

/** Where the output came from, recorded in place of the reference's git state. */
export const SOURCE_STATE = { dirty: null, head: null, tool: `deermem-eval ${VERSION}` };

const COMMANDS: Record<string, Command> = {
  "validate-contracts": {
    summary: "check the config, both manifests and the answer prompt agree and match their pins",
    usage: "deermem-eval validate-contracts [protocol flags]",
    help: `Reads the protocol contracts (no dataset, no network) and checks: one protocol id across all three,
the grader version and policy version this program implements, and the answer prompt's pinned SHA-256.
Writes nothing.${PROTOCOL_FLAGS}`,
    run: async (flags, _positionals, io) => {
      const contracts = await loadContracts(await contractSources(flags));
      const official = Object.values(contracts.official.scenarios).reduce((sum, ids) => sum + ids.length, 0);
      io.out(`validated ${official} official and ${contracts.synthetic.cases.length} synthetic cases`);
      return 0;
    },
  },
  validate: {
    summary: "verify the dataset's SHA-256, recompute the official selection and build all 45 cases",
    usage: "deermem-eval validate --dataset PATH [protocol flags]",
    help:
      `Checks the dataset file's SHA-256 against the config's pin (before parsing it), recomputes the 40 official
IDs from the selection rule and compares them with the manifest, builds the distractor bank and all cases.
Writes nothing; no network.
  --dataset PATH   longmemeval_oracle.json (default: $LONGMEMEVAL_ORACLE_PATH)${PROTOCOL_FLAGS}`,
    run: async (flags, _positionals, io) => {
      const prepared = await prepare(flags, io);
      io.out(`validated dataset ${prepared.dataset.sha256} and prepared ${prepared.cases.length} cases`);
      return 0;
    },
  },
  "run-policy": {
    summary: "run both policies at every capacity: 270 metadata-only rows, a summary and a run record",
    usage: "deermem-eval run-policy --dataset PATH --output-dir DIR [protocol flags]",
    help:
      `Validates as \`validate\` does, then runs both policies at every capacity with no model and writes into DIR:
  policy.raw.jsonl  one metadata-only row per case × capacity × policy (IDs, scores; never content)
  summary.json      support retention by source, scenario, capacity and policy
  run.json          dataset identity, artifact hashes, evaluation clock, policies, capacities
Refuses a DIR that already holds any of them; each file is written atomically. No network.
  --dataset PATH     longmemeval_oracle.json (default: $LONGMEMEVAL_ORACLE_PATH)
  --output-dir DIR   where to write${PROTOCOL_FLAGS}`,
    run: async (flags, _positionals, io) => {
      const directory = outputDir(flags);
      const prepared = await prepare(flags, io);
      await writePolicyRun(prepared, directory, io);
      return 0;
    },
  },
  "run-qa": {
    summary: "ask the answer model for every task (the only networked command); resumable",
    usage: "deermem-eval run-qa --dataset PATH --output-dir DIR [--dry-run] [protocol flags]",
    help:
      `Builds the tasks (every case × both policies at the QA capacity) and asks the OpenAI-compatible endpoint,
with identical settings for both policies, from the config: model, temperature, max_tokens, timeout, attempts,
workers. The API key and base URL are read only from the two environment variables the config names (for the
embedded protocol DEERMEM_EVAL_ANSWER_API_KEY and DEERMEM_EVAL_ANSWER_BASE_URL), before the dataset is read.
Writes into DIR:
  qa_run.json               the run's identity: the five artifact SHA-256 values and the QA settings (no key)
  responses/<row_id>.json   one row per answered task, written the moment the answer arrives
Running the same command again resumes: a stored row is reused only when it equals its recomputed task (ids,
source, scenario, policy, capacity, kept facts, request fingerprint); any other row is moved to
responses/superseded/ and called again. A DIR made under a different protocol is refused. Ctrl-C stops
cleanly; rows already written stay valid. Exit 1 if any call failed.
  --dataset PATH     longmemeval_oracle.json (default: $LONGMEMEVAL_ORACLE_PATH)
  --output-dir DIR   the run directory (new or to resume)
  --dry-run          build the tasks and print row ids, fingerprints and sizes; call nothing, write
                     nothing, need no key (with --output-dir, also say which rows would be reused)${PROTOCOL_FLAGS}`,
    network: true,
    run: async (flags, _positionals, io) => {
      const dryRun = flags["dry-run"] ?? false;
      const directory = dryRun ? flags["output-dir"] : outputDir(flags);
      const contracts = await loadContracts(await contractSources(flags));
      checkQaSettings(contracts);
      // Credentials first: a missing variable must fail before the dataset is touched.
      const credentials = dryRun ? undefined : resolveCredentials(contracts.config, io.env);
      if (directory !== undefined) await checkRunDirectory(directory, contracts);
      const prepared = await prepare(flags, io, contracts);
      const tasks = await buildAnswerTasks(contracts, prepared.cases);
      if (credentials === undefined) {
        const plans = directory === undefined ? undefined : await planRows(directory, tasks);
        for (const line of dryRunLines(tasks, plans)) io.out(line);
        return 0;
      }
      const qa = contracts.config.qa;
      const provider = openAiProvider({
        baseUrl: credentials.baseUrl,
        apiKey: credentials.apiKey,
        settings: requestSettings(contracts),
        timeoutSeconds: qa.timeout_seconds,
      });
      const interrupt = new AbortController();
      const onInterrupt = () => {
        if (interrupt.signal.aborted) Deno.exit(130);
        io.err("interrupted: stopping; rows already written stay valid (Ctrl-C again to quit at once)");
        interrupt.abort();
      };
      Deno.addSignalListener("SIGINT", onInterrupt);
      const progress = progressReporter(io);
      let summary;
      try {
        summary = await runQa(contracts, tasks, directory!, {
          provider,
          retry: { maxAttempts: qa.max_attempts },
          workers: qa.workers,
          source: SOURCE_STATE,
          signal: interrupt.signal,
          onEvent: progress.onEvent,
        });
      } finally {
        progress.end();
        Deno.removeSignalListener("SIGINT", onInterrupt);
      }
      io.out(
        `answer rows: ${summary.reused} reused, ${summary.called} called, ${summary.failed.length} failed`,
      );
      for (const failure of summary.failed) io.out(`  failed ${failure.rowId}: ${failure.reason}`);
      if (summary.interrupted) {
        io.out(`interrupted: ${summary.notAttempted} row(s) not attempted; run the same command to resume`);
        return 130;
      }
      return summary.failed.length > 0 ? 1 : 0;
    },
  },
  "grade-qa": {
    summary: "re-verify a QA run read-only, grade blindly, write rows, summary and statistics",
    usage: "deermem-eval grade-qa --dataset PATH --output-dir DIR [protocol flags]",
    help:
      `Re-verifies the run in DIR without changing it: qa_run.json must carry the five artifact hashes of the
protocol in use; every task is recomputed, and each of its rows must exist and equal it in row id, case id,
source, scenario, policy, capacity, kept facts and request fingerprint — the first that does not refuses the
directory, naming the row and the field. Then grades every prediction blindly against the reference answer of
the recomputed case (never one a row names) and writes into DIR:
  qa.rows.jsonl     the graded rows
  qa.summary.json   accuracy by source, scenario and policy
  qa.stats.json     exact McNemar and the seeded paired bootstrap, per suite
Refuses to overwrite any of them. No network.
  --dataset PATH     longmemeval_oracle.json (default: $LONGMEMEVAL_ORACLE_PATH)
  --output-dir DIR   the run-qa directory${PROTOCOL_FLAGS}`,
    run: async (flags, _positionals, io) => {
      const directory = outputDir(flags);
      const contracts = await loadContracts(await contractSources(flags));
      const prepared = await prepare(flags, io, contracts);
      const tasks = await buildAnswerTasks(contracts, prepared.cases);
      const rows = await gradeQa(directory, contracts, tasks);
      for (const line of suiteLines(rows)) io.out(line);
      io.out(wroteLine(directory, QA_OUTPUTS));
      return 0;
    },
  },
  verify: {
    summary: "prove offline that a published results directory follows from its rows",
    usage: "deermem-eval verify RESULTS_DIR [--dataset PATH] [protocol flags]",
    help:
      `Reads RESULTS_DIR (qa.rows.jsonl, qa.summary.json, qa.stats.json, qa_run.json) and checks: the rows' schema,
QA capacity, grader version and policy pairs; qa.summary.json and qa.stats.json recomputed byte for byte; the run
marker's five artifact hashes against the protocol in use. With --dataset it also rebuilds the tasks and checks
every row's case, source, scenario, policy, capacity, kept facts and request fingerprint, and re-grades each
prediction against the recomputed reference answer. Writes nothing; no network. Exit 0 only when all hold.
  --dataset PATH   the pinned dataset, for the per-row checks${PROTOCOL_FLAGS}`,
    run: async (flags, positionals, io) => {
      const directory = positionals[0];
      if (directory === undefined) throw new InputError("verify needs a results directory");
      const contracts = await loadContracts(await contractSources(flags));
      let tasks;
      if (flags.dataset !== undefined) {
        const prepared = await prepareProtocol(
          contracts,
          await readBytesHashed(flags.dataset, "dataset"),
          flags.dataset,
        );
        tasks = await buildAnswerTasks(contracts, prepared.cases);
      }
      const checks = await verifyResults(directory, contracts, tasks);
      io.out(formatChecks(checks));
      return checks.every((check) => check.ok) ? 0 : 1;
    },
  },
  demo: {
    summary:
      "run validate-contracts, validate and run-policy on a generated synthetic dataset (not LongMemEval)",
    usage: "deermem-eval demo [--output-dir DIR]",
    help:
      `Shows the offline stages end to end without the pinned dataset: checks the embedded contracts, generates a
synthetic LongMemEval-shaped dataset (no LongMemEval text) with a demo protocol pinned to it, then validates it
and runs both policies into a fresh temporary directory (or --output-dir DIR). No network.`,
    run: async (flags, _positionals, io) => {
      const embedded = await loadContracts(embeddedSources());
      const officialCount = Object.values(embedded.official.scenarios).flat().length;
      io.out(
        `validate-contracts: validated ${officialCount} official and ${embedded.synthetic.cases.length} synthetic cases`,
      );
      io.out("demo: SYNTHETIC data generated by deermem-eval — not the pinned LongMemEval dataset");
      const demo = await buildDemoProtocol();
      const directory = flags["output-dir"] ?? await Deno.makeTempDir({ prefix: "deermem-eval-demo-" });
      const encoder = new TextEncoder();
      const contracts = await loadContracts({
        config: { source: "demo:config.yaml", bytes: encoder.encode(demo.config) },
        official: { source: "demo:official.json", bytes: encoder.encode(demo.official) },
        synthetic: { source: "demo:synthetic.json", bytes: encoder.encode(demo.synthetic) },
      });
      const prepared = await prepareProtocol(contracts, demo.dataset, "demo:dataset.json");
      io.out(
        `validate: validated dataset ${prepared.dataset.sha256} and prepared ${prepared.cases.length} cases`,
      );
      await writePolicyRun(prepared, directory, io);
      return 0;
    },
  },
  conformance: {
    summary: "check this build against a directory of reference vector files",
    usage: "deermem-eval conformance DIR [--only FILE,...] [--tolerate-ulps N] [--json] [--strict]",
    help:
      `Runs every line of each known vector file in DIR (eviction.jsonl, eviction-exotic.jsonl, datetime.jsonl,
bounded-number.jsonl, grader.jsonl, stats.jsonl, mt19937.jsonl, pyjson-floats.jsonl, pyjson-strings.jsonl,
evidence.jsonl, offsets.jsonl, prompts.jsonl, libm.jsonl) through the library and compares every value
exactly, doubles bit for bit. Fails, naming why, when a known file is missing or empty or DIR holds no vector
file; a line that is not JSON or not UTF-8 is bad input (exit 2). Symlinks are followed; unknown files are
listed as skipped; each file is read up to 256 MiB. Reads only DIR; writes nothing.
  --only FILE,...       check just these known files (each must be present) instead of all of them
  --tolerate-ulps N     for vector files made on another platform (another libm, a CPU without FMA):
                        accept doubles up to N ulps apart; every such line is counted and listed
  --json                print the report as one JSON document
  --strict              fail on exotic-tier disagreements too`,
    run: async (flags, positionals, io) => {
      const directory = positionals[0];
      if (directory === undefined) throw new InputError("conformance needs a directory of vector files");
      const tolerance = flags["tolerate-ulps"];
      if (tolerance !== undefined && !/^\d{1,6}$/.test(tolerance)) {
        throw new InputError(`expected a whole number of ulps, got ${JSON.stringify(tolerance)}`, {
          field: "--tolerate-ulps",
        });
      }
      const report = await runConformance(directory, {
        strict: flags.strict,
        only: flags.only?.split(",").map((name) => name.trim()).filter((name) => name !== ""),
        tolerateUlps: tolerance === undefined ? 0 : Number(tolerance),
      });
      io.out(flags.json ? JSON.stringify(report, null, 2) : formatConformance(report));
      return report.ok ? 0 : 1;
    },
  },
};

/** Progress for run-qa: one live line on a terminal, a plain line per call otherwise. */
function progressReporter(io: Io): { onEvent: (event: RunEvent) => void; end: () => void } {
  let failures = 0;
  let tokens = 0;
  let live = false;
  return {
    onEvent: (event) => {
      if (event.kind === "planned") {
        for (const plan of event.stale) {
          io.err(`${plan.task.rowId}: stored row not reusable (${plan.reason}); calling again`);
        }
        io.err(`${event.total} tasks: ${event.reuse} stored rows reused, ${event.toCall} to call`);
        return;
      }
      if (event.kind === "failed") failures++;
      else tokens += event.tokens;
      if (io.live !== undefined) {
        live = true;
        io.live.update(`answered ${event.done}/${event.toCall} · ${failures} failed · ${tokens} tokens`);
      } else if (event.kind === "answered") {
        io.err(
          `[${event.done}/${event.toCall}] ${event.rowId}: answered (${event.attempts} attempt${
            event.attempts === 1 ? "" : "s"
          }, ${event.tokens} tokens)`,
        );
      } else {
        io.err(`[${event.done}/${event.toCall}] ${event.rowId}: FAILED ${event.reason}`);
      }
    },
    end: () => {
      if (live) io.live?.done();
    },
  };
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) =>
    `  ${name.padEnd(width)}  ${command.summary}`
  );
  return `deermem-eval ${VERSION} — reproduce and verify the DeerMem capacity-eviction evaluation

Usage: deermem-eval COMMAND [flags]   (deermem-eval COMMAND --help for details)

Commands:
${lines.join("\n")}

Exit codes: 0 success, 1 runtime failure, 2 bad usage or invalid input, 130 interrupted (run-qa).`;
}

/**
 * Runs the command line; returns the exit code. Never throws for expected errors.
 *
 * @example
 * ```ts ignore
 * import { main } from "./cli.ts";
 * const code = await main(["validate-contracts"]);
 * ```
 */
export async function main(args: string[], io: Io = defaultIo()): Promise<number> {
  // Each schema parses a handful of documents per run: compiling a fast path for them costs more than it saves.
  z.config({ jitless: true });
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`deermem-eval: ${(error as Error).message}`);
    return 2;
  }
  const flags = parsed.values as Flags;
  const [name, ...positionals] = parsed.positionals;
  if (flags.version) {
    io.out(`deermem-eval ${VERSION}`);
    return 0;
  }
  if (name === undefined) {
    (flags.help ? io.out : io.err)(usage());
    return flags.help ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.err(`deermem-eval: unknown command ${JSON.stringify(name)} (see deermem-eval --help)`);
    return 2;
  }
  if (flags.help) {
    io.out(`${command.usage}\n\n${command.help}`);
    return 0;
  }
  if (!command.network) {
    // Offline commands give up the network before any work, so not even a bug can reach it.
    await Deno.permissions.revoke({ name: "net" });
  }
  try {
    return await command.run(flags, positionals, io);
  } catch (error) {
    const code = exitCodeFor(error);
    if (code === 2) {
      io.err(`deermem-eval ${name}: ${(error as Error).message}`);
    } else {
      io.err(
        `deermem-eval ${name}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`,
      );
    }
    return code;
  }
}

function terminalStatusLine(): NonNullable<Io["live"]> {
  const encoder = new TextEncoder();
  return {
    update: (text) => Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${text}`)),
    done: () => Deno.stderr.writeSync(encoder.encode("\n")),
  };
}

function defaultIo(): Io {
  return {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    env: (name) => Deno.env.get(name),
    live: Deno.stderr.isTerminal() ? terminalStatusLine() : undefined,
  };
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
