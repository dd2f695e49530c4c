/**
 * Answer rows: the `responses/<row_id>.json` file `run-qa` writes per successful call — the reference's 14
 * fields, pretty JSON with sorted keys — and the identity check that binds a stored row to its recomputed task.
 * A row holds only the prediction and non-secret metadata: never the question, memory, reference answer or key.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import { parseWith, RowIntegrityError, type SameType, type Schema } from "../../base/mod.ts";
import { CASE_SOURCES } from "../../protocol/mod.ts";
import { dumps, floatRepr, laxIntLiteral, parsePyJson, PyFloat, type PyJson } from "../../py/mod.ts";
import type { AnswerTask } from "./tasks.ts";

/**
 * The answer row schema version the reference writes and reads.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ANSWER_ROW_SCHEMA_VERSION } from "./answer_rows.ts";
 * strictEqual(ANSWER_ROW_SCHEMA_VERSION, 1);
 * ```
 */
export const ANSWER_ROW_SCHEMA_VERSION = 1;

const sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits"));

/** A stored answer row (`responses/<row_id>.json`). */
export interface AnswerRow {
  /** Calls made for this row (≥ 1). */
  attempts: number;
  /** The capacity the memory was cut to. */
  capacity: number;
  /** The case answered. */
  case_id: string;
  /** When the row was written (Python's `isoformat` of UTC now, with `Z`). */
  created_at: string;
  /** The fact IDs the policy kept, in prompt order. */
  kept_fact_ids: string[];
  /** The policy that chose the memory: a built-in, or a candidate's name. */
  policy: string;
  /** A candidate's module file name (its rows only). */
  policy_module?: string;
  /** SHA-256 of a candidate's module source (its rows only). */
  policy_module_sha256?: string;
  /** The model's answer. */
  prediction: string;
  /** The SHA-256 of the request's non-secret payload. */
  request_fingerprint: string;
  /** The model the server says answered, if it said. */
  response_model: string | null;
  /** `<case_id>__<policy>`: the file's name without `.json`. */
  row_id: string;
  /** The case's scenario. */
  scenario: string;
  /** Always {@linkcode ANSWER_ROW_SCHEMA_VERSION}. */
  schema_version: typeof ANSWER_ROW_SCHEMA_VERSION;
  /** Where the case comes from. */
  source: "longmemeval" | "synthetic";
  /** Integer token counts the server reported. */
  usage: Record<string, number>;
}

/**
 * A number as Python's `==` sees it against an int (`7.0 == 7`, `True == 1`): the reference compares a row's
 * capacity with `==` only, so the value is kept for the identity check, which names a mismatch.
 */
const pyEqualNumber = z.transform((value: unknown, context) => {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "boolean" || typeof value === "bigint") return Number(value);
  context.issues.push({ code: "custom", message: "must be a number", input: value });
  return z.NEVER;
}) as unknown as z.ZodMiniType<number, unknown>;

/** An integer count (attempts, a usage figure); a float such as `1.0` is named as the file spells it. */
function integer(min?: number): z.ZodMiniType<number, unknown> {
  return z.transform((value: unknown, context) => {
    let message: string | undefined;
    if (value instanceof PyFloat) message = `must be an integer, got the float ${floatRepr(value.value)}`;
    else if (typeof value === "bigint") message = "must be an integer below 2^53";
    else if (typeof value !== "number" || !Number.isInteger(value)) message = "must be an integer";
    else if (min !== undefined && value < min) message = `must be ≥ ${min}`;
    if (message === undefined) return value as number;
    context.issues.push({ code: "custom", message, input: value });
    return z.NEVER;
  }) as unknown as z.ZodMiniType<number, unknown>;
}

const count = integer();
const usageCounts = z.record(z.string(), count);

/**
 * Integer counts by name, every key kept as read: zod's record skips a `__proto__` key (guarding its own output
 * object), where the reference's dict keeps it like any other. So the record checks the rest, this the
 * `__proto__` count, and the value passes on as it was read.
 */
