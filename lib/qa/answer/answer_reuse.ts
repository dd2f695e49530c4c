/**
 * Answers reused across runs: a task whose request — prompt, model, settings (the request fingerprint) and
 * endpoint (its full base URL, or the stand-in's one identity) — is identical to one an earlier run answered
 * takes that run's recorded answer instead of a call. Where each reused row came from (and whether its source
 * was graded) is kept in `reuse.json`, beside the files the reference reads (`qa_run.json` and the rows keep
 * exactly its keys). A source directory is read only when its marker, sidecar and every row pass the
 * structural checks and, when graded, every row is the one its grades recorded; one that fails them is
 * refused, one made under another protocol or at another endpoint gives nothing.
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import {
  ANSWER_ROW_CAP,
  compareCodePoints,
  ContractError,
  InputError,
  listDirectory,
  moveAside,
  type PublishOptions,
  readTextIfExists,
  RowIntegrityError,
  type RunFiles,
  type Schema,
  writeFileAtomic,
} from "../../base/mod.ts";
import type { Contracts } from "../../protocol/mod.ts";
import { parseJsonTextWith } from "../../py/mod.ts";
import { type AnswerRow, answerRow, answerRowJson, parseAnswerRow } from "../run/answer_rows.ts";
import { policyPair } from "../run/candidate.ts";
import { type QaRunMarker, readMarker } from "../run/run_marker.ts";
import { responsePath, responsesDir, supersededDir } from "../run/run_dir.ts";
import type { RowPlan } from "./resume.ts";
import type { AnswerTask } from "../run/tasks.ts";
import { answerMismatch } from "../grade/graded_rows.ts";

/** The sidecar's name in a run directory (no reference tool reads it). */
export const REUSE_FILE = "reuse.json";

/** Where one reused row came from. */
export interface ReuseOrigin {
  /** The source run directory, as given to `--reuse`. */
  from: string;
  /** The row's id there. */
  row_id: string;
  /** Present when the source was not graded (taken with `--reuse-ungraded`, unproved). */
  ungraded?: true;
}

/** `reuse.json`: the endpoint that answered the run (`null` when unknown or several) and the reused rows. */
export interface ReuseRecord {
  endpoint: string | null;
  reused: Record<string, ReuseOrigin>;
  schema_version: 1;
}

const reuseRecordSchema = z.strictObject({
  endpoint: z.nullable(z.string()),
  reused: z.record(
    z.string(),
    z.strictObject({ from: z.string(), row_id: z.string(), ungraded: z.optional(z.literal(true)) }),
  ),
  schema_version: z.literal(1),
});

/** The sidecar's schema. */
export const ReuseRecord: Schema<ReuseRecord> = reuseRecordSchema;

/** The endpoint identity of the built-in stand-in: one for every run, whatever port it listens on. */
export const STAND_IN_ENDPOINT = "stand-in:deermem-eval";

/**
 * The endpoint identity a reuse key holds: the full base URL without a user's secret, a query or a trailing
 * slash (another path on the same host is another endpoint).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { endpointIdentity } from "./answer_reuse.ts";
 * strictEqual(endpointIdentity("https://user:pw@api.example.com/v1/"), "https://api.example.com/v1");
 * strictEqual(endpointIdentity("https://api.example.com"), "https://api.example.com");
 * ```
 */
