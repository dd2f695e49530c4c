/**
 * `report --json`'s keys for a K-run directory (`run-qa --epochs K`): `epochs`, `per_case`, `case_level`,
 * `per_epoch` and `flips`; absent for one run.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import type { QaReport } from "../run/run_report.ts";

const count = z.number().check(z.int(), z.minimum(0));
const mcnemarJson = z.strictObject({
  both_correct: count,
  both_wrong: count,
  only_first_correct: count,
  only_second_correct: count,
  p_value: z.number(),
});
const epochSuite = z.strictObject({
  cases: count,
  correct: z.record(z.string(), count),
  mcnemar: mcnemarJson,
});
const suiteEnum = z.enum(["official", "synthetic", "overall"]);
/** A K-run directory's keys (absent for one run): what CI scripts read. */
export const EPOCH_KEYS = {
  epochs: z.optional(count),
  per_case: z.optional(z.array(z.strictObject({
    case_id: z.string(),
    suite: z.enum(["official", "synthetic"]),
    correct: z.record(z.string(), count),
  }))),
  case_level: z.optional(z.array(z.strictObject({
    suite: suiteEnum,
    cases: count,
    p: z.number(),
    difference: z.number(),
    interval: z.tuple([z.number(), z.number()]),
  }))),
  per_epoch: z.optional(z.array(z.strictObject({
    run: count,
    suites: z.strictObject({ official: epochSuite, synthetic: epochSuite, overall: epochSuite }),
  }))),
  flips: z.optional(z.record(z.string(), count)),
};

/** The K-run keys as a document holds them. */
export type EpochKeysJson = Partial<z.infer<z.ZodMiniObject<typeof EPOCH_KEYS>>>;

/** The K-run keys: K, each case's correct counts, the case-level verdict per suite, each run's McNemar. */
export function epochsJson(report: QaReport): EpochKeysJson {
  const epochs = report.epochs;
  if (epochs === undefined) return {};
  return {
    epochs: epochs.epochs,
    per_case: epochs.per_case.map((item) => ({ ...item, correct: { ...item.correct } })),
    case_level: epochs.case_level.map((suite) => ({ ...suite, interval: [...suite.interval] })),
    per_epoch: epochs.per_epoch.map((row) => ({
      run: row.run,
      suites: {
        official: { ...row.suites.official, mcnemar: { ...row.suites.official.mcnemar } },
        synthetic: { ...row.suites.synthetic, mcnemar: { ...row.suites.synthetic.mcnemar } },
        overall: { ...row.suites.overall, mcnemar: { ...row.suites.overall.mcnemar } },
      },
    })),
    flips: { ...epochs.flips },
  };
}
