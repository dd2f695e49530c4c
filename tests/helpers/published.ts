/** The published QA run and its report, shared by the report layer's tests. */
import { embeddedSources, loadContracts } from "../../lib/protocol/contracts.ts";
import type { Contracts } from "../../lib/protocol/contracts.ts";
import { buildReport, type QaReport } from "../../lib/report/mod.ts";
import { assert } from "./assert.ts";
import { ROOT } from "./cli.ts";

/** The published run's results directory. */
export const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
/** The files of a QA results directory. */
export const QA_FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"];
/** The embedded contracts, which the published run was made under. */
export const contracts: Contracts = await loadContracts(embeddedSources());

/** The published run's verified report. */
export async function publishedReport(options: Parameters<typeof buildReport>[2] = {}): Promise<QaReport> {
  const report = await buildReport(PUBLISHED, contracts, options);
  assert(report.kind === "qa");
  return report;
}

/** Copies `files` of the directory `from` into `to`. */
export async function copyDirectory(from: string, to: string, files: readonly string[]): Promise<void> {
  for (const name of files) await Deno.copyFile(`${from}/${name}`, `${to}/${name}`);
}