export function endpointIdentity(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** The rows a run took from earlier runs, by source: what every reader of the run says. */
export interface ReusedRows {
  rows: number;
  sources: { from: string; rows: number; graded: boolean }[];
}

/**
 * What `reuse.json` says was reused, counting only rows in `rowIds` when given (the rows a reader shows).
 * `undefined` when nothing was.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { reusedRows } from "./answer_reuse.ts";
 * const reused = { a: { from: "x", row_id: "a" }, b: { from: "y", row_id: "b", ungraded: true as const } };
 * deepStrictEqual(reusedRows({ endpoint: null, reused, schema_version: 1 }), {
 *   rows: 2,
 *   sources: [{ from: "x", rows: 1, graded: true }, { from: "y", rows: 1, graded: false }],
 * });
 * deepStrictEqual(reusedRows({ endpoint: null, reused, schema_version: 1 }, new Set(["z"])), undefined);
 * ```
 */
export function reusedRows(record: ReuseRecord, rowIds?: ReadonlySet<string>): ReusedRows | undefined {
  const sources = new Map<string, { from: string; rows: number; graded: boolean }>();
  let rows = 0;
  for (const [rowId, origin] of Object.entries(record.reused)) {
    if (rowIds !== undefined && !rowIds.has(rowId)) continue;
    const key = `${origin.ungraded ? 1 : 0}\u0000${origin.from}`;
    const source = sources.get(key) ?? { from: origin.from, rows: 0, graded: origin.ungraded !== true };
    source.rows++;
    sources.set(key, source);
    rows++;
  }
  if (rows === 0) return undefined;
  const sorted = [...sources.values()].sort((a, b) => compareCodePoints(a.from, b.from));
  return { rows, sources: sorted };
}

/**
 * The rows a run took from earlier runs, as its `reuse.json` records them (only rows `rowIds` holds, when given),
 * read once through the run's held files; `undefined` without the record. A malformed record is refused like
 * any malformed record, naming the file and the field.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { RunFiles } from "../../base/mod.ts";
 * import { readReusedRows } from "./answer_reuse.ts";
 * const dir = await Deno.makeTempDir();
 * deepStrictEqual(await readReusedRows(new RunFiles(dir)), undefined);
 * const reused = { a: { from: "x", row_id: "a" } };
 * await Deno.writeTextFile(`${dir}/reuse.json`, JSON.stringify({ endpoint: null, reused, schema_version: 1 }));
 * deepStrictEqual(await readReusedRows(new RunFiles(dir)), { rows: 1, sources: [{ from: "x", rows: 1, graded: true }] });
 * ```
 */
export async function readReusedRows(
  files: RunFiles,
  rowIds?: ReadonlySet<string>,
): Promise<ReusedRows | undefined> {
  const text = await files.text(REUSE_FILE, "reuse record");
  if (text === undefined) return undefined;
  return reusedRows(parseJsonTextWith(ReuseRecord, text, files.path(REUSE_FILE)), rowIds);
}

/**
 * The line every reader prints for {@linkcode reusedRows}.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { reusedLine } from "./answer_reuse.ts";
 * strictEqual(
 *   reusedLine({ rows: 3, sources: [{ from: "a", rows: 2, graded: true }, { from: "b", rows: 1, graded: false }] }),
 *   "reused: 3 row(s) taken from earlier runs, not answered by this one: a (2), b (1, ungraded)",
 * );
 * ```
 */
export function reusedLine(reused: ReusedRows): string {
  const listed = reused.sources.map((source) =>
    `${source.from} (${source.rows}${source.graded ? "" : ", ungraded"})`
  );
  return `reused: ${reused.rows} row(s) taken from earlier runs, not answered by this one: ${
    listed.join(", ")
  }`;
}

/** Reads a directory's `reuse.json`; `undefined` when there is none, a {@linkcode ContractError} when malformed. */
export async function readReuseRecord(directory: string): Promise<ReuseRecord | undefined> {
  const path = `${directory}/${REUSE_FILE}`;
  const text = await readTextIfExists(path, "reuse record");
  if (text === undefined) return undefined;
  return parseJsonTextWith(ReuseRecord, text, path);
}

/**
 * An earlier run's answers to this run's requests, by request fingerprint (in row id order), ready to be reused;
 * `graded` when each was proved the one its source's grades recorded.
 */
export interface ReuseSource {
  directory: string;
  rows: Map<string, AnswerRow[]>;
  graded: boolean;
}

/** A source looked at: usable (its marker), or why it gives nothing. */
export type ReuseLook = { kind: "usable"; marker: QaRunMarker } | { kind: "skipped"; reason: string };

/** A task's key apart from its fingerprint: its case and its kept facts as a set. */
function caseAndFacts(caseId: string, keptFactIds: readonly string[]): string {
  return `${caseId}\u0000${[...keptFactIds].sort(compareCodePoints).join("\u0000")}`;
}

/**
 * Looks at an earlier run directory before anything of it is proved. Refused (an {@linkcode InputError} naming
 * the file and field): a directory without a run marker, a malformed marker or `reuse.json`. Skipped (nothing
 * reused, the reason returned): a run under another protocol (which covers the model and every setting), one
 * with no recorded endpoint, or one answered elsewhere (another full base URL).
 */
export async function lookAtReuseSource(
  directory: string,
  contracts: Contracts,
  endpoint: string,
): Promise<ReuseLook> {
  let marker;
  try {
    marker = await readMarker(directory, contracts, "as recorded");
  } catch (error) {
    const field = error instanceof ContractError ? error.field : undefined;
    if (field === "protocol_id" || field === "qa.model" || field === "artifacts") {
      return {
        kind: "skipped",
        reason: "it was made under a different protocol (model, settings or prompt)",
      };
    }
    throw error;
  }
  const record = await readReuseRecord(directory);
  if (record === undefined || record.endpoint === null) {
    return { kind: "skipped", reason: `it records no single endpoint (${REUSE_FILE})` };
  }
  if (record.endpoint !== endpoint) {
    return { kind: "skipped", reason: `its answers came from ${record.endpoint}, not ${endpoint}` };
  }
  return { kind: "usable", marker };
}

/**
 * Reads a usable source's rows, one at a time, keeping only those whose request one of `tasks` makes. Refused
 * (a {@linkcode RowIntegrityError} naming the file and field): a row that does not parse, is misnamed, is not
 * one of the run's two policies or its module, whose fingerprint is not the one its case and kept facts give
 * under this protocol, or — with `graded`, the source's verified graded rows by row id — one that is not graded
 * there or differs from what its grade recorded (an answer edited after grading). Every row is checked; only
 * those whose request one of `open` makes (the tasks no earlier source answers; default all) are held, so the
 * memory reuse takes does not grow with the number of sources.
 */
export async function readReuseRows(
  directory: string,
  marker: QaRunMarker,
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  graded?: ReadonlyMap<string, Omit<AnswerRow, "created_at">>,
  open: readonly AnswerTask[] = tasks,
): Promise<ReuseSource> {
  const expected = new Map(tasks.map((task) => [caseAndFacts(task.caseId, task.keptFactIds), task]));
  const wanted = new Set(open.map((task) => task.requestFingerprint));
  const pair = policyPair(marker.candidate);
  const rows = new Map<string, AnswerRow[]>();
  for (const name of await listDirectory(responsesDir(directory)) ?? []) {
    if (!name.endsWith(".json")) continue;
    const path = `${responsesDir(directory)}/${name}`;
    const text = await readTextIfExists(path, "answer row", ANSWER_ROW_CAP);
    if (text === undefined) continue;
    const row = parseAnswerRow(text, path);
    checkSourceRow(row, name, path, pair, marker.candidate?.policy_module_sha256, contracts);
    if (graded !== undefined) checkAgainstGrade(row, graded.get(row.row_id), path);
    const task = expected.get(caseAndFacts(row.case_id, row.kept_fact_ids));
    if (task !== undefined && task.requestFingerprint !== row.request_fingerprint) {
      throw new RowIntegrityError(
        `expected ${task.requestFingerprint} (its case and kept facts under this protocol), got ${row.request_fingerprint}; not reused`,
        { path, field: "request_fingerprint" },
      );
    }
    if (!wanted.has(row.request_fingerprint)) continue; // no task of this run asks it: not held
    const same = rows.get(row.request_fingerprint);
    if (same === undefined) rows.set(row.request_fingerprint, [row]);
    else same.push(row);
  }
  return { directory, rows, graded: graded !== undefined };
}

/** A graded source's row must be the one its grade recorded, field for field (its creation time aside). */
function checkAgainstGrade(
  row: AnswerRow,
  recorded: Omit<AnswerRow, "created_at"> | undefined,
  path: string,
): void {
  const mismatch = answerMismatch(row, recorded);
  if (mismatch !== undefined) {
    throw new RowIntegrityError(`${mismatch.reason}; not reused`, { path, field: mismatch.field });
  }
}

function checkSourceRow(
  row: AnswerRow,
  name: string,
  path: string,
  pair: readonly string[],
  moduleSha: string | undefined,
  contracts: Contracts,
): void {
  const problems: [string, unknown, unknown][] = [
    ["row_id", `${row.row_id}.json`, name],
    ["policy", pair.includes(row.policy), true],
    ["capacity", row.capacity, contracts.config.pool.qa_capacity],
  ];
  if (row.policy === pair[1] && moduleSha !== undefined) {
    problems.push(["policy_module_sha256", row.policy_module_sha256, moduleSha]);
  }
  for (const [field, actual, wanted] of problems) {
    if (actual !== wanted) {
      const shown = field === "policy" ? `one of ${pair.join(", ")}` : JSON.stringify(wanted);
      throw new RowIntegrityError(
        `expected ${shown}, got ${JSON.stringify(field === "policy" ? row.policy : actual)}`,
        {
          path,
          field,
        },
      );
    }
  }
}

/** What reuse did to a run's plans. */
export interface ReuseOutcome {
  plans: RowPlan[];
  /** The rows copied from other runs by this run. */
  copied: number;
}

/**
 * Copies, for every task without a reusable row of its own, an identical request's recorded answer from the
 * first source that has one (its identity is the task's, as a fresh row's; its answer, usage, attempts and
 * time the source's), then rewrites `reuse.json` with the endpoint and every reused row's origin.
 */
export async function reuseAnswers(
  directory: string,
  plans: readonly RowPlan[],
  options: {
    endpoint: string;
    sources: readonly ReuseSource[];
    isNew: boolean;
    publish?: PublishOptions;
    now: () => Date;
  },
): Promise<ReuseOutcome> {
  const previous = await readReuseRecord(directory);
  const hadRows = plans.some((plan) => plan.state !== "missing");
  const known = options.isNew || (previous === undefined && !hadRows) ||
    previous?.endpoint === options.endpoint;
  const reused: Record<string, ReuseOrigin> = Object.create(null);
  const out: RowPlan[] = [];
  let copied = 0;
  for (const plan of plans) {
    const origin = previous?.reused[plan.task.rowId];
    if (plan.state === "reuse") {
      if (origin !== undefined) reused[plan.task.rowId] = origin;
      out.push(plan);
      continue;
    }
    const found = findAnswer(plan.task, options.sources);
    if (found === undefined) {
      out.push(plan);
      continue;
    }
    const { row: source, directory: from, graded } = found;
    const row = answerRow(
      plan.task,
      { prediction: source.prediction, responseModel: source.response_model, usage: source.usage },
      source.attempts,
      source.created_at,
    );
    await writeFileAtomic(responsePath(directory, plan.task.rowId), answerRowJson(row), options.publish);
    reused[plan.task.rowId] = { from, row_id: source.row_id, ...(graded ? {} : { ungraded: true as const }) };
    out.push({ task: plan.task, path: plan.path, state: "reuse", row });
    copied++;
  }
  const record: ReuseRecord = { endpoint: known ? options.endpoint : null, reused, schema_version: 1 };
  await writeReuseRecord(directory, record, previous, options.publish, options.now);
  return { plans: out, copied };
}

function findAnswer(
  task: AnswerTask,
  sources: readonly ReuseSource[],
): { row: AnswerRow; directory: string; graded: boolean } | undefined {
  const facts = caseAndFacts(task.caseId, task.keptFactIds);
  for (const source of sources) {
    const rows = (source.rows.get(task.requestFingerprint) ?? []).filter((row) =>
      caseAndFacts(row.case_id, row.kept_fact_ids) === facts
    );
    // The same row first: two identical requests may have been answered differently, and each keeps its own.
    const row = rows.find((row) => row.row_id === task.rowId) ?? rows[0];
    if (row !== undefined) return { row, directory: source.directory, graded: source.graded };
  }
  return undefined;
}

/** The tasks none of `sources` answers: what a further source may still give. */
export function unansweredTasks(tasks: readonly AnswerTask[], sources: readonly ReuseSource[]): AnswerTask[] {
  return tasks.filter((task) => findAnswer(task, sources) === undefined);
}

/** The tasks of `plans` without a row of their own that `sources` would answer (what a dry run leaves out). */
export function reusableTasks(plans: readonly RowPlan[], sources: readonly ReuseSource[]): Set<string> {
  return new Set(
    plans.filter((plan) => plan.state !== "reuse" && findAnswer(plan.task, sources) !== undefined)
      .map((plan) => plan.task.rowId),
  );
}

/** The sidecar's text: sorted keys, Python's spacing, a final newline. */
export function reuseRecordJson(record: ReuseRecord): string {
  const sorted = Object.fromEntries(
    Object.entries(record.reused).sort(([a], [b]) => compareCodePoints(a, b)),
  );
  return `${JSON.stringify({ endpoint: record.endpoint, reused: sorted, schema_version: 1 }, null, 2)}\n`;
}

async function writeReuseRecord(
  directory: string,
  record: ReuseRecord,
  previous: ReuseRecord | undefined,
  publish: PublishOptions | undefined,
  now: () => Date,
): Promise<void> {
  const text = reuseRecordJson(record);
  const path = `${directory}/${REUSE_FILE}`;
  if (previous !== undefined) {
    if (reuseRecordJson(previous) === text) return;
    // Never overwritten: the old record is kept aside with the superseded rows.
    await moveAside(path, supersededDir(directory), `reuse.${now().getTime()}.json`, publish);
  }
  await writeFileAtomic(path, text, publish);
}

/** Refuses `--reuse` of the run's own directory (its rows are already resumed). */
export function refuseSelfReuse(directory: string, sources: readonly string[]): void {
  const own = directory.replace(/\/+$/, "");
  if (sources.some((source) => source.replace(/\/+$/, "") === own)) {
    throw new InputError("--reuse names the output directory itself; its rows are resumed without it", {
      path: directory,
    });
  }
}
