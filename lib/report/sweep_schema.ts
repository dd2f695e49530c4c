/**
 * What `report` reads of a sweep's output: the rows of `sweep.jsonl` and the parts of `sweep.json` it uses.
 *
 * @module
 */

import * as z from "../base/zod.ts";

const count = z.number().check(z.int("must be an integer"), z.minimum(0, "must be ≥ 0"));

/** One `sweep.jsonl` row. */
export const SweepRow = z.strictObject({
  capacity: z.number().check(z.int("must be an integer"), z.minimum(1, "must be ≥ 1")),
  cases: count,
  confidence_retained: count,
  difference: z.number().check(z.int("must be an integer")),
  hybrid_v1_retained: count,
  parameters: z.strictObject({
    access_half_life_days: z.number(),
    confirmation_half_life_days: z.number(),
    correction_reserved_fraction: z.number(),
    correction_reserved_max: z.number(),
    weights: z.strictObject({ access: z.number(), confidence: z.number(), confirmation: z.number() }),
  }),
  scenario: z.string(),
  source: z.string(),
}).check(z.refine((row) => row.difference === row.hybrid_v1_retained - row.confidence_retained, {
  message: "must equal hybrid_v1_retained - confidence_retained",
  path: ["difference"],
}));

/** A `sweep.jsonl` row. */
export type SweepRow = z.infer<typeof SweepRow>;

/** The parts of `sweep.json` the report reads. */
export const SweepRecordHead = z.object({
  protocol_id: z.string(),
  tool: z.string(),
  rows: count,
  grid: z.object({ weights_step: z.number().check(z.gt(0, "must be > 0")), capacities: z.array(z.number()) }),
  published: SweepRow.shape.parameters,
});
