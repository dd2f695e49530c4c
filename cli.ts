/**
 * The deermem-eval command line. Parses flags, loads the protocol (embedded by default, files by flag),
 * revokes network permission for every command but `run-qa`, runs one command, and maps errors to exit codes.
 *
 * @module
 */

import denoConfig from "./deno.json" with { type: "json" };
import { DEBUG_ENV, describeFailure, InputError } from "./lib/base/errors.ts";
import { type FlagValues, parseFlags } from "./lib/base/flags.ts";
// Only types at the top: each command loads its own modules when it runs, so a start evaluates just those.
import type { ContractPaths, PreparedProtocol } from "./lib/protocol/prepare.ts";
import type { CustomPolicyRun } from "./lib/commands/run_policy.ts";
import type { Prices } from "./lib/report/report.ts";
import type { RunEvent } from "./lib/qa/answering.ts";

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
  markdown: { type: "string" },
  html: { type: "string" },
  against: { type: "string" },
  "price-input": { type: "string" },
  "price-output": { type: "string" },
  "show-text": { type: "boolean" },
  "policy-module": { type: "string" },
  grid: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

type Flags = FlagValues<typeof OPTIONS>;

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
  /** How many positional arguments the command takes (default none). */
  positionals?: number;
  run: (flags: Flags, positionals: string[], io: Io) => Promise<number>;
}

const PROTOCOL_FLAGS = `
Protocol (embedded pr4789-reproduction-v1 unless given):
  --config PATH               protocol config YAML
  --official-manifest PATH    official case manifest JSON
  --synthetic-manifest PATH   synthetic correction manifest JSON`;

function contractPaths(flags: Flags): ContractPaths {
  return {
    config: flags.config,
    officialManifest: flags["official-manifest"],
    syntheticManifest: flags["synthetic-manifest"],
  };
}

async function datasetPath(flags: Flags, io: Io): Promise<string | undefined> {
  const { DATASET_ENV } = await import("./lib/protocol/prepare.ts");
  return flags.dataset ?? io.env(DATASET_ENV);
}

function outputDir(flags: Flags): string {
  const path = flags["output-dir"];
  if (path === undefined || path === "") throw new InputError("needs --output-dir DIR");
  return path;
}

/** Runs both policies (or `custom`'s) into `directory` and prints the retention table and the files written. */
async function writePolicyRun(
  prepared: PreparedProtocol,
  directory: string,
  io: Io,
  options: { table?: boolean; custom?: CustomPolicyRun } = {},
): Promise<void> {
  const { custom } = options;
  const { POLICY_OUTPUTS, runPolicy } = await import("./lib/commands/run_policy.ts");
  const { retentionTable } = await import("./lib/policy/outputs.ts");
  const results = await runPolicy(prepared, directory, new Date(), SOURCE_STATE, custom);
  if (options.table ?? true) io.out(retentionTable(results, custom && [custom.policy.name]));
  io.out(wroteLine(directory, POLICY_OUTPUTS));
}

function price(flags: Flags): Prices | undefined {
  const input = flags["price-input"];
  const output = flags["price-output"];
  if (input === undefined && output === undefined) return undefined;
  if (input === undefined || output === undefined) {
    throw new InputError("--price-input and --price-output go together (USD per million tokens)");
  }
  const parse = (text: string, flag: string) => {
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value) || value < 0) {
      throw new InputError(
        `expected a non-negative number of USD per million tokens, got ${JSON.stringify(text)}`,
        {
          field: flag,
        },
      );
    }
    return value;
  };
  return { input: parse(input, "--price-input"), output: parse(output, "--price-output") };
}

/** Writes the requested report files (Markdown, HTML) all or none, never over an existing file. */
async function writeReportFiles(files: [path: string, content: () => string][], io: Io): Promise<void> {
  const paths = files.map(([path]) => path);
  if (new Set(paths).size !== paths.length) throw new InputError("--markdown and --html name the same file");
  const { refuseExisting, writeFileAtomic } = await import("./lib/base/fs.ts");
  await refuseExisting(paths);
  const written: string[] = [];
  try {
    for (const [path, content] of files) {
      await writeFileAtomic(path, content());
      written.push(path);
    }
  } catch (error) {
    for (const path of written) await Deno.remove(path).catch(() => {});
    throw error;
  }
  for (const path of written) io.out(`wrote ${path}`);
}

