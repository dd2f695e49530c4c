/**
 * `explain`: why each policy keeps or evicts every fact of one case's pool.
 *
 * @module
 */

import { InputError } from "../base/mod.ts";
import { candidateView, explainCase, explainText, readCaseAnswers } from "../report/mod.ts";
import { POLICIES } from "../policy/mod.ts";
import { policyPair } from "../qa/mod.ts";
import {
  candidateOnCase,
  loadCandidate,
  moduleRequest,
  POLICY_MODULE_FLAG,
  refuseCandidateWithoutModule,
  runCandidateHooks,
} from "./_candidate.ts";
import { defineCommand } from "./_command.ts";
import { recogniseRun } from "./_run_kinds.ts";
import { DATASET_FLAG, PROTOCOL_FLAGS } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";
import { loadProtocol } from "./_protocol.ts";

/** The `explain` command. */
export const command = defineCommand({
  name: "explain",
  summary: "show why each policy keeps or evicts every fact of one case's pool",
  positionals: [{ name: "CASE_ID" }],
  description:
    `Rebuilds CASE_ID's pool from the pinned dataset and prints, for every fact: its id, role (support or
distractor) and category, every score component and the score under both policies, its rank, and whether it
is kept or evicted at every capacity — so a reader sees why a policy lost the support. With --policy-module,
also the candidate's score, rank and kept marks beside its baseline (the one QA_DIR's run records, else
confidence), and with QA_DIR the candidate's and the baseline's answers. Writes nothing (the dataset's text is
not ours to redistribute); no network.`,
  flags: {
    ...DATASET_FLAG,
    "output-dir": {
      type: "string",
      value: "QA_DIR",
      help: "also show both predictions and their grades (qa.rows.jsonl, else the row files)",
    },
    "show-text": {
      type: "boolean",
      help: "also print the facts' text, the question and the reference answer (refused unless\n" +
        "standard output is a terminal: the dataset's text is never written to a file or a pipe)",
    },
    ...POLICY_MODULE_FLAG,
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, positionals, io }) {
    const caseId = positionals[0];
    if (caseId === undefined) throw new InputError("explain needs exactly one case id, got 0");
    // The dataset's text is not ours to redistribute: it goes to a person's terminal, never a file or a pipe.
    if (flags["show-text"] === true && io.terminal !== true) {
      throw new InputError(
        "--show-text prints the dataset's text to a terminal only, and standard output is not one " +
          "(a file or a pipe); run it without redirecting, or leave out --show-text",
      );
    }
    const directory = flags["output-dir"];
    const module = moduleRequest(flags);
    if (directory !== undefined && (await recogniseRun(directory, "list"))?.explain === "refused") {
      throw new InputError(
        "is a policy run (policy.raw.jsonl), and --output-dir reads a QA run's answers: leave it out (explain " +
          "recomputes every policy's decisions; --policy-module M adds a module's)",
        { path: directory },
      );
    }
    // A candidate's answers are read beside its decisions: its run is explained only with its module.
    await refuseCandidateWithoutModule(directory, module);
    // With a QA directory the module is held to its run (and the baseline read there); alone, against confidence.
    const hooks = runCandidateHooks(directory === undefined ? undefined : module, directory);
    const source = await protocolSource(flags, io, directory);
    const { contracts, prepared } = await loadProtocol(source.contracts, source.dataset, {
      beforeDataset: hooks.beforeDataset,
    });
    const explanation = explainCase(prepared.cases, caseId, contracts.config);
    const stage = module === undefined
      ? undefined
      : hooks.candidate() ?? { loaded: await loadCandidate(module), baseline: POLICIES[0] };
    if (stage !== undefined) {
      const results = await candidateOnCase(stage.loaded, prepared, caseId);
      explanation.candidate = candidateView(explanation, stage.baseline, results);
    }
    if (directory !== undefined) {
      const pair = policyPair(stage && { baseline: stage.baseline, policy: stage.loaded.identity.policy });
      explanation.answers = await readCaseAnswers(directory, explanation, contracts.config, pair);
    }
    io.out(explainText(explanation, { showText: flags["show-text"] ?? false, width: io.columns }));
  },
});
