/**
 * `validate`: the dataset's pin, the official selection recomputed, all 45 cases built.
 *
 * @module
 */

import { validatedLine } from "../protocol/mod.ts";
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
IDs from the selection rule and compares them with the manifest, builds the distractor bank and all cases.
Writes nothing; no network.`,
  flags: {
    ...DATASET_FLAG,
    json: {
      type: "boolean",
      help: "print the dataset's SHA-256 and the prepared cases as one JSON document",
    },
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, io }) {
    const { prepared } = await loadProtocol(...await protocolArgs(flags, io));
    if (flags.json) {
      const cases = prepared.cases.map(({ caseId, source, scenario }) => ({
        case_id: caseId,
        source,
        scenario,
      }));
      writeDocument(io, JSON.stringify({ dataset_sha256: prepared.dataset.sha256, cases }, null, 2));
      return;
    }
    io.out(validatedLine(prepared));
  },
});
