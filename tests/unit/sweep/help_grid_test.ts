/**
 * The figures `sweep --help` states about the default grid come from the program: its lists are the default
 * grid of the embedded config, so the help cannot describe a grid the program no longer sweeps.
 */

import { command } from "../../../lib/commands/sweep.ts";
import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { defaultGrid } from "../../../lib/sweep/mod.ts";
import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";

Deno.test("sweep --help: the default grid's lists are the ones sweep evaluates without --grid", async () => {
  const { config } = await loadContracts(embeddedSources());
  const grid = defaultGrid(config);
  const help = command.description.replace(/\s+/g, " ");
  const listed = (key: string) => {
    const match = command.description.match(new RegExp(`^  ${key}: \\[([^\\]]*)\\]`, "m"));
    return match === null ? undefined : match[1].split(", ").map(Number);
  };
  assertEquals(listed("confirmation_half_life_days"), grid.confirmationHalfLifeDays);
  assertEquals(listed("access_half_life_days"), grid.accessHalfLifeDays);
  assertEquals(listed("correction_reserved_fraction"), grid.correctionReservedFraction);
  assertEquals(listed("correction_reserved_max"), grid.correctionReservedMax);
  assertEquals(listed("capacities"), grid.capacities);
  assertStringIncludes(help, `(${grid.weights.length} triples,`);
  assertStringIncludes(help, `weights_step: ${grid.weightStep} `);
});
