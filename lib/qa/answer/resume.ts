/**
 * Resuming a QA run: whether an output directory is a new run or one of this protocol's, which stored rows
 * can be reused and which must be called again, and what `--dry-run` prints of that.
 *
 * @module
 */

import type { Contracts } from "../../protocol/mod.ts";
import { ContractError, exists, readTextIfExists, RowIntegrityError } from "../../base/mod.ts";
import { codePointLength } from "../../py/mod.ts";
import { type AnswerRow, identityMismatches, parseAnswerRow } from "../run/answer_rows.ts";
import { checkMarker } from "../run/run_marker.ts";
import type { RunCandidate } from "../run/candidate.ts";
import { MARKER_FILE, markerPath, responsePath, responsesDir } from "../run/run_dir.ts";
import type { AnswerTask } from "../run/tasks.ts";

/**
 * Inspects an output directory read-only: `"resume"` when its `qa_run.json` matches the protocol in use,
 * `"new"` when there is no run yet. A marker under another protocol (naming which hashes differ), an
 * unreadable marker, answer rows without a marker, or a run of another candidate (module or baseline; see
 * `checkCandidate`) refuse the directory.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { ContractError } from "../../base/errors.ts";
 * import { checkRunDirectory } from "./resume.ts";
 * const contracts = await loadContracts(embeddedSources());
 * const dir = await Deno.makeTempDir();
 * strictEqual(await checkRunDirectory(dir, contracts), "new");
 * await Deno.mkdir(`${dir}/responses`); // answer rows without qa_run.json
 * await rejects(checkRunDirectory(dir, contracts), ContractError);
 * ```
 */
export async function checkRunDirectory(
  directory: string,
  contracts: Contracts,
  candidate?: RunCandidate,
): Promise<"new" | "resume"> {
  const marker = markerPath(directory);
  // responses/ before the marker: a run writes the marker first, so one seen with rows is seen after them too
  // (read the other way round, a concurrent run could create both in between and look markerless).
  const hasRows = await exists(responsesDir(directory));
  const text = await readTextIfExists(marker);
  if (text !== undefined) {
    // Only here does a fresh output directory help: run-qa can start anew there.
    checkMarker(text, marker, contracts, candidate, "use a fresh output directory");
    return "resume";
  }
  if (hasRows) {
    throw new ContractError(`answer rows without ${MARKER_FILE}: not a run this tool can resume`, {
      path: responsesDir(directory),
    });
  }
  return "new";
}

/** What the runner will do with one task. */
export interface RowPlan {
  task: AnswerTask;
  path: string;
  /** `reuse`: the stored row matches; `missing`: no row yet; `stale`: a row that must be called again. */
  state: "reuse" | "missing" | "stale";
  /** Why a stale row cannot be reused. */
  reason?: string;
  row?: AnswerRow;
}

/**
 * Decides, per task, whether its stored row can be reused: it must parse, match the row schema (version 1, a
 * string prediction) and equal the recomputed task in row id, case id, source, scenario, policy, capacity, kept
 * facts and fingerprint.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { planRows } from "./resume.ts";
 * import { responsePath } from "../run/run_dir.ts";
 * import { buildAnswerTasks } from "../run/tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const [first, second] = await buildAnswerTasks(contracts, cases);
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/responses`);
 * await Deno.writeTextFile(responsePath(dir, first.rowId), "{}\n"); // not a row: called again
 * deepStrictEqual((await planRows(dir, [first, second])).map((plan) => plan.state), ["stale", "missing"]);
 * ```
 */
export async function planRows(directory: string, tasks: readonly AnswerTask[]): Promise<RowPlan[]> {
  const plans: RowPlan[] = [];
  for (const task of tasks) {
    const path = responsePath(directory, task.rowId);
    const text = await readTextIfExists(path);
    if (text === undefined) {
      plans.push({ task, path, state: "missing" });
      continue;
    }
    let row: AnswerRow;
    try {
      row = parseAnswerRow(text, path);
    } catch (error) {
      if (!(error instanceof RowIntegrityError)) throw error;
      const field = error.field ? `${error.field}: ` : "";
      plans.push({ task, path, state: "stale", reason: `${field}${error.detail}` });
      continue;
    }
    const mismatches = identityMismatches(row, task);
    if (mismatches.length > 0) {
      const fields = mismatches.map((mismatch) => mismatch.field).join(", ");
      plans.push({ task, path, state: "stale", reason: `${fields} differ from the recomputed task` });
      continue;
    }
    plans.push({ task, path, state: "reuse", row });
  }
  return plans;
}

/**
 * What `run-qa --dry-run` prints: per task its row id, request fingerprint and message size in code points
 * (with `plans`, whether its stored row would be reused), then a total. Never a key, never message text.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../../protocol/demo.ts";
 * import { dryRunLines } from "./resume.ts";
 * import { buildAnswerTasks } from "../run/tasks.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const tasks = await buildAnswerTasks(contracts, cases);
 * const lines = dryRunLines(tasks); // never a key, never message text
 * strictEqual(lines[0].startsWith(`${tasks[0].rowId}  ${tasks[0].requestFingerprint}  `), true);
 * strictEqual(lines.at(-1)!.replace(/ \d+ characters/, ""), "dry run: 90 tasks, of messages, 90 call(s) needed; nothing called");
 * ```
 */
export function dryRunLines(tasks: readonly AnswerTask[], plans?: readonly RowPlan[]): string[] {
  let characters = 0;
  const lines = tasks.map((task, index) => {
    const size = task.messages.reduce((sum, message) => sum + codePointLength(message.content), 0);
    characters += size;
    const plan = plans?.[index];
    const state = plan === undefined
      ? ""
      : plan.state === "reuse"
      ? "  reuse"
      : plan.state === "missing"
      ? "  call"
      : `  call (stored row: ${plan.reason})`;
    return `${task.rowId}  ${task.requestFingerprint}  ${size} chars${state}`;
  });
  const calls = plans === undefined ? tasks.length : plans.filter((plan) => plan.state !== "reuse").length;
  lines.push(
    `dry run: ${tasks.length} tasks, ${characters} characters of messages, ${calls} call(s) needed; nothing called`,
  );
  return lines;
}
