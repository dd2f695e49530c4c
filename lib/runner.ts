/**
 * `run-qa`: the resumable answer run. Credentials come only from the two environment variables the config
 * names; the output directory is bound to the protocol by `qa_run.json`; a stored row is reused only when it
 * matches its recomputed task field for field; every success is written at once, atomically, to
 * `responses/<row_id>.json`; at most `workers` calls are in flight; an abort signal stops cleanly.
 *
 * @module
 */

import type { ProtocolConfig } from "./config.ts";
import type { Contracts } from "./contracts.ts";
import { ContractError, InputError, RowIntegrityError } from "./errors.ts";
import { ensureDir, exists, moveAside, readTextIfExists, writeFileAtomic } from "./fs.ts";
import { checkMarker, MARKER_FILE, qaRunMarker } from "./marker.ts";
import {
  AnswerFailedError,
  type AnswerProvider,
  answerWithRetries,
  CallAbortedError,
  type RetryPolicy,
} from "./provider.ts";
import { codePointLength } from "./python.ts";
import { createdAtStamp, type SourceState } from "./policy_outputs.ts";
import {
  type AnswerRow,
  answerRow,
  answerRowJson,
  identityMismatches,
  parseAnswerRow,
  responsePath,
} from "./rows.ts";
import type { AnswerTask } from "./tasks.ts";

/** Where the answer model lives and the key to call it with. Never written anywhere. */
export interface Credentials {
  apiKey: string;
  baseUrl: string;
}

/**
 * Reads the API key and base URL from exactly the two environment variables the config names. A missing or
 * empty one is an {@linkcode InputError} naming the variable (never a value); the base URL must be http(s).
 *
 * @example
 * ```ts ignore
 * import { resolveCredentials } from "./runner.ts";
 * const credentials = resolveCredentials(contracts.config, (name) => Deno.env.get(name));
 * ```
 */
export function resolveCredentials(
  config: ProtocolConfig,
  env: (name: string) => string | undefined,
): Credentials {
  const read = (name: string, field: string) => {
    const value = env(name);
    if (value === undefined || value === "") {
      throw new InputError(`environment variable ${name} (the config's ${field}) is not set`);
    }
    return value;
  };
  const apiKey = read(config.qa.api_key_env, "qa.api_key_env");
  const baseUrl = read(config.qa.base_url_env, "qa.base_url_env");
  let scheme: string;
  try {
    scheme = new URL(baseUrl).protocol;
  } catch {
    throw new InputError(`environment variable ${config.qa.base_url_env} is not a URL`);
  }
  if (scheme !== "http:" && scheme !== "https:") {
    throw new InputError(
      `environment variable ${config.qa.base_url_env} must be an http(s) URL, got scheme ${scheme}`,
    );
  }
  return { apiKey, baseUrl };
}

/**
 * Checks the config's QA settings are ones this runner can honour (non-streaming answers).
 *
 * @example
 * ```ts ignore
 * import { checkQaSettings } from "./runner.ts";
 * checkQaSettings(contracts);
 * ```
 */
export function checkQaSettings(contracts: Contracts): void {
  if (contracts.config.qa.stream) {
    throw new ContractError("streaming answers are not supported: expected false, got true", {
      path: contracts.sources.config,
      field: "qa.stream",
    });
  }
}

/**
 * Inspects an output directory read-only: `"resume"` when its `qa_run.json` matches the protocol in use,
 * `"new"` when there is no run yet. A marker under another protocol (naming which hashes differ), an
 * unreadable marker, or answer rows without a marker refuse the directory.
 *
 * @example
 * ```ts ignore
 * import { checkRunDirectory } from "./runner.ts";
 * console.log(await checkRunDirectory("/tmp/qa-run", contracts)); // "new"
 * ```
 */
