/**
 * Collects a verified run directory's report: reads its rows and its record, then builds each part of the
 * report from them with the section families' pure functions.
 *
 * @module
 */

import type { Contracts } from "../protocol/contracts.ts";
import { type PolicyRawRow, policySummaryGroups, rawRowEntry } from "../policy/mod.ts";
import { parseGradedRows, policyPair, qaStatsSuites, runCandidateSchema } from "../qa/mod.ts";
import { discordantCases } from "./discordant.ts";
import { supportDifferences } from "./policy_sections.ts";
import { policyProvenance, qaProvenance } from "./provenance.ts";
import { retentionAccuracy } from "./retention.ts";
import type { PolicyReport, Prices, QaReport } from "./run_report.ts";
import { scenarioPoints } from "./scenarios.ts";
import { suiteReports } from "./suites.ts";
import { tokenBill } from "./tokens.ts";
import type { Verification } from "./verification.ts";
import { readJsonObject, readRequired } from "./_read.ts";
import { GRADED_ROWS_CAP } from "../base/fs.ts";

/**
 * Collects a QA results directory's report. The caller has verified the directory (see `verifyRun`); the rows
 * are parsed again here with the same library function `verify` uses.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { answerTasks } from "../qa/mod.ts";
 * import { buildAnswerTasks } from "../qa/mod.ts";
 * import { gradeRun } from "../commands/grade_qa.ts";
 * import { qaReport, verifyRun } from "./mod.ts";
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
  directory: string,
  contracts: Contracts,
  verification: Verification,
  prices?: Prices,
): Promise<QaReport> {
  const path = `${directory}/qa.rows.jsonl`;
  const marker = await readJsonObject(`${directory}/qa_run.json`);
  // The run's record says which two policies it compares (verified against the module when one was given).
  const recorded = runCandidateSchema.safeParse(marker?.candidate);
  const policies = policyPair(recorded.success ? recorded.data : undefined);
  const rows = parseGradedRows(
    await readRequired(path, "graded rows", GRADED_ROWS_CAP),
    path,
    contracts.config,
    policies,
  );
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = contracts.config.statistics;
  return {
    kind: "qa",
    directory,
    policies,
    verification,
    suites: suiteReports(qaStatsSuites(rows, contracts.config, policies), policies),
    scenarios: scenarioPoints(rows),
    retention: retentionAccuracy(rows, policies),
    discordant: discordantCases(rows, policies),
    bill: tokenBill(rows, prices, policies),
    provenance: qaProvenance(marker, rows, contracts),
    bootstrap: { seed, iterations, alpha },
  };
}

/**
 * Collects a policy run directory's report from its verified rows (and its `run.json`, for the provenance).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { policyRawJsonl, parsePolicyRawRows } from "../policy/mod.ts";
 * import { evaluateAll } from "../policy/mod.ts";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { policyReport } from "./collect.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const rows = parsePolicyRawRows(policyRawJsonl(evaluateAll(cases.slice(0, 2), contracts.config)), "policy.raw.jsonl");
 * const report = await policyReport(await Deno.makeTempDir(), rows, { checks: [], ok: true, proved: "demo" });
 * deepStrictEqual([report.entries.length, report.groups.length], [12, 6]); // 2 cases × 3 capacities × 2 policies
 * ```
 */
export async function policyReport(
  directory: string,
  rows: readonly PolicyRawRow[],
  verification: Verification,
): Promise<PolicyReport> {
  const entries = rows.map(rawRowEntry);
  return {
    kind: "policy",
    directory,
    verification,
    entries,
    groups: policySummaryGroups(entries),
    differences: supportDifferences(rows),
    provenance: policyProvenance(await readJsonObject(`${directory}/run.json`) ?? {}),
  };
}