const usage = z.custom<Record<string, number>>().check(
  z.superRefine((value, context) => {
    const checked = usageCounts.safeParse(value);
    if (!checked.success) { for (const issue of checked.error.issues) context.addIssue({ ...issue }); }
    if (checked.success && Object.hasOwn(value, "__proto__")) {
      const proto = count.safeParse(Object.getOwnPropertyDescriptor(value, "__proto__")!.value);
      for (const issue of proto.error?.issues ?? []) {
        context.addIssue({ ...issue, path: ["__proto__", ...issue.path] });
      }
    }
  }),
);

const answerRowShape = {
  attempts: integer(1),
  capacity: pyEqualNumber,
  case_id: z.string().check(z.minLength(1)),
  created_at: z.string(),
  kept_fact_ids: z.array(z.string()),
  // A built-in or a candidate's name; which one each row must have is the task's (identity) and the pair's.
  policy: z.string().check(z.minLength(1)),
  policy_module: z.optional(z.string()),
  policy_module_sha256: z.optional(sha256),
  prediction: z.string(),
  request_fingerprint: sha256,
  response_model: z.nullable(z.string()),
  row_id: z.string().check(z.minLength(1)),
  scenario: z.string(),
  // As the reference's `row.get("schema_version") != 1`: 1.0 and true are 1.
  schema_version: laxIntLiteral(ANSWER_ROW_SCHEMA_VERSION),
  source: z.enum(CASE_SOURCES),
  usage,
};

/** The shape of {@linkcode AnswerRow}'s schema, one zod type per field. */
export type AnswerRowShape = {
  [K in keyof AnswerRow]-?: undefined extends AnswerRow[K]
    ? z.ZodMiniOptional<z.ZodMiniType<Exclude<AnswerRow[K], undefined>, unknown>>
    : z.ZodMiniType<AnswerRow[K], unknown>;
};

/** The answer row schema's object form, for schemas derived from it (the graded row). */
export const answerRowObject: z.ZodMiniObject<AnswerRowShape, z.core.$strict> = z.strictObject(
  answerRowShape,
);

// The hand-written type must stay the schema's own: this line stops compiling when they drift apart.
const _sameRow: SameType<AnswerRow, z.infer<z.ZodMiniObject<typeof answerRowShape>>> = true;

/**
 * `responses/<row_id>.json`: exactly these 14 fields (16 for a candidate's row, which names its module).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { AnswerRow, answerRow } from "./answer_rows.ts";
 * import { buildAnswerTasks } from "./tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const [task] = await buildAnswerTasks(contracts, cases.slice(0, 1));
 * const row = answerRow(task, { prediction: "7 weeks", responseModel: "m", usage: { total_tokens: 12 } }, 1, "2026-11-29T11:12:02Z");
 * strictEqual(AnswerRow.parse(row).prediction, "7 weeks");
 * strictEqual(AnswerRow.safeParse({ ...row, extra: 1 }).success, false); // unknown keys are refused
 * strictEqual(AnswerRow.safeParse({ ...row, attempts: 0 }).success, false);
 * ```
 */
export const AnswerRow: Schema<AnswerRow> = answerRowObject;

/** What a successful call returns: the prediction and the non-secret parts of the response. */
export interface Answer {
  prediction: string;
  responseModel: string | null;
  /** Integer token counts only; nested or non-integer usage fields are dropped. */
  usage: Record<string, number>;
}

/**
 * The row for a task answered after `attempts` calls.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { answerRow } from "./answer_rows.ts";
 * import { buildAnswerTasks } from "./tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const [task] = await buildAnswerTasks(contracts, cases.slice(0, 1));
 * const row = answerRow(task, { prediction: "7 weeks", responseModel: "m", usage: { total_tokens: 12 } }, 1, "2026-11-29T11:12:02Z");
 * strictEqual(row.row_id, task.rowId);
 * strictEqual("referenceAnswer" in row || "reference_answer" in row, false); // never the reference answer
 * ```
 */
