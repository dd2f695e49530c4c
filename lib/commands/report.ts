/**
 * `report`: a verified run shown for people — on the terminal, and as Markdown or HTML on request.
 *
 * @module
 */

import { CommandFailedError, GRADED_ROWS_CAP, InputError, RunFiles, visible } from "../base/mod.ts";
import { NotVerifiedError } from "../verify/mod.ts";
import { POLICIES } from "../policy/mod.ts";
import { buildAnswerTasks, type EpochStats, epochStats, type GradedRow } from "../qa/mod.ts";
import {
  compareRuns,
  comparisonHeading,
  comparisonSections,
  type Notice,
  noticesText,
  type Prices,
  publishedComparisonHeading,
  publishedComparisonSections,
  type QaReport,
  readPublishedComparison,
  readSweepReport,
  reportHtml,
  reportJson,
  reportMarkdown,
  reportNotices,
  reportRuns,
  reportText,
  type RunReport,
  type RunsRequest,
  type Section,
  sectionsHtml,
  sectionsMarkdown,
  sectionsText,
  sweepHtml,
  sweepMarkdown,
  sweepReportJson,
  type Verification,
  verificationLines,
} from "../report/mod.ts";
import {
  embeddedOr,
  PUBLISHED_FILES,
  PUBLISHED_RUN,
  readContracts,
  withPublishedRun,
} from "../protocol/mod.ts";
import { defineCommand, type FlagValues, type Io, type TestSeams, writeDocument } from "./_command.ts";
import { prepareStage, withTasks } from "./_protocol.ts";
import { timedStep } from "./_progress.ts";
import { recogniseRun, runKindNamed } from "./_run_kinds.ts";
import {
  datasetForRun,
  moduleRequest,
  POLICY_MODULE_FLAG,
  refuseModuleWithoutRun,
  runCandidateHooks,
} from "./_candidate.ts";
import { DATASET_FLAG, PRICE_FLAGS, pricePair, PROTOCOL_FLAGS } from "./_flags.ts";
import { type ProtocolSource, protocolSource } from "./_protocol_source.ts";
import {
  refuseReportTargets,
  REPORT_FILE_FLAGS,
  type ReportFile,
  toStandardOutput,
  writeReportFiles,
} from "./_report_files.ts";
import { reportManyCandidates } from "./_many_report.ts";
import { partialToReport, refuseUnsoundPartial } from "./_partial.ts";
import { gradedTasks } from "../verify/mod.ts";

const REPORT_FLAGS = {
  ...DATASET_FLAG,
  against: {
    type: "string",
    value: "OTHER",
    help: "compare with another run of the same kind: aggregate, row and byte layers",
  },
  ...REPORT_FILE_FLAGS,
  json: { type: "boolean", help: "print the report's data as one JSON document instead of the text" },
  ...PRICE_FLAGS,
  ...POLICY_MODULE_FLAG,
  ...PROTOCOL_FLAGS,
} as const;

/** The graded rows file, by which the published run is recognised. */
const GRADED_ROWS = "qa.rows.jsonl";

/** The `report` command. */
export const command = defineCommand({
  name: "report",
  summary: "show a verified run: suites, scenarios, retention, discordant cases, tokens, provenance",
  positionals: [{ name: "DIR", optional: true, repeats: true }],
  description:
    `Without DIR (or with results/pr4789-reproduction-v1 where no such directory is), reports the published run
embedded in this program.
Reads DIR — a QA results directory (qa.rows.jsonl, qa.summary.json, qa.stats.json, optional qa_run.json) or
a policy run (policy.raw.jsonl, summary.json, run.json) — and first runs the same checks as \`verify\`: if any
fails it refuses, printing them. Then it prints, from the verified files through the library's own functions:
the suites (official, synthetic, overall: correct per policy, discordant counts, exact McNemar p and its mid-p,
the bootstrap difference hybrid-v1 − confidence and its interval), the scenario breakdown, accuracy with the
support retained and lost, the discordant cases, the token bill and provenance. For a policy run: support retained per capacity,
scenario and policy, and the cases where the policies keep different supports. For a sweep directory
(sweep.json, sweep.jsonl), verified as \`verify\` does (with --dataset every row recomputed): the best and worst
grid points, with --html the heat map over the weight simplex.
With --json, the same data as one JSON document on standard output (keys in the README; the Markdown and
HTML files are still written when asked for). Refuses to overwrite FILE; both files are written or neither. No
network.
With several DIRs — candidate runs (run-qa --policy-module, then grade-qa) of one protocol and one baseline —
one table: each candidate against the baseline (a/n, exact McNemar p — for a K-run directory the exact
sign-flip p over its cases, K runs each — Holm-adjusted p across the candidates, the seeded bootstrap
difference and interval), and under the published protocol against the published hybrid-v1 on the cases they
share; the best-supported candidate first (improvements, then by Holm p). It opens with the notices, the
verdict (which candidates beat the baseline after Holm at the protocol's alpha) and what was checked. Every run
(each of a K-run directory's) must pass verify's structure-and-statistics checks; runs of another protocol or
baseline are refused in one line; --dataset, --against, --policy-module and the prices report one run and are
refused there.`,
  flags: REPORT_FLAGS,
  async run({ flags, positionals, io, seams }) {
    if (positionals.length > 1) {
      const { contracts } = await protocolSource(flags, io, positionals[0]);
      return await reportManyCandidates(positionals, contracts, flags, io, seams);
    }
    const directory = await embeddedOr(positionals[0]);
    const prices = pricePair(flags);
    refuseJsonConflicts(flags);
    await refuseReportTargets(flags);
    if (directory === undefined) {
      refuseModuleWithoutRun(moduleRequest(flags)?.path);
      await withPublishedRun((published) => reportRun(published, PUBLISHED_RUN, prices, flags, io, seams));
      return;
    }
    const against = flags.against;
    if (against !== undefined && await embeddedOr(against) === undefined) {
      // The published run is embedded: compared with wherever this program runs.
      await withPublishedRun((published) =>
        reportRun(directory, directory, prices, flags, io, seams, published)
      );
      return;
    }
    await reportRun(directory, directory, prices, flags, io, seams, against);
  },
});