function onlyPositional(positionals: string[], what: string, command: string): string {
  if (positionals.length !== 1) {
    throw new InputError(`${command} needs exactly one ${what}, got ${positionals.length}`);
  }
  return positionals[0];
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
      const { contractsLine, validateContracts } = await import("./lib/protocol/prepare.ts");
      io.out(contractsLine(await validateContracts(contractPaths(flags))));
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
      const { validate, validatedLine } = await import("./lib/protocol/prepare.ts");
      io.out(validatedLine(await validate(contractPaths(flags), await datasetPath(flags, io))));
      return 0;
    },
  },
  "run-policy": {
    summary: "run both policies at every capacity: 270 metadata-only rows, a summary and a run record",
    usage:
      "deermem-eval run-policy --dataset PATH --output-dir DIR [--policy-module FILE.ts] [protocol flags]",
    help:
      `Validates as \`validate\` does, then runs both policies at every capacity with no model and writes into DIR:
  policy.raw.jsonl  one metadata-only row per case × capacity × policy (IDs, scores; never content)
  summary.json      support retention by source, scenario, capacity and policy
  run.json          dataset identity, artifact hashes, evaluation clock, policies, capacities
Refuses a DIR that already holds any of them; each file is written atomically. No network.
With --policy-module, the module's default export (a policy: { name, select }, see the README) runs in place
of the two published policies, under the same cases, capacities and row format; each row also carries
policy_module (the file name) and policy_module_sha256 (of its source). The module gets no network and no
environment. A module that throws, returns unknown ids, keeps more than the capacity or decides a case
differently when asked twice is refused, naming the module and the case.
  --dataset PATH           longmemeval_oracle.json (default: $LONGMEMEVAL_ORACLE_PATH)
  --output-dir DIR         where to write
  --policy-module FILE.ts  a policy module to judge instead of the published policies${PROTOCOL_FLAGS}`,
    run: async (flags, _positionals, io) => {
      const directory = outputDir(flags);
      const { validate } = await import("./lib/protocol/prepare.ts");
      const { customPolicyRun } = await import("./lib/commands/run_policy.ts");
      const prepared = await validate(contractPaths(flags), await datasetPath(flags, io));
      const module = flags["policy-module"];
      const custom = module === undefined ? undefined : await customPolicyRun(module);
      await writePolicyRun(prepared, directory, io, { custom });
      return 0;
    },
  },
  sweep: {
    summary: "hybrid-v1 over a grid of weights, half-lives, reserve and capacities against confidence",
    usage: "deermem-eval sweep --dataset PATH --output-dir DIR [--grid FILE] [protocol flags]",
    help:
      `Validates as \`validate\` does, then evaluates hybrid-v1 at every point of a parameter grid against confidence
on every case, with no model. The default grid (around the config's published parameters): weights every
multiple of 0.05 on the simplex (231 triples, each summing to 1 by the config's rule), each half-life at ½×, 1×
and 2× the published one, correction reserve fraction 0, published and twice it, reserve cap 1 and published,
capacities 1 to the pool size. --grid FILE (YAML) replaces any of these lists:
  weights_step: 0.05                        # 1/n for a whole n ≤ 100
  confirmation_half_life_days: [45, 90, 180]
  access_half_life_days: [15, 30, 60]
  correction_reserved_fraction: [0, 0.1, 0.2]
  correction_reserved_max: [1, 10]
  capacities: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
Writes into DIR, all or nothing, never overwriting:
  sweep.jsonl  one metadata-only row per parameter set × capacity × scenario: the parameters, the cases, the
               supports each policy keeps and the difference
  sweep.json   the grid, the published parameters, the protocol's hashes and the tool version
Prints where the published parameters sit: their own result, the neighbourhood (reached one parameter step at a
time) in which hybrid-v1 keeps at least as many supports as confidence in every scenario at every capacity, and
the parameter sets that keep fewer in any, nearest first. No network.
  --dataset PATH     longmemeval_oracle.json (default: $LONGMEMEVAL_ORACLE_PATH)
  --output-dir DIR   where to write
  --grid FILE        the grid (YAML); default as above${PROTOCOL_FLAGS}`,
    run: async (flags, _positionals, io) => {
      const directory = outputDir(flags);
      const { sweep, SWEEP_OUTPUTS, sweepSummaryLines } = await import("./lib/sweep/sweep.ts");
      const { result, capacities } = await sweep({
        contracts: contractPaths(flags),
        dataset: await datasetPath(flags, io),
        directory,
        grid: flags.grid,
        tool: SOURCE_STATE.tool,
      });
      for (const line of sweepSummaryLines(result, capacities)) io.out(line);
      io.out(wroteLine(directory, SWEEP_OUTPUTS));
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
responses/superseded/ and called again. A DIR made under a different protocol is refused. While it runs, DIR
holds run-qa.lock (pid, start time): another run-qa or a grade-qa there refuses. A 401 or 403 stops the run;
a response body over 4 MiB fails its row; the key's text is never stored or printed ([redacted]). Ctrl-C stops
cleanly (a second one, a second later, quits at once); rows already written stay valid. Exit 1 if any call
failed.
  --dataset PATH     longmemeval_oracle.json (default: $LONGMEMEVAL_ORACLE_PATH)
  --output-dir DIR   the run directory (new or to resume)
  --dry-run          build the tasks and print row ids, fingerprints and sizes; call nothing, write
                     nothing, need no key (with --output-dir, also say which rows would be reused)${PROTOCOL_FLAGS}`,
    network: true,
    run: async (flags, _positionals, io) => {
      const dryRun = flags["dry-run"] ?? false;
      const directory = dryRun ? flags["output-dir"] : outputDir(flags);
      const { runQa } = await import("./lib/commands/run_qa.ts");
      const { interruptHandler } = await import("./lib/qa/answering.ts");
      const { redact } = await import("./lib/qa/provider.ts");
      const interrupt = new AbortController();
      // Until the key is known nothing printed can carry it; from then on every line is redacted.
      let say = io;
      let progress: ReturnType<typeof progressReporter> | undefined;
      let onInterrupt: (() => void) | undefined;
      let outcome;
      try {
        outcome = await runQa({
          contracts: contractPaths(flags),
          dataset: await datasetPath(flags, io),
          directory,
          dryRun,
          env: io.env,
          source: SOURCE_STATE,
          signal: interrupt.signal,
          onStart: (secret) => {
            say = redactingIo(io, secret, redact);
            progress = progressReporter(say);
            onInterrupt = interruptHandler({
              stop: () => {
                say.err(
                  "interrupted: stopping; rows already written stay valid (Ctrl-C again to quit at once)",
                );
                interrupt.abort();
              },
              // Deno.exit skips finally blocks; the lock is released by its "unload" listener.
              quit: () => Deno.exit(130),
            });
            Deno.addSignalListener("SIGINT", onInterrupt);
          },
          onEvent: (event) => progress?.onEvent(event),
        });
      } finally {
        progress?.end();
        if (onInterrupt !== undefined) Deno.removeSignalListener("SIGINT", onInterrupt);
      }
      if (outcome.kind === "dry-run") {
        for (const line of outcome.lines) io.out(line);
        return 0;
      }
      const { summary, qa } = outcome;
      say.out(
        `answer rows: ${summary.reused} reused, ${summary.called} called, ${summary.failed.length} failed`,
      );
      for (const failure of summary.failed) say.out(`  failed ${failure.rowId}: ${failure.reason}`);
      if (summary.credentialsRejected !== null) {
        say.out(
          `stopped: the endpoint rejected the API key (${summary.credentialsRejected.reason}), so no further ` +
            `call was sent; check ${qa.api_key_env} and ${qa.base_url_env}, then run the same command to resume`,
        );
        return 1;
      }
      if (summary.interrupted) {
        say.out(`interrupted: ${summary.notAttempted} row(s) not attempted; run the same command to resume`);
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
      const { gradeQa, QA_OUTPUTS } = await import("./lib/commands/grade_qa.ts");
      const { suiteLines } = await import("./lib/qa/outputs.ts");
      const { rows, suites } = await gradeQa({
        contracts: contractPaths(flags),
        dataset: await datasetPath(flags, io),
        directory,
        onForeignFiles: (foreign) =>
          io.err(
            `warning: ${directory}/responses holds ${foreign.length} file(s) that are not a task's row, not graded: ${
              foreign.join(", ")
            }`,
          ),
      });
      for (const line of suiteLines(rows, suites)) io.out(line);
      io.out(wroteLine(directory, QA_OUTPUTS));
      return 0;
    },
  },
  verify: {
    positionals: 1,
    summary: "prove offline that a published results directory follows from its rows",
    usage: "deermem-eval verify RESULTS_DIR [--dataset PATH] [protocol flags]",
    help:
      `Reads RESULTS_DIR (qa.rows.jsonl, qa.summary.json, qa.stats.json, qa_run.json) and lists each check with its
verdict: the rows' schema, QA capacity and grader version; one row per (case, policy) with the capacity's kept
facts; qa.rows.jsonl byte for byte the canonical serialisation of its rows; qa.summary.json and qa.stats.json
re-derived byte for byte; the run marker as grade-qa checks it. Without --dataset the closing line says that
predictions and grades are not re-derived. With --dataset it rebuilds the tasks and re-derives every row's
identity, kept facts, fingerprint, question type, support fields, grade and rule; prediction text, usage,
attempts and response_model are recorded, not re-derivable. Writes nothing; no network. Exit 0 only when every
check run holds.
  --dataset PATH   the pinned dataset, for the per-row checks${PROTOCOL_FLAGS}`,
    run: async (flags, positionals, io) => {
      const directory = positionals[0];
      if (directory === undefined) throw new InputError("verify needs a results directory");
      const { formatVerifyResult, verify } = await import("./lib/verify/qa_run.ts");
      const result = await verify({ contracts: contractPaths(flags), directory, dataset: flags.dataset });
      io.out(formatVerifyResult(result));
      return result.ok ? 0 : 1;
    },
  },
  demo: {
    summary:
      "run validate-contracts, validate and run-policy on a generated synthetic dataset (not LongMemEval)",
    usage: "deermem-eval demo [--output-dir DIR]",
    help:
      `Shows the offline stages end to end without the pinned dataset: checks the embedded contracts, generates a
synthetic LongMemEval-shaped dataset (no LongMemEval text) with a demo protocol pinned to it, then validates it
and runs both policies into a fresh temporary directory (or --output-dir DIR); ends with the policy report of
that run (as \`report\` prints it, every row recomputed). No network.`,
    run: async (flags, _positionals, io) => {
      const directory = flags["output-dir"] ?? await Deno.makeTempDir({ prefix: "deermem-eval-demo-" });
      const { runDemo } = await import("./lib/commands/demo.ts");
      await runDemo(directory, SOURCE_STATE, io.out);
      return 0;
    },
  },
  report: {
    summary: "show a verified run: suites, scenarios, retention, discordant cases, tokens, provenance",
    usage:
      "deermem-eval report DIR [--dataset PATH] [--against OTHER] [--markdown FILE] [--html FILE] [--price-input USD --price-output USD] [protocol flags]",
    help:
      `Reads DIR — a QA results directory (qa.rows.jsonl, qa.summary.json, qa.stats.json, optional qa_run.json) or
a policy run (policy.raw.jsonl, summary.json, run.json) — and first runs the same checks as \`verify\`: if any
fails it refuses, printing them. Then it prints, from the verified files through the library's own functions:
the suites (official, synthetic, overall: correct per policy, discordant counts, exact McNemar p, the bootstrap
difference hybrid-v1 − confidence and its interval), the scenario breakdown, accuracy with the support retained
and lost, the discordant cases, the token bill and provenance. For a policy run: support retained per capacity,
scenario and policy, and the cases where the policies keep different supports. For a sweep directory
(sweep.json, sweep.jsonl): the best and worst grid points, with --html the heat map over the weight simplex.
No network.
  --dataset PATH        the pinned dataset: also re-derive every row (as verify --dataset)
  --against OTHER       compare with another run of the same kind: aggregate, row and byte layers
  --markdown FILE       also write the report as GitHub-flavoured Markdown
  --html FILE           also write one self-contained HTML file (inline CSS and SVG charts)
  --price-input USD     USD per million prompt tokens     (the two together add the cost)
  --price-output USD    USD per million completion tokens
Refuses to overwrite FILE; both files are written or neither.${PROTOCOL_FLAGS}`,
    positionals: 1,
    run: async (flags, positionals, io) => {
      const directory = onlyPositional(positionals, "run directory", "report");
      const prices = price(flags);
      const { NotVerifiedError, report: reportStage, reportText, sectionsText, verificationLines } =
        await import(
          "./lib/report/report.ts"
        );
      const { reportMarkdown, sectionsMarkdown, sweepMarkdown } = await import("./lib/report/markdown.ts");
      const { reportHtml, sectionsHtml, sweepHtml } = await import("./lib/report/html.ts");
      let result;
      try {
        result = await reportStage({
          contracts: contractPaths(flags),
          directory,
          against: flags.against,
          dataset: flags.dataset,
          prices,
        });
      } catch (error) {
        if (!(error instanceof NotVerifiedError)) throw error;
        for (const line of verificationLines(error.verification)) io.err(line);
        io.err(`deermem-eval report: ${error.message}`);
        return 1;
      }
      if (result.kind === "sweep") {
        const { sweep } = result;
        io.out(sweep.lines.join("\n"));
        const files: [string, () => string][] = [];
        if (flags.markdown !== undefined) files.push([flags.markdown, () => sweepMarkdown(directory, sweep)]);
        if (flags.html !== undefined) files.push([flags.html, () => sweepHtml(directory, sweep)]);
        await writeReportFiles(files, io);
        return 0;
      }
      const { report, against: other, contracts } = result;
      const files: [string, () => string][] = [];
      if (other === undefined) {
        io.out(reportText(report));
        if (flags.markdown !== undefined) files.push([flags.markdown, () => reportMarkdown(report)]);
        if (flags.html !== undefined) files.push([flags.html, () => reportHtml(report)]);
      } else {
        const { compareRuns, comparisonHeading, comparisonSections } = await import(
          "./lib/report/compare.ts"
        );
        const comparison = await compareRuns(report, other, contracts);
        const heading = comparisonHeading(comparison);
        const sections = comparisonSections(comparison);
        io.out(sectionsText(heading, sections));
        if (flags.markdown !== undefined) {
          files.push([flags.markdown, () => sectionsMarkdown(heading, sections)]);
        }
        if (flags.html !== undefined) files.push([flags.html, () => sectionsHtml(heading, sections)]);
      }
      await writeReportFiles(files, io);
      return 0;
    },
  },
  explain: {
    summary: "show why each policy keeps or evicts every fact of one case's pool",
    usage: "deermem-eval explain CASE_ID --dataset PATH [--output-dir QA_DIR] [--show-text] [protocol flags]",
    help:
      `Rebuilds CASE_ID's pool from the pinned dataset and prints, for every fact: its id, role (support or
distractor) and category, every score component and the score under both policies, its rank, and whether it
is kept or evicted at every capacity — so a reader sees why a policy lost the support. Writes nothing; no
network.
  --dataset PATH        longmemeval_oracle.json (default: $LONGMEMEVAL_ORACLE_PATH)
  --output-dir QA_DIR   also show both predictions and their grades (qa.rows.jsonl, else the row files)
  --show-text           also print the facts' text, the question and the reference answer (terminal only;
                        the dataset's text is never written to a file)${PROTOCOL_FLAGS}`,
    positionals: 1,
    run: async (flags, positionals, io) => {
      const caseId = onlyPositional(positionals, "case id", "explain");
      if (flags.markdown !== undefined || flags.html !== undefined) {
        throw new InputError("explain writes no files (the dataset's text is not ours to redistribute)");
      }
      const { explain, explainText } = await import("./lib/report/explain.ts");
      const explanation = await explain({
        contracts: contractPaths(flags),
        dataset: await datasetPath(flags, io),
        caseId,
        directory: flags["output-dir"],
      });
      io.out(explainText(explanation, { showText: flags["show-text"] ?? false }));
      return 0;
    },
  },
  conformance: {
    positionals: 1,
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
      const { formatConformance, runConformance } = await import("./lib/conformance/conformance.ts");
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

/** The same io with the key's text replaced by `[redacted]` in every line. */
function redactingIo(io: Io, secret: string, redact: (text: string, secret: string) => string): Io {
  return {
    ...io,
    out: (line) => io.out(redact(line, secret)),
    err: (line) => io.err(redact(line, secret)),
    live: io.live && { update: (text) => io.live!.update(redact(text, secret)), done: io.live.done },
  };
}

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
      if (event.kind === "warning") {
        io.err(`warning: ${event.message}`);
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
  let parsed;
  try {
    parsed = parseFlags(args, OPTIONS);
  } catch (error) {
    io.err(`deermem-eval: ${(error as Error).message}`);
    return 2;
  }
  const flags: Flags = parsed.values;
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
  if (positionals.length > (command.positionals ?? 0)) {
    const extra = positionals.slice(command.positionals ?? 0).map((word) => JSON.stringify(word)).join(" ");
    io.err(`deermem-eval ${name}: unexpected argument(s) ${extra} (usage: ${command.usage})`);
    return 2;
  }
  if (!command.network) {
    // Offline commands give up the network before any work, so not even a bug can reach it.
    await Deno.permissions.revoke({ name: "net" });
  }
  try {
    return await command.run(flags, positionals, io);
  } catch (error) {
    const { code, lines } = describeFailure(name, error, isDebug(io));
    for (const line of lines) io.err(line);
    return code;
  }
}

function isDebug(io: Io): boolean {
  try {
    const value = io.env(DEBUG_ENV);
    return value !== undefined && value !== "" && value !== "0";
  } catch {
    // Without env permission for it, the variable reads as unset.
    return false;
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
  // Not Deno.exit(): a normal exit lets Deno write the code cache that makes the next start fast.
  Deno.exitCode = await main(Deno.args);
}
