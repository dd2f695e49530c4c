/**
 * What `report` reads of a sweep's output: the rows of `sweep.jsonl` and the parts of `sweep.json` it uses
 * (the sweep layer's schemas, which `verify` reads them with).
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import { SweepRow } from "../../sweep/mod.ts";

export { SweepRow };

/** The parts of `sweep.json` the report reads. */
export const SweepRecordHead = z.object({
  protocol_id: z.string(),
  tool: z.string(),
  rows: z.number().check(z.int("must be an integer"), z.minimum(0, "must be ≥ 0")),
  grid: z.object({ weights_step: z.number().check(z.gt(0, "must be > 0")), capacities: z.array(z.number()) }),
  published: SweepRow.shape.parameters,
  dataset: z.optional(z.object({ sha256: z.string() })),
});

/** The parts of `sweep.json` the report reads. */
export type SweepRecordHead = z.infer<typeof SweepRecordHead>;
