/**
 * The reviewer's view of a run directory: what `verify` proved, then the report's content as values (suites,
 * scenarios, retention against accuracy, discordant cases, the token bill, provenance — or, for a policy run,
 * retention per scenario, capacity and policy), laid out as titled tables that the terminal, Markdown and HTML
 * renderers share. Every number comes from the library's own functions over the verified files.
 *
 * @module
 */

import type { Contracts } from "../protocol/contracts.ts";
import type { PreparedCase } from "../protocol/cases.ts";
import { InputError } from "../base/errors.ts";
import { exists, readTextIfExists } from "../base/fs.ts";
import { POLICIES } from "../policy/mod.ts";
import {
  parsePolicyRawRows,
  type PolicyRawRow,
  type PolicySummaryGroup,
  policySummaryGroups,
  rawRowEntry,
  type RetentionEntry,
  retentionTableOf,
} from "../policy/outputs.ts";
import { compareCodePoints } from "../py/json.ts";
import {
  type GradedRow,
  parseGradedRows,
  qaStatsSuites,
  type QaSuiteStats,
  type QaSummaryGroup,
  qaSummaryGroups,
} from "../qa/mod.ts";
import { type AnswerTask, buildAnswerTasks } from "../qa/tasks.ts";
import { type ContractPaths, prepareDataset, readContracts } from "../protocol/prepare.ts";
import { type Check, formatVerifyResult, verifyResults } from "../verify/qa_run.ts";
import { verifyPolicyRun } from "../verify/policy_run.ts";
import { readSweepReport, type SweepReport } from "./sweep.ts";

/** The two kinds of run directory a report reads. */
export type RunKind = "qa" | "policy";

/** The files that mark each kind of run directory. */
export const RUN_FILES: Record<RunKind, readonly string[]> = {
  qa: ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"],
  policy: ["policy.raw.jsonl", "summary.json", "run.json"],
};

/**
 * Which kind of run `directory` holds: `qa.rows.jsonl` makes a QA results directory, `policy.raw.jsonl` a
 * policy run; neither is an {@linkcode InputError}.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { InputError } from "../base/errors.ts";
 * import { detectRunKind } from "./report.ts";
 * const dir = await Deno.makeTempDir();
 * await rejects(detectRunKind(dir), InputError); // neither kind of run
 * await Deno.writeTextFile(`${dir}/policy.raw.jsonl`, "");
 * strictEqual(await detectRunKind(dir), "policy");
 * ```
 */
export async function detectRunKind(directory: string): Promise<RunKind> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(directory);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound ? "not found" : (error as Error).message;
    throw new InputError(`cannot read the run directory: ${reason}`, { path: directory, cause: error });
  }
  if (!info.isDirectory) throw new InputError("is not a directory", { path: directory });
  if (await exists(`${directory}/qa.rows.jsonl`)) return "qa";
  if (await exists(`${directory}/policy.raw.jsonl`)) return "policy";
  throw new InputError(
    "is neither a QA results directory (qa.rows.jsonl, qa.summary.json, qa.stats.json) nor a policy run (policy.raw.jsonl, summary.json, run.json)",
    { path: directory },
  );
}

/** What `verify` found: every check, whether they all hold, and what that proves. */
export interface Verification {
  checks: Check[];
  ok: boolean;
  /** One sentence: what the checks prove and what they leave unproved. */
  proved: string;
}

/** What the per-row checks need, by kind: the QA tasks, or the prepared cases of a policy run. */
export interface Recomputed {
  tasks?: readonly AnswerTask[];
  cases?: readonly PreparedCase[];
}

/**
 * Runs the same checks as `verify` on a run directory. This is the one place the report calls `verifyResults`.
 * A QA directory without `qa_run.json` is accepted (the report then says the run is not bound to artifacts).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { verifyRun } from "./report.ts";
 * import { runPolicy } from "../commands/run_policy.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const dir = await Deno.makeTempDir(); // a policy run of two cases
 * await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, dir, new Date(0), { dirty: null, head: null });
 * const verification = await verifyRun("policy", dir, contracts);
 * strictEqual(verification.ok, true);
 * strictEqual(verification.checks.length, 3); // the rows' own consistency, summary.json, run.json
 * ```
 */
export async function verifyRun(
  kind: RunKind,
  directory: string,
  contracts: Contracts,
  recomputed: Recomputed = {},
): Promise<Verification> {
  if (kind === "policy") {
    const { checks, proved } = await verifyPolicyRun(directory, contracts, recomputed.cases);
    return { checks, ok: checks.every((check) => check.verdict !== "fail"), proved };
  }
  const hasMarker = await exists(`${directory}/qa_run.json`);
  const result = await verifyResults(directory, contracts, recomputed.tasks);
  // qa_run.json is optional for a report: without it the artifact hashes are simply not claimed.
  const checks = hasMarker
    ? result.checks
    : result.checks.filter((check) => !check.name.startsWith("qa_run.json"));
  const conclusion = result.conclusion.replace(/^verified: /, "");
  const proved = hasMarker
    ? conclusion
    : `${conclusion}; no qa_run.json: the run is not bound to artifact hashes`;
  return { checks, ok: checks.every((check) => check.verdict !== "fail"), proved };
}

