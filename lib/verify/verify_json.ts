/**
 * `verify --json`: the checks and the verdict as one JSON document. Every document has `directory`, `kind`
 * (`qa`, `policy` or `sweep`), `policies` (the policies the run compares, in its order), `checks` (each `name`:
 * what the check proves when it holds, `verdict`: `pass`, `fail` or `needs-dataset`, and `detail`), `ok` (no
 * check failed) and `conclusion` (the closing line); a QA run also `scope` (`structure-and-statistics` without the
 * dataset, `every-derivable-field` with it) and `notRederivable` (the row fields no offline check proves), and a
 * partial run opens with `partial` (its line and what `partial.json` records).
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

/** A QA run's (or a partial run's) document. */
export const QaVerifyJson = z.strictObject({
  partial: z.optional(PartialJsonSchema),
  kind: z.literal("qa"),
  ...common,
  scope: z.enum(["structure-and-statistics", "every-derivable-field"]),
  notRederivable: z.array(z.string()),
});

/** A policy run's or a sweep's document. */
export const RunVerifyJson = z.strictObject({ kind: z.enum(["policy", "sweep"]), ...common });

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