export function answerRow(task: AnswerTask, answer: Answer, attempts: number, createdAt: string): AnswerRow {
  return {
    attempts,
    capacity: task.capacity,
    case_id: task.caseId,
    created_at: createdAt,
    kept_fact_ids: [...task.keptFactIds],
    policy: task.policy,
    ...task.module,
    prediction: answer.prediction,
    request_fingerprint: task.requestFingerprint,
    response_model: answer.responseModel,
    row_id: task.rowId,
    scenario: task.scenario,
    schema_version: ANSWER_ROW_SCHEMA_VERSION,
    source: task.source,
    usage: { ...answer.usage },
  };
}

/**
 * The row file's exact text: Python's `json.dumps(row, indent=2, sort_keys=True, ensure_ascii=False)` and a
 * newline, so a run directory moves freely between this tool and the reference.
 *
 * @param row The answer row.
 * @returns The file's text.
 * @throws {RowIntegrityError} For a lone surrogate in the prediction, the response model or a usage key.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { RowIntegrityError } from "../../base/errors.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { answerRow, answerRowJson } from "./answer_rows.ts";
 * import { buildAnswerTasks } from "./tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const [task] = await buildAnswerTasks(contracts, cases.slice(0, 1));
 * const row = answerRow(task, { prediction: "7 weeks", responseModel: "m", usage: { total_tokens: 12 } }, 1, "2026-11-29T11:12:02Z");
 * const text = answerRowJson(row); // sorted keys, indented by 2, a final newline
 * strictEqual(text.startsWith('{\n  "attempts": 1,\n  "capacity": 7,') && text.endsWith('\n    "total_tokens": 12\n  }\n}\n'), true);
 * throws(() => answerRowJson({ ...row, prediction: "\ud800" }), RowIntegrityError);
 * ```
 */
export function answerRowJson(row: AnswerRow): string {
  // A lone surrogate (say, in a model's answer) cannot be written as UTF-8: the reference crashes there, and a
  // lenient encoder would silently store U+FFFD. Refuse it, naming the row and the field.
  const fields: [string, string | null][] = [
    ["prediction", row.prediction],
    ["response_model", row.response_model],
    ...Object.keys(row.usage).map((key): [string, string] => ["usage", key]),
  ];
  for (const [field, text] of fields) {
    if (text !== null && !text.isWellFormed()) {
      throw new RowIntegrityError("holds a lone surrogate, which no UTF-8 file can hold; refused", {
        path: row.row_id,
        field,
      });
    }
  }
  return dumps(row as unknown as PyJson, { indent: 2, sortKeys: true }) + "\n";
}

/**
 * The fields that bind a stored row to its recomputed task; {@linkcode identityMismatches} compares them.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { IDENTITY_FIELDS } from "./answer_rows.ts";
 * strictEqual(IDENTITY_FIELDS.includes("request_fingerprint"), true);
 * strictEqual((IDENTITY_FIELDS as readonly string[]).includes("prediction"), false);
 * ```
 */
export const IDENTITY_FIELDS = [
  "row_id",
  "case_id",
  "source",
  "scenario",
  "policy",
  "policy_module",
  "policy_module_sha256",
  "capacity",
  "kept_fact_ids",
  "request_fingerprint",
] as const;

/** One identity field whose stored value differs from the recomputed task. */
export interface IdentityMismatch {
  /** The identity field that differs. */
  field: (typeof IDENTITY_FIELDS)[number];
  /** The value the recomputed task has. */
  expected: unknown;
  /** The value the stored row has. */
  actual: unknown;
}