/** Verification as terminal lines: the checks, then what was proved (or why the report refuses). */
export function verificationLines(verification: Verification): string[] {
  const lines = formatVerifyResult({
    checks: verification.checks,
    ok: verification.ok,
    scope: "structure-and-statistics",
    notRederivable: [],
    conclusion: "",
  }).split("\n").slice(0, verification.checks.length); // the checks only: the report states what was proved
  lines.push(
    verification.ok ? `proved: ${verification.proved}` : "NOT verified: the report refuses this directory",
  );
  return lines;
}

/** A suite's headline numbers. */
export interface SuiteReport {
  name: "official" | "synthetic" | "overall";
  stats: QaSuiteStats;
  /** Cases each policy answered correctly (from the McNemar counts). */
  correct: Record<string, number>;
}

/** Accuracy of one policy when the support fact was retained, and when it was not. */
export interface RetentionAccuracy {
  suite: SuiteReport["name"];
  policy: string;
  retained: { cases: number; correct: number };
  lost: { cases: number; correct: number };
}

/** One scenario under one policy: accuracy (from `qa.summary.json`'s groups) and support retention. */
export interface ScenarioPoint {
  group: QaSummaryGroup;
  retained: number;
}

/** A case the two policies grade differently. */
export interface DiscordantCase {
  caseId: string;
  source: string;
  scenario: string;
  /** The policy whose answer was graded correct. */
  winner: string;
  rows: Record<string, GradedRow>;
}

/** Token and attempt totals of a set of rows. */
export interface TokenTotals {
  rows: number;
  attempts: number;
  prompt: number;
  completion: number;
  cacheHit: number;
  cacheMiss: number;
  /** USD, when prices were given. */
  cost?: number;
}

/** USD per million tokens. */
export interface Prices {
  input: number;
  output: number;
}

/** Where a run came from. */
export interface Provenance {
  entries: [label: string, value: string][];
}

/** The report of a QA results directory. */
export interface QaReport {
  kind: "qa";
  directory: string;
  verification: Verification;
  suites: SuiteReport[];
  scenarios: ScenarioPoint[];
  retention: RetentionAccuracy[];
  discordant: DiscordantCase[];
  bill: { byPolicy: Record<string, TokenTotals>; total: TokenTotals; prices?: Prices };
  provenance: Provenance;
  bootstrap: { seed: bigint; iterations: number; alpha: number };
}

/** A case and capacity where one policy keeps the support and the other does not. */
export interface SupportDifference {
  caseId: string;
  source: string;
  scenario: string;
  capacity: number;
  /** The policy that kept every support fact. */
  keptBy: string;
}

/** The report of a `run-policy` directory. */
export interface PolicyReport {
  kind: "policy";
  directory: string;
  verification: Verification;
  entries: RetentionEntry[];
  groups: PolicySummaryGroup[];
  differences: SupportDifference[];
  provenance: Provenance;
}

/** Either report. */
export type RunReport = QaReport | PolicyReport;

/** Thrown when `verify` would reject the directory; carries the verification for the message. */
export class NotVerifiedError extends Error {
  readonly verification: Verification;
  constructor(directory: string, verification: Verification) {
    super(`${directory}: does not verify; the report shows no numbers verify would reject`);
    this.name = "NotVerifiedError";
    this.verification = verification;
  }
}

const SUITES: [SuiteReport["name"], (row: GradedRow) => boolean][] = [
  ["official", (row) => row.source === "longmemeval"],
  ["synthetic", (row) => row.source === "synthetic"],
  ["overall", () => true],
];

function tokenTotals(rows: readonly GradedRow[], prices?: Prices): TokenTotals {
  const sum = (key: string) => rows.reduce((total, row) => total + (row.usage[key] ?? 0), 0);
  const totals: TokenTotals = {
    rows: rows.length,
    attempts: rows.reduce((total, row) => total + row.attempts, 0),
    prompt: sum("prompt_tokens"),
    completion: sum("completion_tokens"),
    cacheHit: sum("prompt_cache_hit_tokens"),
    cacheMiss: sum("prompt_cache_miss_tokens"),
  };
  if (prices !== undefined) {
    totals.cost = (totals.prompt * prices.input + totals.completion * prices.output) / 1_000_000;
  }
  return totals;
}

