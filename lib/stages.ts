/**
 * The offline stages as functions over loaded contracts and dataset bytes: `validate` (hash, selection, bank,
 * cases), `run-policy` (270 rows, summary, run record) and `grade-qa` (re-verify a QA run, grade, statistics),
 * each writing atomically without overwriting.
 *
 * @module
 */

import type { Contracts } from "./contracts.ts";
import { type Dataset, loadDataset } from "./dataset.ts";
import {
  ensureDir,
  type HashedBytes,
  listDirectory,
  readTextIfExists,
  refuseExisting,
  writeAllOrNothing,
} from "./fs.ts";
import { evaluateAll, type PolicyResult } from "./policy.ts";
import { evaluatePolicy, type Policy } from "./policies.ts";
import type { PyJson } from "./pyjson.ts";
import { prepareCases, type PreparedCase } from "./cases.ts";
import { policyRawJsonl, policySummary, runRecord, type SourceState } from "./policy_outputs.ts";
import { RowIntegrityError } from "./errors.ts";
import { gradeAnswer, GRADER_VERSION } from "./grading.ts";
import { refuseIfLocked } from "./lock.ts";
import { readMarker } from "./marker.ts";
import { compareCodePoints } from "./pyjson.ts";
import { type GradedRow, gradedRowsJsonl, qaStats, qaSummary } from "./qa_outputs.ts";
import { checkRowIdentity, parseAnswerRow, responsePath } from "./rows.ts";
import type { AnswerTask } from "./tasks.ts";

/** A verified dataset and the cases rebuilt from it. */
export interface PreparedProtocol {
  /** The contracts the cases were prepared from. */
  contracts: Contracts;
  /** The dataset the cases were drawn from. */
  dataset: Dataset;
  /** The prepared cases, official first, in protocol order. */
  cases: PreparedCase[];
}

/**
 * Stage 2: verifies the dataset bytes against the config's pin, recomputes the official selection and builds
 * the bank and all cases.
 *
 * @param contracts The loaded contracts.
 * @param datasetBytes The LongMemEval file's bytes (with their SHA-256 when already computed).
 * @param datasetPath The file's path, for messages.
 * @returns The contracts, the dataset and the prepared cases.
 * @throws {DatasetIntegrityError} When the bytes do not match the pin or the dataset is malformed.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "./contracts.ts";
 * import { buildDemoProtocol } from "./demo.ts";
 * import { prepareProtocol } from "./stages.ts";
 * const demo = await buildDemoProtocol(); // generated data, pinned: the real dataset is not in the package
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * const contracts = await loadContracts({
 *   config: { source: "demo.yaml", bytes: bytes(demo.config) },
 *   official: { source: "demo-official.json", bytes: bytes(demo.official) },
 *   synthetic: { source: "demo-synthetic.json", bytes: bytes(demo.synthetic) },
 * });
 * const { cases } = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * strictEqual(cases.length, 45);
 * ```
 */
export async function prepareProtocol(
  contracts: Contracts,
  datasetBytes: Uint8Array | HashedBytes,
  datasetPath: string,
): Promise<PreparedProtocol> {
  const dataset = await loadDataset(datasetBytes, datasetPath, contracts.config.dataset.sha256);
  const cases = await prepareCases(dataset, contracts);
  return { contracts, dataset, cases };
}

/** The three files `run-policy` writes. */
export const POLICY_OUTPUTS = ["policy.raw.jsonl", "summary.json", "run.json"] as const;

/** A policy other than the two published ones, run in their place, and what identifies it in the outputs. */
export interface CustomPolicyRun {
  policy: Policy;
  /** The module path, for error messages. */
  origin: string;
  /** Fields added to every row and to `run.json` (the module's name and SHA-256). */
  fields: Readonly<Record<string, PyJson>>;
}

/**
 * Stage 3: evaluates every case and writes `policy.raw.jsonl`, `summary.json` and `run.json` into
 * `outputDir`, refusing if any of them exists. The three appear together or not at all. With `custom`, its
 * policy is run (checked case by case) in place of the two published ones.
 *
 * @example
 * ```ts ignore
 * import { runPolicy } from "./stages.ts";
 * const results = await runPolicy(prepared, "/tmp/run", new Date(), { dirty: null, head: null });
 * ```
 */