/**
 * The runs after the first that `kind` holds (a K-run directory's 2…K), each verified and reported as run 1
 * was, and the case-level verdict of the K runs; nothing for one run.
 */
async function epochsOf(
  report: RunReport,
  directories: readonly string[],
  request: Omit<RunsRequest, "directory">,
): Promise<{ epochs?: EpochStats }> {
  if (directories.length === 1) return {};
  // Only a QA-shaped entry holds more than one run.
  const first = report as QaReport;
  const rows = [first.rows];
  for (const other of directories.slice(1)) {
    const { report: run } = await reportRuns({ ...request, directory: other });
    rows.push(run.rows as GradedRow[]);
  }
  return { epochs: epochStats(rows, request.contracts.config, first.policies) };
}

/** Reports the run in `directory` (a QA run, a policy run or a sweep), named `name` in the heading. */
async function reportRun(
  directory: string,
  name: string,
  prices: Prices | undefined,
  flags: FlagValues<typeof REPORT_FLAGS>,
  io: Io,
  seams: TestSeams,
  against: string | undefined = flags.against,
): Promise<void> {
  refuseJsonConflicts(flags);
  const source = await protocolSource(flags, io, directory);
  const partial = await partialToReport(directory, against);
  const kind = await recogniseRun(directory, "list") ?? runKindNamed("qa");
  if (kind.report === "sweep") {
    await reportSweep(directory, source, flags, io, seams);
    return;
  }
  const contracts = await readContracts(source.contracts);
  // Each file of either run is read once, here or by the checks, and what they verified is what is shown.
  const held = new RunFiles(directory);
  const other = against === undefined ? undefined : against === directory ? held : new RunFiles(against);
  const hooks = runCandidateHooks(moduleRequest(flags), held);
  await hooks.beforeDataset(contracts);
  const dataset = await datasetForRun(held, moduleRequest(flags), flags.dataset, source.dataset);
  const stage = dataset === undefined ? undefined : await timedStep(
    io,
    "report",
    "preparing the dataset",
    "dataset prepared",
    "cases",
    async () => await withTasks(await prepareStage(contracts, dataset), hooks.candidate()),
    (prepared) => prepared.prepared.cases.length,
  );
  if (partial !== undefined) await refuseUnsoundPartial(io, partial, stage?.tasks);
  // A partial run is re-derived on the tasks its grading holds (its complete pairs).
  const recomputed = stage &&
    { cases: stage.prepared.cases, tasks: partial ? gradedTasks(partial, stage.tasks) : stage.tasks };
  const candidate = hooks.recorded();
  // The other run of a candidate's report compares the published pair: its tasks are those of the protocol.
  const againstRecomputed = stage && candidate &&
    { cases: stage.prepared.cases, tasks: await buildAnswerTasks(contracts, stage.prepared.cases) };
  const runs = await refusingUnverified(
    io,
    () =>
      reportRuns({
        contracts,
        directory: partial === undefined ? held : partial.grading,
        against: other,
        recomputed,
        prices,
        candidate,
        againstRecomputed,
        module: hooks.policyRun(),
      }),
  );
  const files: ReportFile[] = [];
  const ask = (flag: ReportFile["flag"], path: string | undefined, render: () => string) => {
    if (path !== undefined) files.push({ flag, path, render });
  };
  // The answers' models, of both runs compared: a stand-in's answers say so, on any data.
  const models = [runs.report, runs.against].flatMap((run) =>
    run?.kind === "qa" ? run.rows.map((row) => row.response_model) : []
  );
  const notices = await reportNotices(contracts, { partial, responseModels: models });
  // A comparison's heading and sections: the text printed, the Markdown and HTML files asked for.
  const sectionsDocument = (heading: string, sections: Section[]): string => {
    ask("--markdown", flags.markdown, () => sectionsMarkdown(heading, sections, [], notices));
    ask("--html", flags.html, () => sectionsHtml(heading, sections, undefined, { notices }));
    return sectionsText(heading, sections, undefined, io.columns, [], notices);
  };
  let text: string;
  if (runs.against === undefined) {
    const epochs = await epochsOf(runs.report, await kind.runs(held), {
      contracts,
      recomputed: stage && { cases: stage.prepared.cases, tasks: stage.tasks },
      prices,
      candidate,
    });
    const run = { ...runs.report, ...epochs, directory: name };
    text = flags.json
      ? JSON.stringify(reportJson(run, notices), null, 2)
      : reportText(run, io.columns, notices);
    ask("--markdown", flags.markdown, () => reportMarkdown(run, notices));
    ask("--html", flags.html, () => reportHtml(run, notices));
  } else if (isCandidateRun(runs.report) && runs.against.kind === "qa" && !isCandidateRun(runs.against)) {
    // "The published run" only when its rows are the published ones, byte for byte; any other is named as a run.
    const rows = await (runs.against as RunReport).files.text(GRADED_ROWS, "graded rows", GRADED_ROWS_CAP);
    const isPublished = rows === PUBLISHED_FILES[GRADED_ROWS];
    const comparison = readPublishedComparison(
      runs.report,
      runs.against,
      contracts.config.statistics,
      isPublished,
    );
    const named = { ...comparison, other: flags.against ?? comparison.other };
    text = sectionsDocument(publishedComparisonHeading(named), publishedComparisonSections(named));
  } else {
    const comparison = await compareRuns(runs.report, runs.against);
    text = sectionsDocument(comparisonHeading(comparison), comparisonSections(comparison));
  }
  if (!toStandardOutput(files)) printText(io, text, flags.json);
  await writeReportFiles(files, io, seams, flags.json);
}