async function readJsonObject(path: string): Promise<Record<string, unknown> | undefined> {
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

function toolOf(git: unknown): string {
  const record = (git ?? {}) as { tool?: unknown; head?: unknown; dirty?: unknown };
  if (typeof record.tool === "string") return record.tool;
  if (typeof record.head === "string") {
    return `reference harness at git ${record.head}${
      record.dirty === true ? " (dirty)" : record.dirty === false ? " (clean)" : ""
    }`;
  }
  return "not recorded";
}

function qaProvenance(
  marker: Record<string, unknown> | undefined,
  rows: readonly GradedRow[],
  contracts: Contracts,
): Provenance {
  const qa = (marker?.qa ?? {}) as Record<string, unknown>;
  const artifacts = (marker?.artifacts ?? {}) as Record<string, unknown>;
  const models = new Map<string, number>();
  for (const row of rows) {
    const model = row.response_model ?? "(none)";
    models.set(model, (models.get(model) ?? 0) + 1);
  }
  const seen = [...models].sort(([a], [b]) => compareCodePoints(a, b))
    .map(([model, count]) => `${model} (${count} rows)`).join(", ");
  const entries: [string, string][] = [
    ["protocol", String(marker?.protocol_id ?? contracts.config.protocol_id)],
    ["configured model", String(qa.model ?? contracts.config.qa.model)],
    ["response models seen", seen],
    ["grader", rows[0]?.grader_version ?? ""],
  ];
  if (marker === undefined) {
    entries.push(["artifacts", "not recorded (no qa_run.json)"]);
  } else {
    for (const key of Object.keys(artifacts).sort()) entries.push([key, String(artifacts[key])]);
    entries.push(["run date", String(marker.created_at ?? "not recorded")]);
    entries.push(["tool", toolOf(marker.git)]);
  }
  return { entries };
}

/**
 * Collects a QA results directory's report. The caller has verified the directory (see
 * {@linkcode verifyRun}); the rows are parsed again here with the same library function `verify` uses.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { gradeRun } from "../commands/grade_qa.ts";
 * import { qaReport, verifyRun } from "./report.ts";
 * import { answerTasks } from "../qa/mod.ts";
 * const task = { source: "longmemeval" as const, scenario: "access_help", questionType: "t", capacity: 7, keptFactIds: ["f1"],
 *   supportAllRetained: true, supportRecall: 1, messages: [], requestFingerprint: "0".repeat(64), referenceAnswer: "seven weeks" };
 * const tasks = (["longmemeval", "synthetic"] as const).flatMap((source, index) => // both policies, both suites
 *   (["confidence", "hybrid-v1"] as const).map((policy) => ({ ...task, source, policy, caseId: `c${index}`, rowId: `c${index}__${policy}` })));
 * const contracts = loadContracts(embeddedSources()), dir = await Deno.makeTempDir(), source = { dirty: null, head: null };
 * const provider = () => Promise.resolve({ prediction: "Seven weeks.", responseModel: "m", usage: {} });
 * await answerTasks(contracts, tasks, dir, { provider, retry: { maxAttempts: 1 }, workers: 1, source }); // offline
 * await gradeRun(dir, contracts, tasks);
 * const report = await qaReport(dir, contracts, await verifyRun("qa", dir, contracts));
 * strictEqual(report.bill.total.rows, 4);
 * strictEqual(report.suites.find((suite) => suite.name === "overall")!.correct["hybrid-v1"], 2);
 * ```
 */
export async function qaReport(
  directory: string,
  contracts: Contracts,
  verification: Verification,
  prices?: Prices,
): Promise<QaReport> {
  const path = `${directory}/qa.rows.jsonl`;
  const text = await readTextIfExists(path);
  if (text === undefined) throw new InputError("missing", { path });
  const rows = parseGradedRows(text, path, contracts.config);
  const stats = qaStatsSuites(rows, contracts.config);
  const [first, second] = POLICIES;
  const suites: SuiteReport[] = SUITES.map(([name]) => {
    const { mcnemar } = stats[name];
    return {
      name,
      stats: stats[name],
      correct: {
        [first]: mcnemar.both_correct + mcnemar.only_first_correct,
        [second]: mcnemar.both_correct + mcnemar.only_second_correct,
      },
    };
  });
  const scenarios = qaSummaryGroups(rows).map((group) => ({
    group,
    retained:
      rows.filter((row) =>
        row.source === group.source && row.scenario === group.scenario && row.policy === group.policy &&
        row.support_all_retained
      ).length,
  }));
  const retention: RetentionAccuracy[] = SUITES.flatMap(([suite, member]) =>
    POLICIES.map((policy) => {
      const mine = rows.filter((row) => member(row) && row.policy === policy);
      const part = (retained: boolean) => {
        const subset = mine.filter((row) => row.support_all_retained === retained);
        return { cases: subset.length, correct: subset.filter((row) => row.grade_correct).length };
      };
      return { suite, policy, retained: part(true), lost: part(false) };
    })
  );
  const byCase = new Map<string, Record<string, GradedRow>>();
  for (const row of rows) byCase.set(row.case_id, { ...byCase.get(row.case_id), [row.policy]: row });
  const discordant: DiscordantCase[] = [...byCase.entries()]
    .filter(([, pair]) => pair[first].grade_correct !== pair[second].grade_correct)
    .map(([caseId, pair]) => ({
      caseId,
      source: pair[first].source,
      scenario: pair[first].scenario,
      winner: pair[first].grade_correct ? first : second,
      rows: pair,
    }))
    .sort((a, b) =>
      compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
      compareCodePoints(a.caseId, b.caseId)
    );
  const marker = await readJsonObject(`${directory}/qa_run.json`);
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = contracts.config.statistics;
  return {
    kind: "qa",
    directory,
    verification,
    suites,
    scenarios,
    retention,
    discordant,
    bill: {
      byPolicy: Object.fromEntries(
        POLICIES.map((policy) => [policy, tokenTotals(rows.filter((row) => row.policy === policy), prices)]),
      ),
      total: tokenTotals(rows, prices),
      prices,
    },
    provenance: qaProvenance(marker, rows, contracts),
    bootstrap: { seed, iterations, alpha },
  };
}

/**
 * Collects a policy run directory's report from its verified rows.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { parsePolicyRawRows } from "../policy/outputs.ts";
 * import { policyReport, verifyRun } from "./report.ts";
 * import { runPolicy } from "../commands/run_policy.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const dir = await Deno.makeTempDir(); // a policy run of two cases
 * await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, dir, new Date(0), { dirty: null, head: null });
 * const rows = parsePolicyRawRows(await Deno.readTextFile(`${dir}/policy.raw.jsonl`), "policy.raw.jsonl");
 * const report = await policyReport(dir, rows, await verifyRun("policy", dir, contracts));
 * deepStrictEqual([report.entries.length, report.groups.length], [12, 6]); // 2 cases × 3 capacities × 2 policies
 * ```
 */
export async function policyReport(
  directory: string,
  rows: readonly PolicyRawRow[],
  verification: Verification,
): Promise<PolicyReport> {
  const entries = rows.map(rawRowEntry);
  const [first, second] = POLICIES;
  const byKey = new Map<string, Record<string, PolicyRawRow>>();
  for (const row of rows) {
    const key = JSON.stringify([row.case_id, row.capacity]);
    byKey.set(key, { ...byKey.get(key), [row.policy]: row });
  }
  const differences: SupportDifference[] = [];
  for (const pair of byKey.values()) {
    const a = pair[first];
    const b = pair[second];
    if (a === undefined || b === undefined || a.support_all_retained === b.support_all_retained) continue;
    differences.push({
      caseId: a.case_id,
      source: a.source,
      scenario: a.scenario,
      capacity: a.capacity,
      keptBy: a.support_all_retained ? first : second,
    });
  }
  differences.sort((a, b) =>
    compareCodePoints(a.source, b.source) || compareCodePoints(a.scenario, b.scenario) ||
    compareCodePoints(a.caseId, b.caseId) || a.capacity - b.capacity
  );
  const record = await readJsonObject(`${directory}/run.json`) ?? {};
  const artifacts = (record.artifacts ?? {}) as Record<string, unknown>;
  const dataset = (record.dataset ?? {}) as Record<string, unknown>;
  const provenance: Provenance = {
    entries: [
      ["protocol", String(record.protocol_id ?? "")],
      ["dataset", `${dataset.repository ?? "?"}@${dataset.revision ?? "?"} ${dataset.filename ?? ""}`.trim()],
      ["dataset_sha256", String(dataset.sha256 ?? "")],
      ...Object.keys(artifacts).sort().map((key): [string, string] => [key, String(artifacts[key])]),
      ["evaluation clock", String(record.evaluation_time ?? "")],
      ["run date", String(record.created_at ?? "")],
      ["tool", toolOf(record.git)],
    ],
  };
  return {
    kind: "policy",
    directory,
    verification,
    entries,
    groups: policySummaryGroups(entries),
    differences,
    provenance,
  };
}

/**
 * Detects, verifies and collects the report of a run directory; throws {@linkcode NotVerifiedError} when any
 * check fails.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { buildReport } from "./report.ts";
 * import { runPolicy } from "../commands/run_policy.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const [config, official, synthetic] = [demo.config, demo.official, demo.synthetic]
 *   .map((body, index) => ({ source: `demo-${index}`, bytes: new TextEncoder().encode(body) }));
 * const contracts = loadContracts({ config, official, synthetic });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const dir = await Deno.makeTempDir(); // a policy run of two cases
 * await runPolicy({ ...prepared, cases: prepared.cases.slice(0, 2) }, dir, new Date(0), { dirty: null, head: null });
 * const report = await buildReport(dir, contracts); // detected, verified, collected
 * strictEqual(report.kind === "policy" && report.entries.length, 12);
 * ```
 */
export async function buildReport(
  directory: string,
  contracts: Contracts,
  options: { recomputed?: Recomputed; prices?: Prices } = {},
): Promise<RunReport> {
  const kind = await detectRunKind(directory);
  const verification = await verifyRun(kind, directory, contracts, options.recomputed);
  if (!verification.ok) throw new NotVerifiedError(directory, verification);
  if (kind === "qa") return await qaReport(directory, contracts, verification, options.prices);
  const path = `${directory}/policy.raw.jsonl`;
  const rows = parsePolicyRawRows((await readTextIfExists(path)) ?? "", path);
  return await policyReport(directory, rows, verification);
}

/** What `report` reads: the protocol's files, the run directory, optionally a second run and the dataset. */
export interface ReportRequest {
  contracts: ContractPaths;
  directory: string;
  /** Another run of the same kind to compare with. */
  against?: string;
  /** The pinned dataset: also re-derive every row. */
  dataset?: string;
  prices?: Prices;
}

/**
 * The verified report of a run and, when asked, of the run it is compared with — or, for a sweep directory, the
 * sweep's report.
 */
export type ReportResult =
  | { kind: "run"; contracts: Contracts; report: RunReport; against?: RunReport }
  | { kind: "sweep"; directory: string; sweep: SweepReport };

/**
 * The `report` stage: loads the contracts, then verifies and collects the run (and the one to compare with),
 * each re-derived from the dataset when one is given; throws {@linkcode NotVerifiedError} when a check fails.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { report } from "./report.ts";
 * import { runPolicy } from "../commands/run_policy.ts";
 * import { validate } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const dir = await Deno.makeTempDir();
 * for (const [name, body] of [["c.yaml", demo.config], ["o.json", demo.official], ["s.json", demo.synthetic]]) {
 *   await Deno.writeTextFile(`${dir}/${name}`, body);
 * }
 * await Deno.writeFile(`${dir}/data.json`, demo.dataset);
 * const contracts = { config: `${dir}/c.yaml`, officialManifest: `${dir}/o.json`, syntheticManifest: `${dir}/s.json` };
 * const run = await Deno.makeTempDir();
 * await runPolicy(await validate(contracts, `${dir}/data.json`), run, new Date(0), { dirty: null, head: null });
 * const result = await report({ contracts, directory: run }); // the contracts from the same files
 * strictEqual(result.kind === "run" && result.report.kind, "policy");
 * ```
 */
export async function report(request: ReportRequest): Promise<ReportResult> {
  const contracts = await readContracts(request.contracts);
  if (await isSweepDirectory(request.directory)) {
    if (request.against !== undefined || request.dataset !== undefined || request.prices !== undefined) {
      throw new InputError(
        "a sweep directory is reported from sweep.json and sweep.jsonl alone: --against, --dataset and the prices do not apply",
        { path: request.directory },
      );
    }
    return { kind: "sweep", directory: request.directory, sweep: await readSweepReport(request.directory) };
  }
  const build = async (directory: string) =>
    await buildReport(directory, contracts, {
      recomputed: await recomputedFor(directory, contracts, request.dataset),
      prices: request.prices,
    });
  const result: ReportResult = { kind: "run", contracts, report: await build(request.directory) };
  if (request.against !== undefined) result.against = await build(request.against);
  return result;
}

/** A directory `sweep` wrote (`sweep.jsonl`) that is not also a QA or policy run. */
async function isSweepDirectory(directory: string): Promise<boolean> {
  try {
    if (!(await Deno.stat(directory)).isDirectory) return false;
  } catch {
    return false; // detectRunKind names what is wrong with it
  }
  if (!await exists(`${directory}/sweep.jsonl`)) return false;
  return !await exists(`${directory}/qa.rows.jsonl`) && !await exists(`${directory}/policy.raw.jsonl`);
}

/** With a dataset, what the per-row checks of a run directory need (tasks for QA, cases for a policy run). */
async function recomputedFor(
  directory: string,
  contracts: Contracts,
  dataset: string | undefined,
): Promise<Recomputed> {
  if (dataset === undefined) return {};
  const kind = await detectRunKind(directory);
  const prepared = await prepareDataset(contracts, dataset);
  return kind === "qa" ? { tasks: buildAnswerTasks(contracts, prepared.cases) } : { cases: prepared.cases };
}

// ---------------------------------------------------------------------------------------------------------
// Layout shared by the terminal, Markdown and HTML renderers: titled sections of tables of formatted strings.

/** A table of already-formatted cells; `numeric` marks right-aligned columns. */
export interface Table {
  headers: string[];
  rows: string[][];
  numeric: boolean[];
}

/** A titled part of the report. */
export interface Section {
  id: string;
  title: string;
  lines: string[];
  tables: Table[];
}

/**
 * A count with thousands separators: `86342` → `86,342`.
 *
 * @example
 * ```ts
 * import { formatCount } from "./report.ts";
 * console.log(formatCount(86342)); // "86,342"
 * ```
 */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A difference with its sign and three decimals: `0.30000000000000004` → `+0.300`.
 *
 * @example
 * ```ts
 * import { formatSigned } from "./report.ts";
 * console.log(formatSigned(0.30000000000000004), formatSigned(-0.05)); // "+0.300" "-0.050"
 * ```
 */
export function formatSigned(value: number): string {
  const text = Math.abs(value).toFixed(3);
  return `${value < 0 && text !== "0.000" ? "-" : "+"}${text}`;
}

/** A McNemar p-value at four decimals, as `grade-qa` prints it. */
export function formatP(value: number): string {
  return value.toFixed(4);
}

function fraction(correct: number, cases: number): string {
  return `${correct}/${cases}`;
}

function rate(correct: number, cases: number): string {
  return cases === 0 ? "–" : (correct / cases).toFixed(3);
}

/** Makes a prediction one short line: whitespace collapsed, at most `limit` characters. */
export function shorten(text: string, limit = 40): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= limit ? flat : `${chars.slice(0, limit - 1).join("")}…`;
}

