/**
 * The schemas of what `sweep` writes, as read back: a `sweep.jsonl` row, and the fields of `sweep.json` that
 * rebuild the sweep from its rows (the rest is re-derived and compared byte for byte).
 *
 * @module
 */

import * as z from "../base/zod.ts";

const count = z.number().check(z.int("must be an integer"), z.minimum(0, "must be ≥ 0"));
const capacity = z.number().check(z.int("must be an integer"), z.minimum(1, "must be ≥ 1"));

/** A parameter set as the rows and `sweep.json` name it (the config's `policies.hybrid_v1` shape). */
export const SweepParameters = z.strictObject({
  access_half_life_days: z.number(),
  confirmation_half_life_days: z.number(),
  correction_reserved_fraction: z.number(),
  correction_reserved_max: z.number(),
  weights: z.strictObject({ access: z.number(), confidence: z.number(), confirmation: z.number() }),
});

/** One `sweep.jsonl` row. */
export const SweepRow = z.strictObject({
  capacity,
  cases: count,
  confidence_retained: count,
  difference: z.number().check(z.int("must be an integer")),
  hybrid_v1_retained: count,
  parameters: SweepParameters,
  scenario: z.string(),
  source: z.string(),
}).check(z.refine((row) => row.difference === row.hybrid_v1_retained - row.confidence_retained, {
  message: "must equal hybrid_v1_retained - confidence_retained",
  path: ["difference"],
}));

/** A `sweep.jsonl` row. */
export type SweepRow = z.infer<typeof SweepRow>;

const values = z.array(z.number()).check(z.minLength(1, "must not be empty"));

/** The fields of `sweep.json` that rebuild the sweep from its rows. */
export const SweepRecordFields = z.object({
  protocol_id: z.string(),
  tool: z.string(),
  rows: count,
  grid: z.object({
    access_half_life_days: values,
    capacities: z.array(capacity).check(z.minLength(1, "must not be empty")),
    confirmation_half_life_days: values,
    correction_reserved_fraction: values,
    correction_reserved_max: values,
    weights_step: z.number().check(z.gt(0, "must be > 0")),
  }),
  groups: z.array(z.object({ cases: count, scenario: z.string(), source: z.string() })),
  artifacts: z.record(z.string(), z.string()),
  dataset: z.object({ sha256: z.string() }),
  evaluation_time: z.string(),
  placement: z.object({
    protocol_capacities: z.array(capacity),
  }),
  published: SweepParameters,
  sweep_jsonl_sha256: z.string(),
});

/** The fields of `sweep.json` that rebuild the sweep. */
export type SweepRecordFields = z.infer<typeof SweepRecordFields>;
