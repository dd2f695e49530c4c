/**
 * The sweep layer's public surface.
 *
 * @module
 */

export { runSweep, type SweepResult } from "./engine.ts";
export { defaultGrid, MAX_GRID_POINTS, parseGrid, simplexWeights, type SweepGrid } from "./grid.ts";
export { placePublished, shortfallsAt } from "./neighbourhood.ts";
export {
  SWEEP_RECORD_VERSION,
  sweepJsonl,
  sweepJsonlChunks,
  sweepJsonlSha256,
  sweepRecord,
  sweepRecordOf,
} from "./outputs.ts";
export { parametersAt } from "./parameters.ts";
export { recordedGrid, sweepResultOf } from "./read_back.ts";
export { SweepRecordFields, SweepRow } from "./record_schema.ts";
export { sweepSummaryLines } from "./summary.ts";
export { SWEEP_OUTPUTS, writeSweepFiles } from "./sweep.ts";