function table(headers: string[], rows: string[][], numeric: boolean[]): Table {
  return { headers, rows, numeric };
}

function verificationSection(verification: Verification): Section {
  return {
    id: "verification",
    title: "Verification",
    lines: [
      // Only a verified directory is reported, so a check either passed or was not run (needs the dataset).
      ...verification.checks.map((check) =>
        check.verdict === "pass" ? `✓ ${check.name}` : `– ${check.name} — needs --dataset`
      ),
      `proved: ${verification.proved}`,
    ],
    tables: [],
  };
}

function qaSections(report: QaReport): Section[] {
  const [first, second] = POLICIES;
  const { seed, iterations, alpha } = report.bootstrap;
  const level = Math.round((1 - alpha) * 100);
  const suites: Section = {
    id: "suites",
    title: "Suites",
    lines: [
      `hybrid-v1 − confidence: paired bootstrap, seed ${seed}, ${
        formatCount(iterations)
      } iterations, ${level}% percentile interval; exact two-sided McNemar on the discordant pairs`,
    ],
    tables: [table(
      [
        "suite",
        "cases",
        first,
        second,
        "discordant",
        `only ${first}`,
        `only ${second}`,
        "McNemar p",
        "difference",
        `${level}% interval`,
      ],
      report.suites.map(({ name, stats, correct }) => [
        name,
        String(stats.cases),
        fraction(correct[first], stats.cases),
        fraction(correct[second], stats.cases),
        String(stats.mcnemar.only_first_correct + stats.mcnemar.only_second_correct),
        String(stats.mcnemar.only_first_correct),
        String(stats.mcnemar.only_second_correct),
        formatP(stats.mcnemar.p_value),
        formatSigned(stats.bootstrap.mean_difference),
        `[${formatSigned(stats.bootstrap.lower)}, ${formatSigned(stats.bootstrap.upper)}]`,
      ]),
      [false, true, true, true, true, true, true, true, true, true],
    )],
  };
  const scenarioKeys = [
    ...new Set(report.scenarios.map(({ group }) => `${group.source}\u0000${group.scenario}`)),
  ];
  const scenarios: Section = {
    id: "scenarios",
    title: "Scenarios",
    lines: [`correct answers (and support retained) per scenario, at the QA capacity`],
    tables: [table(
      ["source", "scenario", "cases", first, second, `retained ${first}`, `retained ${second}`],
      scenarioKeys.map((key) => {
        const [source, scenario] = key.split("\u0000");
        const point = (policy: string) =>
          report.scenarios.find(({ group }) =>
            group.source === source && group.scenario === scenario && group.policy === policy
          )!;
        const a = point(first);
        const b = point(second);
        return [
          source,
          scenario,
          String(a.group.cases),
          fraction(a.group.correct, a.group.cases),
          fraction(b.group.correct, b.group.cases),
          fraction(a.retained, a.group.cases),
          fraction(b.retained, b.group.cases),
        ];
      }),
      [false, false, true, true, true, true, true],
    )],
  };
  const retention: Section = {
    id: "retention",
    title: "Retention against accuracy",
    lines: [
      "accuracy when the support fact was retained and when it was evicted: does retention explain the gain?",
    ],
    tables: [table(
      ["suite", "policy", "support retained", "correct", "accuracy", "support lost", "correct", "accuracy"],
      report.retention.map(({ suite, policy, retained, lost }) => [
        suite,
        policy,
        String(retained.cases),
        String(retained.correct),
        rate(retained.correct, retained.cases),
        String(lost.cases),
        String(lost.correct),
        rate(lost.correct, lost.cases),
      ]),
      [false, false, true, true, true, true, true, true],
    )],
  };
  const wins = (policy: string) => report.discordant.filter((item) => item.winner === policy).length;
  const discordant: Section = {
    id: "discordant",
    title: "Discordant cases",
    lines: [
      `${report.discordant.length} cases graded differently: ${wins(second)} won by ${second}, ${
        wins(first)
      } won by ${first}`,
      `support kept, answers and grade rules: ${first} / ${second}`,
    ],
    tables: [table(
      [
        "case",
        "scenario",
        "won by",
        "support kept",
        `${first} answer`,
        `${second} answer`,
        "grade rules",
      ],
      report.discordant.map((item) => [
        item.caseId,
        item.scenario,
        item.winner,
        `${item.rows[first].support_all_retained ? "yes" : "no"} / ${
          item.rows[second].support_all_retained ? "yes" : "no"
        }`,
        shorten(item.rows[first].prediction, 28) || "(empty)",
        shorten(item.rows[second].prediction, 28) || "(empty)",
        `${item.rows[first].grade_rule} / ${item.rows[second].grade_rule}`,
      ]),
      [false, false, false, false, false, false, false],
    )],
  };
  const { bill } = report;
  const priced = bill.prices !== undefined;
  const billRow = (label: string, totals: TokenTotals) => [
    label,
    String(totals.rows),
    formatCount(totals.attempts),
    formatCount(totals.prompt),
    formatCount(totals.completion),
    formatCount(totals.cacheHit),
    formatCount(totals.cacheMiss),
    ...(priced ? [`$${(totals.cost ?? 0).toFixed(4)}`] : []),
  ];
  const billSection: Section = {
    id: "bill",
    title: "Token bill",
    lines: [
      priced
        ? `cost at $${bill.prices!.input} per million prompt tokens and $${
          bill.prices!.output
        } per million completion tokens`
        : "pass --price-input USD --price-output USD (per million tokens) for the cost",
    ],
    tables: [table(
      [
        "policy",
        "rows",
        "attempts",
        "prompt",
        "completion",
        "cache hit",
        "cache miss",
        ...(priced ? ["cost"] : []),
      ],
      [...POLICIES.map((policy) => billRow(policy, bill.byPolicy[policy])), billRow("total", bill.total)],
      [false, true, true, true, true, true, true, true],
    )],
  };
  return [
    verificationSection(report.verification),
    suites,
    scenarios,
    retention,
    discordant,
    billSection,
    provenanceSection(report.provenance),
  ];
}