/**
 * Compares a stored row's identity fields with the recomputed task; returns every field that differs.
 *
 * @param row The stored row (its identity fields).
 * @param task The task recomputed from the protocol.
 * @returns One entry per differing field, in {@linkcode IDENTITY_FIELDS} order; empty when the row is the task's.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { answerRow, identityMismatches } from "./answer_rows.ts";
 * import { buildAnswerTasks } from "./tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const [task] = await buildAnswerTasks(contracts, cases.slice(0, 1));
 * const row = answerRow(task, { prediction: "7 weeks", responseModel: "m", usage: { total_tokens: 12 } }, 1, "2026-11-29T11:12:02Z");
 * deepStrictEqual(identityMismatches(row, task), []);
 * deepStrictEqual(identityMismatches({ ...row, capacity: 5 }, task), [{ field: "capacity", expected: 7, actual: 5 }]);
 * ```
 */
export function identityMismatches(
  row: Pick<AnswerRow, (typeof IDENTITY_FIELDS)[number]>,
  task: AnswerTask,
): IdentityMismatch[] {
  const expected: Record<(typeof IDENTITY_FIELDS)[number], unknown> = {
    row_id: task.rowId,
    case_id: task.caseId,
    source: task.source,
    scenario: task.scenario,
    policy: task.policy,
    policy_module: task.module?.policy_module,
    policy_module_sha256: task.module?.policy_module_sha256,
    capacity: task.capacity,
    kept_fact_ids: task.keptFactIds,
    request_fingerprint: task.requestFingerprint,
  };
  return IDENTITY_FIELDS.filter((field) => JSON.stringify(row[field]) !== JSON.stringify(expected[field]))
    .map((field) => ({ field, expected: expected[field], actual: row[field] }));
}

/**
 * Parses a row file's text against the schema; a problem is a {@linkcode RowIntegrityError} naming the file
 * and the field.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { RowIntegrityError } from "../../base/errors.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { answerRow, answerRowJson, parseAnswerRow } from "./answer_rows.ts";
 * import { buildAnswerTasks } from "./tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const [task] = await buildAnswerTasks(contracts, cases.slice(0, 1));
 * const text = answerRowJson(answerRow(task, { prediction: "7", responseModel: null, usage: {} }, 1, "2026-11-29T11:12:02Z"));
 * strictEqual(parseAnswerRow(text, "row.json").prediction, "7");
 * throws(() => parseAnswerRow(text.replace('"attempts": 1', '"attempts": 1.0'), "row.json"), RowIntegrityError);
 * ```
 */
export function parseAnswerRow(text: string, path: string): AnswerRow {
  let data: unknown;
  try {
    // Python's JSON: a float stays a float (so `"attempts": 1.0` is refused, not rewritten as 1), and a lone
    // surrogate — which the reference would read and then fail to write — is refused with its position.
    data = parsePyJson(text);
  } catch (error) {
    throw new RowIntegrityError(`not valid JSON: ${(error as Error).message}`, { path, cause: error });
  }
  return parseWith(AnswerRow, data, path, { error: RowIntegrityError });
}

/**
 * Checks a stored row against its task, throwing a {@linkcode RowIntegrityError} that names the row file, the
 * first differing field, and expected vs actual.
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { RowIntegrityError } from "../../base/errors.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { answerRow, checkRowIdentity } from "./answer_rows.ts";
 * import { buildAnswerTasks } from "./tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const [task] = await buildAnswerTasks(contracts, cases.slice(0, 1));
 * const row = answerRow(task, { prediction: "7 weeks", responseModel: "m", usage: { total_tokens: 12 } }, 1, "2026-11-29T11:12:02Z");
 * checkRowIdentity(row, task, "run/responses/row.json"); // the task's own row
 * throws(() => checkRowIdentity({ ...row, capacity: 5 }, task, "run/responses/row.json"), RowIntegrityError);
 * ```
 */
export function checkRowIdentity(row: AnswerRow, task: AnswerTask, path: string): void {
  const [mismatch] = identityMismatches(row, task);
  if (mismatch !== undefined) {
    throw new RowIntegrityError(
      `differs from the recomputed task: expected ${JSON.stringify(mismatch.expected)}, got ${
        JSON.stringify(mismatch.actual)
      }`,
      { path, field: mismatch.field },
    );
  }
}
