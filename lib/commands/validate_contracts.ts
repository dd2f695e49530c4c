/**
 * `validate-contracts`: the protocol's config, manifests and answer prompt agree and match their pins.
 *
 * @module
 */

import { contractsLine, validateContracts } from "../protocol/mod.ts";
import { defineCommand } from "./_command.ts";
import { PROTOCOL_FLAGS } from "./_flags.ts";
import { protocolSource } from "./_protocol_source.ts";

/** The `validate-contracts` command. */
export const command = defineCommand({
  name: "validate-contracts",
  summary: "check the config, both manifests and the answer prompt agree and match their pins",
  description:
    `Reads the protocol contracts (no dataset, no network) and checks: one protocol id across all three,
the grader version and policy version this program implements, and the answer prompt's pinned SHA-256.
Writes nothing.`,
  flags: PROTOCOL_FLAGS,
  async run({ flags, io }) {
    io.out(contractsLine(await validateContracts((await protocolSource(flags, io)).contracts)));
  },
});