export async function runPolicy(
  prepared: PreparedProtocol,
  outputDir: string,
  createdAt: Date,
  source: SourceState,
  custom?: CustomPolicyRun,
): Promise<PolicyResult[]> {
  const { contracts, dataset, cases } = prepared;
  const results = custom === undefined
    ? evaluateAll(cases, contracts.config)
    : evaluatePolicy(custom.policy, prepared, { origin: custom.origin, rowFields: custom.fields });
  const policies = custom && { names: [custom.policy.name], fields: custom.fields };
  const files: Record<(typeof POLICY_OUTPUTS)[number], string> = {
    "policy.raw.jsonl": policyRawJsonl(results),
    "summary.json": policySummary(results, contracts.config.protocol_id),
    "run.json": runRecord(contracts, dataset.sha256, createdAt, source, policies),
  };
  await ensureDir(outputDir);
  await writeAllOrNothing(outputDir, files);
  return results;
}

/** The three files `grade-qa` writes. */
export const QA_OUTPUTS = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json"] as const;

/**
 * Stage 5: re-verifies a `run-qa` directory read-only — the marker's five hashes against the protocol in use,
 * and every one of the tasks' rows present and equal to its recomputed task (the first mismatch refuses, naming
 * the row file and the field) — then grades each prediction blindly against the recomputed reference answer
 * and writes `qa.rows.jsonl`, `qa.summary.json` and `qa.stats.json` all together or not at all, refusing (before
 * any work) to overwrite any of them.
 *
 * @example
 * ```ts ignore
 * import { gradeQa } from "./stages.ts";
 * const rows = await gradeQa("/tmp/qa-run", contracts, tasks);
 * ```
 */
export async function gradeQa(
  directory: string,
  contracts: Contracts,
  tasks: readonly AnswerTask[],
): Promise<GradedRow[]> {
  await refuseIfLocked(directory, "grade the run after it has finished");
  await refuseExisting(QA_OUTPUTS.map((name) => `${directory}/${name}`));
  await readMarker(directory, contracts);
  const graded: GradedRow[] = [];
  for (const task of tasks) {
    const path = responsePath(directory, task.rowId);
    const text = await readTextIfExists(path, "answer row");
    if (text === undefined) {
      throw new RowIntegrityError("missing: every task needs its answer row (run run-qa to resume)", {
        path,
      });
    }
    const row = parseAnswerRow(text, path);
    checkRowIdentity(row, task, path);
    // The reference answer comes from the recomputed case; nothing in the row chooses it.
    const grade = gradeAnswer(row.prediction, task.referenceAnswer);
    graded.push({
      attempts: row.attempts,
      capacity: task.capacity,
      case_id: task.caseId,
      grade_correct: grade.correct,
      grade_rule: grade.rule,
      grader_version: GRADER_VERSION,
      kept_fact_ids: [...task.keptFactIds],
      policy: task.policy,
      prediction: row.prediction,
      question_type: task.questionType,
      request_fingerprint: task.requestFingerprint,
      response_model: row.response_model,
      row_id: task.rowId,
      scenario: task.scenario,
      schema_version: 1,
      source: task.source,
      support_all_retained: task.supportAllRetained,
      support_recall: task.supportRecall,
      usage: row.usage,
    });
  }
  graded.sort((a, b) => compareCodePoints(a.row_id, b.row_id));
  const files: Record<(typeof QA_OUTPUTS)[number], string> = {
    "qa.rows.jsonl": gradedRowsJsonl(graded),
    "qa.summary.json": qaSummary(graded, contracts.config),
    "qa.stats.json": qaStats(graded, contracts.config),
  };
  await writeAllOrNothing(directory, files);
  return graded;
}

/** The directory inside `responses/` where run-qa keeps rows it could not reuse. */
const SUPERSEDED = "superseded";

/**
 * The entries of a run's `responses/` that are not the row file of one of `tasks` (nor run-qa's
 * `superseded/`): stray or foreign files, which `grade-qa` does not grade and names in a warning.
 *
 * @example
 * ```ts ignore
 * import { foreignResponseFiles } from "./stages.ts";
 * console.log(await foreignResponseFiles("/tmp/qa-run", tasks)); // ["notes.txt"]
 * ```
 */
export async function foreignResponseFiles(
  directory: string,
  tasks: readonly AnswerTask[],
): Promise<string[]> {
  const names = await listDirectory(`${directory}/responses`) ?? [];
  const rows = new Set(tasks.map((task) => `${task.rowId}.json`));
  return names.filter((name) => name !== SUPERSEDED && !rows.has(name));
}
