/**
 * `sweep`: hybrid-v1 over a grid of its parameters and capacities, against confidence, on every case.
 *
 * @module
 */

import { CONTRACT_CAP, readText } from "../base/mod.ts";
import {
  defaultGrid,
  parseGrid,
  runSweep,
  SWEEP_OUTPUTS,
  type SweepGrid,
  sweepJsonlChunks,
  sweepJsonlSha256,
  sweepRecord,
  sweepSummaryLines,
  writeSweepFiles,
} from "../sweep/mod.ts";
import { defineCommand, publishOptions } from "./_command.ts";
import { RUN_KIND_FILE, runKindRecord } from "./_run_kinds.ts";
import { refuseExistingOutputs } from "./_outputs.ts";
import { DATASET_FLAG, PROTOCOL_FLAGS, requiredDirectory, wroteLine } from "./_flags.ts";
import { protocolArgs } from "./_protocol_source.ts";
import { loadProtocol } from "./_protocol.ts";
import { countedProgress } from "./_progress.ts";
import { SOURCE_STATE } from "./_version.ts";

/** The `sweep` command. */
export const command = defineCommand({
  name: "sweep",
  summary: "hybrid-v1 over a grid of weights, half-lives, reserve and capacities against confidence",
  description:
    `Validates as \`validate\` does, then evaluates hybrid-v1 at every point of a parameter grid against confidence
on every case, with no model. The default grid (around the config's published parameters): weights every
multiple of 0.05 on the simplex (231 triples, each summing to 1 by the config's rule), each half-life at ½×, 1×
and 2× the published one, correction reserve fraction 0 and published, reserve cap published, capacities 1 to
the pool size. --grid FILE (YAML, read like the config) replaces any of these lists (the defaults shown):
  weights_step: 0.05                        # 1/n for a whole n ≤ 100
  confirmation_half_life_days: [45, 90, 180]
  access_half_life_days: [15, 30, 60]
  correction_reserved_fraction: [0, 0.1]
  correction_reserved_max: [10]
  capacities: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
Writes into DIR, all or nothing, never overwriting:
  sweep.jsonl  one metadata-only row per parameter set × capacity × scenario: the parameters, the cases, the
               supports each policy keeps and the difference
  sweep.json   the grid, the published parameters, the protocol's hashes, the tool version and the SHA-256
               of sweep.jsonl
Prints where the published parameters sit: their own result, the neighbourhood (reached one parameter step at a
time) in which hybrid-v1 keeps at least as many supports as confidence in every scenario at every capacity, and
the parameter sets that keep fewer in any, nearest first. No network.`,
  flags: {
    ...DATASET_FLAG,
    "output-dir": { type: "string", value: "DIR", help: "where to write", required: true },
    grid: { type: "string", value: "FILE", help: "the grid (YAML); default as above" },
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, io, seams }) {
    const directory = requiredDirectory(flags["output-dir"]);
    // An existing output refuses the sweep before anything is read (the publish refuses again if one appears).
    await refuseExistingOutputs(directory, [...SWEEP_OUTPUTS, RUN_KIND_FILE], publishOptions(io, seams));
    let grid: SweepGrid | undefined;
    const { contracts, prepared } = await loadProtocol(...await protocolArgs(flags, io), {
      // The grid is read before the dataset: a bad grid file is refused before the long work starts.
      beforeDataset: async ({ config }) => {
        grid = flags.grid === undefined
          ? defaultGrid(config)
          : parseGrid(await readText(flags.grid, "grid", CONTRACT_CAP), flags.grid, config);
      },
    });
    const progress = countedProgress(io, "sweep", "cases");
    const result = runSweep(prepared, grid!, progress.tick);
    progress.end();
    await writeSweepFiles(directory, {
      "sweep.jsonl": sweepJsonlChunks(result),
      "sweep.json": sweepRecord(
        result,
        contracts,
        prepared.dataset.sha256,
        SOURCE_STATE.tool!,
        await sweepJsonlSha256(result),
      ),
      [RUN_KIND_FILE]: runKindRecord("sweep"),
    }, publishOptions(io, seams));
    for (const line of sweepSummaryLines(result, contracts.config.pool.capacities)) io.out(line);
    io.out(wroteLine(directory, SWEEP_OUTPUTS));
  },
});
