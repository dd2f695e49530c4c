/**
 * `validate`: the dataset's pin, the official selection recomputed, all 45 cases built, and how many cases the
 * selection rule finds eligible in the whole dataset.
 *
 * @module
 */

import { eligibleLine, validatedLine } from "../protocol/mod.ts";
import { defineCommand, writeDocument } from "./_command.ts";
import { DATASET_FLAG, PROTOCOL_FLAGS } from "./_flags.ts";
import { protocolArgs } from "./_protocol_source.ts";
import { loadProtocol } from "./_protocol.ts";

/** The `validate` command. */
export const command = defineCommand({
  name: "validate",
  summary: "verify the dataset's SHA-256, recompute the official selection and build all 45 cases",
  description:
    `Checks the dataset file's SHA-256 against the config's pin (before parsing it), recomputes the 40 official
IDs from the selection rule and compares them with the manifest, builds the distractor bank and all cases,
and prints how many official cases the rule finds eligible in the whole dataset, per question type, beside
how many the manifest takes of each. Writes nothing; no network.`,
  flags: {
    ...DATASET_FLAG,
    json: {
      type: "boolean",
      help: "print the dataset's SHA-256, the prepared cases and the eligible counts as one JSON document",
    },
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, io }) {
    const { prepared } = await loadProtocol(...await protocolArgs(flags, io));
    const take = prepared.contracts.official.selection.take_per_question_type;
    if (flags.json) {
      const cases = prepared.cases.map(({ caseId, source, scenario }) => ({
        case_id: caseId,
        source,
        scenario,
      }));
      const { byType, total } = prepared.eligible;
      const eligible = { by_type: byType, total, taken_per_type: take };
      writeDocument(
        io,
        JSON.stringify({ dataset_sha256: prepared.dataset.sha256, cases, eligible }, null, 2),
      );
      return;
    }
    io.out(validatedLine(prepared));
    io.out(eligibleLine(prepared.eligible, take));
  },
});