export async function checkRunDirectory(directory: string, contracts: Contracts): Promise<"new" | "resume"> {
  const markerPath = `${directory}/${MARKER_FILE}`;
  const marker = await readTextIfExists(markerPath);
  if (marker !== undefined) {
    checkMarker(marker, markerPath, contracts);
    return "resume";
  }
  if (await exists(`${directory}/responses`)) {
    throw new ContractError(`answer rows without ${MARKER_FILE}: not a run this tool can resume`, {
      path: `${directory}/responses`,
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
 * ```ts ignore
 * import { planRows } from "./runner.ts";
 * const plans = await planRows("/tmp/qa-run", tasks);
 * console.log(plans.filter((plan) => plan.state === "reuse").length);
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
 * ```ts ignore
 * import { dryRunLines } from "./runner.ts";
 * console.log(dryRunLines(tasks).at(-1)); // "dry run: 90 tasks, … characters of messages, 90 call(s) needed; nothing called"
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

/** Progress the runner reports as it goes. */
export type RunEvent =
  | { kind: "planned"; total: number; reuse: number; toCall: number; stale: RowPlan[] }
  | { kind: "answered"; rowId: string; attempts: number; tokens: number; done: number; toCall: number }
  | { kind: "failed"; rowId: string; reason: string; done: number; toCall: number };

/** How to run. */
export interface RunQaOptions {
  provider: AnswerProvider;
  retry: RetryPolicy;
  workers: number;
  source: SourceState;
  signal?: AbortSignal;
  now?: () => Date;
  onEvent?: (event: RunEvent) => void;
}

/** The outcome of a run. */
export interface RunQaSummary {
  reused: number;
  called: number;
  failed: { rowId: string; reason: string }[];
  /** Tasks never attempted because the run was interrupted. */
  notAttempted: number;
  interrupted: boolean;
  /** Total tokens reported by the calls this run made. */
  tokens: number;
}

function totalTokens(usage: Record<string, number>): number {
  return usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
}

/**
 * Runs (or resumes) the answer run in `directory`: writes `qa_run.json` if new, moves stale rows aside to
 * `responses/superseded/`, calls the provider for every task without a reusable row, and writes each answer
 * the moment it arrives. Aborting `signal` stops new calls and cancels those in flight; rows already written
 * stay valid for the next run.
 *
 * @example
 * ```ts ignore
 * import { runQa } from "./runner.ts";
 * const summary = await runQa(contracts, tasks, "/tmp/qa-run", { provider, retry: { maxAttempts: 3 }, workers: 3, source });
 * console.log(`${summary.reused} reused, ${summary.called} called, ${summary.failed.length} failed`);
 * ```
 */
export async function runQa(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  options: RunQaOptions,
): Promise<RunQaSummary> {
  const now = options.now ?? (() => new Date());
  const state = await checkRunDirectory(directory, contracts);
  await ensureDir(`${directory}/responses`);
  if (state === "new") {
    await writeFileAtomic(`${directory}/${MARKER_FILE}`, qaRunMarker(contracts, now(), options.source));
  }
  const plans = await planRows(directory, tasks);
  const stale = plans.filter((plan) => plan.state === "stale");
  if (stale.length > 0) {
    // Nothing is overwritten: a row that cannot be reused is kept aside, not replaced in place.
    const aside = `${directory}/responses/superseded`;
    const stamp = now().getTime();
    for (const plan of stale) await moveAside(plan.path, aside, `${plan.task.rowId}.${stamp}.json`);
  }
  const queue = plans.filter((plan) => plan.state !== "reuse");
  const summary: RunQaSummary = {
    reused: plans.length - queue.length,
    called: 0,
    failed: [],
    notAttempted: 0,
    interrupted: false,
    tokens: 0,
  };
  options.onEvent?.({
    kind: "planned",
    total: plans.length,
    reuse: summary.reused,
    toCall: queue.length,
    stale,
  });

  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) stop.abort();
  let fatal: unknown;
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (!stop.signal.aborted && next < queue.length) {
      const { task, path } = queue[next++];
      try {
        const { answer, attempts } = await answerWithRetries(
          options.provider,
          task.messages,
          options.retry,
          stop.signal,
        );
        await writeFileAtomic(path, answerRowJson(answerRow(task, answer, attempts, createdAtStamp(now()))));
        summary.called++;
        const tokens = totalTokens(answer.usage);
        summary.tokens += tokens;
        options.onEvent?.({
          kind: "answered",
          rowId: task.rowId,
          attempts,
          tokens,
          done: ++done,
          toCall: queue.length,
        });
      } catch (error) {
        if (error instanceof CallAbortedError) {
          summary.notAttempted++;
        } else if (error instanceof AnswerFailedError) {
          summary.failed.push({ rowId: task.rowId, reason: error.message });
          options.onEvent?.({
            kind: "failed",
            rowId: task.rowId,
            reason: error.message,
            done: ++done,
            toCall: queue.length,
          });
        } else {
          fatal ??= error;
          stop.abort();
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.workers, queue.length) }, worker));
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  if (fatal !== undefined) throw fatal;
  summary.notAttempted += queue.length - next;
  summary.interrupted = options.signal?.aborted ?? false;
  summary.failed.sort((a, b) => (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0));
  return summary;
}