function provenanceSection(provenance: Provenance): Section {
  return {
    id: "provenance",
    title: "Provenance",
    lines: [],
    tables: [table(["", ""], provenance.entries.map(([label, value]) => [label, value]), [false, false])],
  };
}

function policySections(report: PolicyReport): Section[] {
  const [first, second] = POLICIES;
  const capacities = [...new Set(report.groups.map((group) => group.capacity))].sort((a, b) => a - b);
  const scenarioKeys = [...new Set(report.groups.map((group) => `${group.source}\u0000${group.scenario}`))];
  const rows: string[][] = [];
  for (const capacity of capacities) {
    for (const key of scenarioKeys) {
      const [source, scenario] = key.split("\u0000");
      const cell = (policy: string) => {
        const group = report.groups.find((item) =>
          item.capacity === capacity && item.source === source && item.scenario === scenario &&
          item.policy === policy
        );
        return group === undefined ? "–" : fraction(group.support_all_retained, group.cases);
      };
      rows.push([String(capacity), source, scenario, cell(first), cell(second)]);
    }
    const total = (policy: string) => {
      const members = report.entries.filter((entry) =>
        entry.capacity === capacity && entry.policy === policy
      );
      return fraction(members.filter((entry) => entry.supportAllRetained).length, members.length);
    };
    rows.push([String(capacity), "all", "all cases", total(first), total(second)]);
  }
  const byCase = new Map<string, SupportDifference[]>();
  for (const difference of report.differences) {
    byCase.set(difference.caseId, [...(byCase.get(difference.caseId) ?? []), difference]);
  }
  return [
    verificationSection(report.verification),
    {
      id: "retention",
      title: "Support retained",
      lines: ["cases whose support fact was kept, per capacity, scenario and policy"],
      tables: [
        table(["capacity", "source", "scenario", first, second], rows, [true, false, false, true, true]),
      ],
    },
    {
      id: "differences",
      title: "Cases where the policies keep different supports",
      lines: [`${byCase.size} cases, ${report.differences.length} case × capacity pairs`],
      tables: [table(
        ["case", "scenario", `kept only by ${first} at`, `kept only by ${second} at`],
        [...byCase.values()].map((items) => [
          items[0].caseId,
          items[0].scenario,
          items.filter((item) => item.keptBy === first).map((item) => item.capacity).join(", ") || "–",
          items.filter((item) => item.keptBy === second).map((item) => item.capacity).join(", ") || "–",
        ]),
        [false, false, true, true],
      )],
    },
    provenanceSection(report.provenance),
  ];
}

