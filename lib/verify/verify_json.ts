/**
 * `verify --json`: the checks and the verdict as one JSON document. Every document has `directory`, `kind`
 * (`qa`, `policy` or `sweep`), `policies` (the policies the run compares, in its order), `checks` (each `name`:
 * what the check proves when it holds, `verdict`: `pass`, `fail` or `needs-dataset`, and `detail`), `ok` (no
 * check failed) and `conclusion` (the closing line); a QA run also `scope` (`structure-and-statistics` without the
 * dataset, `every-derivable-field` with it) and `notRederivable` (the row fields no offline check proves), and a
 * partial run opens with `partial` (its line and what `partial.json` records). A protocol wearing the pinned id
 * without its bytes puts `not_pinned` (the line naming the artifacts that differ) before everything. A K-run directory's document
 * adds `epochs` (K), `runs` (runs 2…K, each `run`, `directory` and its checks as run 1's) and `case_level` (per
 * suite: `suite`, `cases`, the sign-flip `p`, `difference`, `interval`; `null` when a run did not verify).
 *
 * @module
 */

import * as z from "../base/zod.ts";

const count = z.number().check(z.int(), z.minimum(0));

/** A check as a document holds it. */
export const CheckJson = z.strictObject({
  name: z.string(),
  verdict: z.enum(["pass", "fail", "needs-dataset"]),
  detail: z.optional(z.string()),
});

/** A partial run's notice in a document: its line and what `partial.json` records. */
export const PartialJsonSchema = z.strictObject({
  line: z.string(),
  tasks: count,
  tasks_with_rows: count,
  complete_pairs: count,
  unpaired: z.array(z.string()),
  grading: z.string(),
});

const common = {
  directory: z.string(),
  policies: z.array(z.string()),
  checks: z.array(CheckJson),
  ok: z.boolean(),
  conclusion: z.string(),
};

const qaResult = {
  checks: z.array(CheckJson),
  ok: z.boolean(),
  scope: z.enum(["structure-and-statistics", "every-derivable-field"]),
  notRederivable: z.array(z.string()),
  conclusion: z.string(),
};

/** One suite's case-level verdict over K runs. */
const CaseLevelJson = z.strictObject({
  suite: z.enum(["official", "synthetic", "overall"]),
  cases: count,
  p: z.number(),
  difference: z.number(),
  interval: z.tuple([z.number(), z.number()]),
});

/** A QA run's (or a partial run's) document; a K-run directory's adds its further runs and case-level verdict. */
export const QaVerifyJson = z.strictObject({
  not_pinned: z.optional(z.string()),
  partial: z.optional(PartialJsonSchema),
  kind: z.literal("qa"),
  directory: z.string(),
  policies: z.array(z.string()),
  ...qaResult,
  epochs: z.optional(z.number().check(z.int(), z.minimum(2))),
  runs: z.optional(z.array(z.strictObject({ run: count, directory: z.string(), ...qaResult }))),
  case_level: z.optional(z.nullable(z.array(CaseLevelJson))),
});

/** A policy run's or a sweep's document. */
export const RunVerifyJson = z.strictObject({
  not_pinned: z.optional(z.string()),
  kind: z.enum(["policy", "sweep"]),
  ...common,
});

/**
 * The document `verify --json` prints.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { VerifyJson } from "./verify_json.ts";
 * const document = { directory: "run", kind: "sweep", policies: ["confidence", "hybrid-v1"], checks: [], ok: true, conclusion: "verified" };
 * strictEqual(VerifyJson.safeParse(document).success, true);
 * strictEqual(VerifyJson.safeParse({ ...document, extra: 1 }).success, false); // no key it does not name
 * ```
 */
export const VerifyJson = z.union([QaVerifyJson, RunVerifyJson]);

/** The document `verify --json` prints. */
export type VerifyJson = z.infer<typeof VerifyJson>;
