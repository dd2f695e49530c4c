/**
 * `report RUN RUN… --json`: the many-candidate document's schema (kind `many-candidates`). It opens with its
 * notices (`notices`, `synthetic`, `authored_from`, as a run's report does), then `kind`, `schema_version`,
 * `baseline`, `alpha`, `verdict` (its `line` and the candidates that `beat_baseline`), `checked` (what each
 * candidate run's verification re-derived and what it took as recorded), `reused_rows`, an optional `reference`,
 * and `candidates`, best-supported first: each `candidate`, `directory`, `against_baseline` and, under the
 * published protocol, `against_reference`. A comparison names its `test` (`exact-mcnemar` for one run,
 * `exact-sign-flip` over the cases for K runs) and `test_name` as the table prints it, `cases` (never
 * multiplied by K), `other_runs` and `candidate_runs`, each side's correct answers over all its runs, `p`,
 * `holm_p` and `difference` (`mean_difference`, `lower`, `upper`); a McNemar row keeps `mcnemar_p` (= `p`).
 *
 * @module
 */

import * as z from "../../base/zod.ts";

const count = z.number().check(z.int(), z.minimum(0));
const comparison = z.strictObject({
  test: z.enum(["exact-mcnemar", "exact-sign-flip"]),
  test_name: z.string(),
  cases: count,
  other_runs: count,
  candidate_runs: count,
  other_correct: count,
  candidate_correct: count,
  p: z.number(),
  mcnemar_p: z.optional(z.number()),
  holm_p: z.number(),
  difference: z.strictObject({ mean_difference: z.number(), lower: z.number(), upper: z.number() }),
});

/** One comparison of a candidate with the baseline or the reference. */
export type ManyComparisonJson = z.infer<typeof comparison>;

/** The many-candidate document `report RUN RUN… --json` prints. */
export const ManyCandidatesJson = z.strictObject({
  notices: z.optional(z.array(z.string())),
  synthetic: z.optional(z.string()),
  authored_from: z.optional(z.string()),
  kind: z.literal("many-candidates"),
  schema_version: z.literal(1),
  baseline: z.string(),
  alpha: z.number(),
  verdict: z.strictObject({ line: z.string(), beat_baseline: z.array(z.string()) }),
  checked: z.string(),
  reused_rows: count,
  reference: z.optional(z.strictObject({ policy: z.string(), name: z.string() })),
  candidates: z.array(z.strictObject({
    candidate: z.string(),
    directory: z.string(),
    against_baseline: comparison,
    against_reference: z.optional(comparison),
  })),
});

/** The many-candidate document. */
export type ManyCandidatesJson = z.infer<typeof ManyCandidatesJson>;