/**
 * The report laid out as titled sections of tables, shared by every renderer.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { policySummaryGroups } from "../policy/outputs.ts";
 * import { type PolicyReport, reportSections } from "./report.ts";
 * const entries = ["confidence", "hybrid-v1"].map((policy, index) => ({
 *   source: "longmemeval", scenario: "access_help", capacity: 7, policy, supportAllRetained: index === 1, supportRecall: index,
 * }));
 * const report: PolicyReport = {
 *   kind: "policy", directory: "run", verification: { checks: [], ok: true, proved: "demo" }, entries,
 *   groups: policySummaryGroups(entries), provenance: { entries: [["protocol", "demo-v1"]] },
 *   differences: [{ caseId: "q1", source: "longmemeval", scenario: "access_help", capacity: 7, keptBy: "hybrid-v1" }],
 * };
 * deepStrictEqual(reportSections(report).map((section) => section.id), ["verification", "retention", "differences", "provenance"]);
 * ```
 */
export function reportSections(report: RunReport): Section[] {
  return report.kind === "qa" ? qaSections(report) : policySections(report);
}

/** The report's heading line. */
export function reportHeading(report: RunReport): string {
  return `deermem-eval report: ${report.directory} (${report.kind === "qa" ? "QA results" : "policy run"})`;
}

