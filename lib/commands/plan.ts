/**
 * `plan`: from a graded run's own discordance, the exact McNemar power at its case count for an accuracy
 * difference, the cases a target power needs, the smallest difference it detects, and what a run of that size
 * costs.
 *
 * @module
 */

import { CommandFailedError, exists, InputError, RunFiles, visible } from "../base/mod.ts";
import { refuseOtherProtocol, verifyQaRun } from "../verify/mod.ts";
import {
  epochRunDirectories,
  type GradedRow,
  plan,
  planLines,
  type PlanQuestion,
  qaStatsSuites,
  SUITE_ROWS,
} from "../qa/mod.ts";
import {
  type Contracts,
  embeddedOr,
  pinnedEligibleBound,
  prepareDataset,
  readContracts,
  withPublishedRun,
} from "../protocol/mod.ts";
import { defineCommand, type Io, writeDocument } from "./_command.ts";
import { DATASET_FLAG, PRICE_FLAGS, pricePair, PROTOCOL_FLAGS } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";

/** The suites `plan --suite` takes, by the name reports print, and their `qa.stats.json` key. */
const SUITES = { longmemeval: "official", synthetic: "synthetic", overall: "overall" } as const;

const UNIT = { type: "number", min: 0, max: 1, minExclusive: true } as const;

/** The `plan` command. */
export const command = defineCommand({
  name: "plan",
  summary: "how many cases a run needs to detect an accuracy difference, from a graded run's discordance",
  positionals: [{ name: "RUN_DIR" }],
  description:
    `Verifies RUN_DIR (a graded QA run) as verify does without the dataset, takes the suite's discordance
ψ (cases where exactly one policy is right, over its cases) and prints the exact power of the two-sided exact
McNemar test at the run's case count for the accuracy difference --effect (enumerated: discordant pairs
Binomial(n, ψ), the candidate's share of them Binomial(d, (ψ + D) / 2ψ), rejected where the exact p ≤ alpha),
the smallest case count whose exact power reaches --power, and the smallest difference the run's case count
detects. With the prices, what a run of the needed size costs: both policies, --epochs times, each call at the
run's mean recorded prompt tokens and every completion at the config's max_tokens (run-qa's worst case). With
a dataset (--dataset, the protocol directory's own, or $LONGMEMEVAL_ORACLE_PATH), whether the needed cases fit
in the official cases the manifest's selection rule finds eligible in it (--json: eligible). Without one, on
a protocol of the pinned dataset, whether they fit in its public upper bound (LongMemEval's oracle file: 72
knowledge-update + 127 temporal-reasoning non-abstention questions before the length filters, at most 199
eligible; --json: eligible_upper_bound). An effect above ψ and a suite with no discordant case are refused.
On a K-run directory (run-qa --epochs K) ψ is run 1's, and the first line says so (--json:
discordance_of_run).
results/pr4789-reproduction-v1, where no such directory is, is the published run embedded in this program.
Writes nothing; no network.`,
  flags: {
    effect: {
      ...UNIT,
      of: "accuracy difference",
      value: "D",
      required: true,
      help: "the accuracy difference to detect, in (0, 1]",
    },
    power: { ...UNIT, max: 0.999, of: "power", value: "P", help: "the target power (default 0.8)" },
    alpha: {
      ...UNIT,
      max: 0.5,
      of: "significance level",
      value: "A",
      help: "the significance level (default 0.05)",
    },
    suite: {
      type: "choice",
      choices: Object.keys(SUITES),
      value: "SUITE",
      help: "the suite whose discordance is used (default longmemeval)",
    },
    epochs: {
      type: "integer",
      of: "epochs",
      min: 1,
      max: 100,
      value: "K",
      help: "runs of both policies (default 1)",
    },
    ...PRICE_FLAGS,
    json: {
      type: "boolean",
      help: "print cases, discordance, power_at_cases, cases_needed, mde (cost_usd, eligible…) as JSON",
    },
    ...DATASET_FLAG,
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, positionals, io }) {
    const named = positionals[0];
    if (flags.effect === undefined) {
      throw new InputError("needs --effect D (the accuracy difference to detect)");
    }
    const effect = flags.effect;
    const body = async (directory: string): Promise<void> => {
      const prices = pricePair(flags);
      const source = await protocolSource(flags, io, directory);
      const contracts = await readContracts(source.contracts);
      const rows = await verifiedRows(new RunFiles(directory), contracts, io);
      const suite = flags.suite ?? "longmemeval";
      const key = SUITES[suite as keyof typeof SUITES];
      const { cases, mcnemar } = qaStatsSuites(rows, contracts.config)[key];
      const suiteRows = rows.filter(SUITE_ROWS[key]);
      const question: PlanQuestion = {
        suite,
        cases,
        discordant: mcnemar.only_first_correct + mcnemar.only_second_correct,
        effect,
        power: flags.power ?? 0.8,
        alpha: flags.alpha ?? 0.05,
        epochs: flags.epochs ?? 1,
        promptTokens: suiteRows.reduce((sum, row) => sum + (row.usage.prompt_tokens ?? 0), 0) /
          Math.max(1, suiteRows.length),
        maxTokens: contracts.config.qa.max_tokens,
        prices,
      };
      const result = plan(question);
      const runs = (await epochRunDirectories(directory)).length;
      if (runs > 1) result.discordance_of_run = { run: 1, of: runs };
      if (source.dataset !== undefined) {
        result.eligible = (await prepareDataset(contracts, source.dataset)).eligible.total;
      } else {
        const bound = pinnedEligibleBound(contracts);
        if (bound !== undefined) result.eligible_upper_bound = bound;
      }
      if (flags.json) {
        writeDocument(io, JSON.stringify(result, null, 2));
        return;
      }
      for (const line of planLines(question, result)) io.out(line);
    };
    // results/pr4789-reproduction-v1 outside the checkout (the bundle) is the embedded published run.
    if (await embeddedOr(named) === undefined) return await withPublishedRun(body);
    if (!await exists(named)) throw new InputError("results directory not found", { path: named });
    return await body(named);
  },
});

/** The run's graded rows, once its structure and statistics verify; refused otherwise (exit 1). */
async function verifiedRows(files: RunFiles, contracts: Contracts, io: Io): Promise<GradedRow[]> {
  await refuseOtherProtocol(files, contracts);
  const { result, rows } = await verifyQaRun(files, contracts);
  if (!result.ok || rows === undefined) {
    const where = visible(files.directory);
    io.err(`plan: ${where} does not verify (${result.conclusion}); see deermem-eval verify ${where}`);
    throw new CommandFailedError("a check does not hold");
  }
  return rows;
}