/** The report on standard output: JSON as a document (never wrapped or styled), text fitted to the terminal. */
function printText(io: Io, text: string, json: boolean | undefined): void {
  if (json) writeDocument(io, text);
  else io.out(text);
}

/** A sweep directory: verified and reported from sweep.json and sweep.jsonl (with --dataset, every row recomputed). */
async function reportSweep(
  directory: string,
  source: ProtocolSource,
  flags: FlagValues<typeof REPORT_FLAGS>,
  io: Io,
  seams: TestSeams,
): Promise<void> {
  const foreign = flags.against ?? flags["price-input"] ?? flags["price-output"] ?? flags["policy-module"] ??
    flags["policy-time-limit"];
  if (foreign !== undefined) {
    throw new InputError(
      "a sweep directory is reported from sweep.json and sweep.jsonl: --against, the prices and " +
        "--policy-module do not apply",
      { path: directory },
    );
  }
  const contracts = await readContracts(source.contracts);
  // Only a dataset the user typed (or the protocol directory keeps) re-runs the sweep; not the environment's.
  const dataset = flags.dataset ?? source.keptDataset;
  const stage = dataset === undefined ? undefined : await prepareStage(contracts, dataset);
  // A large sweep takes seconds to read and verify: a terminal shows the step live, then its time.
  const sweep = await refusingUnverified(io, () =>
    timedStep(
      io,
      "report",
      "reading and verifying the sweep",
      "sweep verified",
      "grid points",
      () => readSweepReport(directory, contracts, stage?.prepared.cases),
      (report) => report.summary.gridPoints,
    ));
  // The sweep's own record says which data it was made on, whichever protocol reads it.
  const notices: Notice[] = await reportNotices(contracts, { datasetSha256: sweep.datasetSha256 });
  const files: ReportFile[] = [];
  if (flags.markdown !== undefined) {
    files.push({
      flag: "--markdown",
      path: flags.markdown,
      render: () => sweepMarkdown(directory, sweep, notices),
    });
  }
  if (flags.html !== undefined) {
    files.push({ flag: "--html", path: flags.html, render: () => sweepHtml(directory, sweep, notices) });
  }
  const text = flags.json
    ? JSON.stringify(sweepReportJson(directory, sweep, notices), null, 2)
    : [...noticesText(notices), ...sweep.lines].join("\n");
  if (!toStandardOutput(files)) printText(io, text, flags.json);
  await writeReportFiles(files, io, seams, flags.json);
}

/** Runs `build`; a directory that does not verify is refused with its checks on standard error. */
async function refusingUnverified<T>(io: Io, build: () => Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (!(error instanceof NotVerifiedError)) throw error;
    for (const line of verificationLines(error.verification as Verification)) io.err(line);
    io.err(`deermem-eval report: ${visible(error.message)}`);
    throw new CommandFailedError(error.message);
  }
}

/** --json is one document on standard output: not with --against, nor with another document there. */
function refuseJsonConflicts(flags: FlagValues<typeof REPORT_FLAGS>): void {
  if (!flags.json) return;
  if (flags.against !== undefined) {
    throw new InputError("--json reports one run; --against compares in text, Markdown and HTML");
  }
  if (flags.markdown === "-" || flags.html === "-") {
    throw new InputError("--json prints to standard output, which --markdown - or --html - would share");
  }
}

/** A QA run of a candidate policy module (its second policy is not a published one). */
function isCandidateRun(report: RunReport): report is QaReport {
  return report.kind === "qa" && !(POLICIES as readonly string[]).includes(report.policies[1]);
}