/**
 * A table as aligned terminal lines (two spaces between columns; headers underlined by nothing, just first).
 *
 * @example
 * ```ts
 * import { tableLines } from "./report.ts";
 * console.log(tableLines({ headers: ["a", "n"], rows: [["x", "10"]], numeric: [false, true] }).join("\n"));
 * ```
 */
export function tableLines(table: Table): string[] {
  const width = (cell: string) => [...cell].length;
  const widths = table.headers.map((header, column) =>
    Math.max(width(header), ...table.rows.map((row) => width(row[column] ?? "")))
  );
  const line = (cells: string[]) =>
    cells.map((cell, column) => {
      const pad = " ".repeat(widths[column] - width(cell));
      return table.numeric[column] ? pad + cell : cell + pad;
    }).join("  ").trimEnd();
  const header = table.headers.every((cell) => cell === "") ? [] : [line(table.headers)];
  return [...header, ...table.rows.map(line)].map((text) => `  ${text}`);
}

/**
 * Titled sections as terminal text; `replace` substitutes preformatted lines for a section's tables.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sectionsText } from "./report.ts";
 * const table = { headers: ["policy", "kept"], rows: [["hybrid-v1", "35/40"]], numeric: [false, true] };
 * const text = sectionsText("heading", [{ id: "a", title: "Retention", lines: ["at capacity 7"], tables: [table] }]);
 * strictEqual(text, "heading\n\nRETENTION\n  at capacity 7\n  policy      kept\n  hybrid-v1  35/40");
 * ```
 */
