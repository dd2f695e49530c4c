/**
 * Collects a verified run directory's report from what its checks read (the rows they parsed, its record from
 * the same held bytes), building each part of the report with the section families' pure functions.
 *
 * @module
 */

import type { Contracts } from "../../protocol/mod.ts";
import { type PolicyRawRow, policySummaryGroups, rawRowEntry } from "../../policy/mod.ts";
import {
  GRADED_ROWS_FILE,
  type GradedRow,
  parseGradedRows,
  type PolicyPair,
  policyPair,
  qaStatsSuites,
  runCandidateSchema,
} from "../../qa/mod.ts";
import { discordantCases } from "./discordant.ts";
import { supportDifferences } from "./policy_sections.ts";
import { policyProvenance, qaProvenance } from "./provenance.ts";
import { retentionAccuracy } from "./retention.ts";
import type { PolicyReport, Prices, QaReport } from "./run_report.ts";
import { scenarioPoints } from "./scenarios.ts";
import { suiteReports } from "./suites.ts";
import { tokenBill } from "./tokens.ts";
import type { Verification } from "./verification.ts";
import { readJsonObject } from "./_read.ts";
import { GRADED_ROWS_CAP, InputError, type RunFiles, runFilesOf } from "../../base/mod.ts";

/** A QA run as its checks left it: the verdict, the two policies and the rows checked, parsed from its files. */
export interface VerifiedQaRun {
  verification: Verification;
  /** The policies the rows were checked as (absent: as the run's marker records them). */
  pair?: PolicyPair;
  /** The rows the checks parsed (absent: parsed here from the held bytes). */
  rows?: readonly GradedRow[];
}

/**
 * Collects a QA results directory's report from what its checks read (see `verifyRun`): the rows they parsed, the
 * marker from the same held bytes; no file is read again.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { answerTasks } from "../../qa/mod.ts";
 * import { buildAnswerTasks } from "../../qa/mod.ts";
 * import { gradeRun } from "../../commands/grade_qa.ts";
 * import { qaReport } from "./collect.ts";
 * import { verifyRun } from "./verification.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const tasks = await buildAnswerTasks(contracts, cases), dir = await Deno.makeTempDir(), source = { dirty: null, head: null };
 * const provider = () => Promise.resolve({ prediction: "Seven weeks.", responseModel: "m", usage: {} }); // offline
 * await answerTasks(contracts, tasks, dir, { provider, retry: { maxAttempts: 1 }, workers: 1, source });
 * await gradeRun(dir, contracts, tasks);
 * const report = await qaReport(dir, contracts, await verifyRun("qa", dir, contracts));
 * strictEqual(report.bill.total.rows, 90); // 45 cases × 2 policies
 * ```
 */
export async function qaReport(
  directory: string | RunFiles,
  contracts: Contracts,
  verified: VerifiedQaRun,
  prices?: Prices,
): Promise<QaReport> {
  const files = runFilesOf(directory);
  const { verification } = verified;
  const marker = await readJsonObject(files, "qa_run.json");
  // The run's record says which two policies it compares (verified against the module when one was given).
  const recorded = runCandidateSchema.safeParse(marker?.candidate);
  const policies = verified.pair ?? policyPair(recorded.success ? recorded.data : undefined);
  const rows = verified.rows ?? await heldRows(files, contracts, policies);
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = contracts.config.statistics;
  return {
    kind: "qa",
    directory: files.directory,
    policies,
    verification,
    suites: suiteReports(qaStatsSuites(rows, contracts.config, policies), policies),
    scenarios: scenarioPoints(rows),
    retention: retentionAccuracy(rows, policies),
    discordant: discordantCases(rows, policies),
    bill: tokenBill(rows, prices, policies),
    provenance: qaProvenance(marker, rows, contracts),
    bootstrap: { seed, iterations, alpha },
    rows,
    files,
  };
}

/** The graded rows parsed from the held bytes of `qa.rows.jsonl` (a missing file is bad input). */
async function heldRows(files: RunFiles, contracts: Contracts, pair: PolicyPair): Promise<GradedRow[]> {
  const path = files.path(GRADED_ROWS_FILE);
  const text = await files.text(GRADED_ROWS_FILE, "graded rows", GRADED_ROWS_CAP);
  if (text === undefined) throw new InputError("missing", { path });
  return parseGradedRows(text, path, contracts.config, pair);
}

/**
 * Collects a policy run directory's report from its verified rows (and its `run.json`, for the provenance).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { policyRawJsonl, parsePolicyRawRows } from "../../policy/mod.ts";
 * import { evaluateAll } from "../../policy/mod.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { policyReport } from "./collect.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const rows = parsePolicyRawRows(policyRawJsonl(evaluateAll(cases.slice(0, 2), contracts.config)), "policy.raw.jsonl");
 * const report = await policyReport(await Deno.makeTempDir(), rows, { checks: [], ok: true, proved: "demo", rederived: false, bound: true });
 * deepStrictEqual([report.entries.length, report.groups.length], [12, 6]); // 2 cases × 3 capacities × 2 policies
 * ```
 */
export async function policyReport(
  directory: string | RunFiles,
  rows: readonly PolicyRawRow[],
  verification: Verification,
): Promise<PolicyReport> {
  const files = runFilesOf(directory);
  const entries = rows.map(rawRowEntry);
  return {
    kind: "policy",
    directory: files.directory,
    verification,
    entries,
    groups: policySummaryGroups(entries),
    differences: supportDifferences(rows),
    provenance: policyProvenance(await readJsonObject(files, "run.json") ?? {}),
    rows,
    files,
  };
}