export function sectionsText(
  heading: string,
  sections: readonly Section[],
  replace: ReadonlyMap<string, string[]> = new Map(),
): string {
  const lines = [heading];
  for (const section of sections) {
    lines.push("", section.title.toUpperCase(), ...section.lines.map((line) => `  ${line}`));
    const replacement = replace.get(section.id);
    // A replacement is printed as is: e.g. the retention table exactly as `run-policy` prints it.
    if (replacement !== undefined) lines.push(...replacement);
    else for (const item of section.tables) lines.push(...tableLines(item));
  }
  return lines.join("\n");
}

/**
 * The report for the terminal. A policy run's retention is the same table `run-policy` and `demo` print.
 *
 * @example
 * ```ts
 * import { match } from "node:assert/strict";
 * import { policySummaryGroups } from "../policy/outputs.ts";
 * import { type PolicyReport, reportText } from "./report.ts";
 * const entries = ["confidence", "hybrid-v1"].map((policy, index) => ({
 *   source: "longmemeval", scenario: "access_help", capacity: 7, policy, supportAllRetained: index === 1, supportRecall: index,
 * }));
 * const report: PolicyReport = {
 *   kind: "policy", directory: "run", verification: { checks: [], ok: true, proved: "demo" }, entries,
 *   groups: policySummaryGroups(entries), provenance: { entries: [["protocol", "demo-v1"]] },
 *   differences: [{ caseId: "q1", source: "longmemeval", scenario: "access_help", capacity: 7, keptBy: "hybrid-v1" }],
 * };
 * const text = reportText(report);
 * match(text, /^deermem-eval report: run \(policy run\)\n/);
 * match(text, /\n {2}all 1 cases +0\/1 +1\/1\n/); // the retention table as run-policy prints it
 * ```
 */
export function reportText(report: RunReport): string {
  const replace = new Map<string, string[]>();
  if (report.kind === "policy") replace.set("retention", retentionTableOf(report.entries).split("\n"));
  return sectionsText(reportHeading(report), reportSections(report), replace);
}
