/**
 * `run-qa`: the resumable answer run. Credentials come only from the two environment variables the config
 * names; the output directory is bound to the protocol by `qa_run.json`; a stored row is reused only when it
 * matches its recomputed task field for field; every success is written at once, atomically, to
 * `responses/<row_id>.json`; at most `workers` calls are in flight; an abort signal stops cleanly. The directory
 * is locked (`run-qa.lock`) for the whole run; a 401 or 403 stops it at once; the key never reaches a row or a
 * message.
 *
 * @module
 */

import type { ProtocolConfig } from "../protocol/config.ts";
import type { Contracts } from "../protocol/contracts.ts";
import { ContractError, InputError, type ProviderError, RowIntegrityError } from "../base/errors.ts";
import { ensureDir, exists, moveAside, readTextIfExists, writeFileAtomic } from "../base/fs.ts";
import { acquireDirectoryLock, type LockHolder } from "../base/lock.ts";
import { checkMarker, MARKER_FILE, qaRunMarker } from "./run_marker.ts";
import {
  AnswerFailedError,
  type AnswerProvider,
  answerWithRetries,
  CallAbortedError,
  redact,
  redactAnswer,
  type RetryPolicy,
} from "./provider.ts";
import { codePointLength } from "../py/builtins.ts";
import type { SourceState } from "../protocol/identity.ts";
import { createdAtStamp } from "../py/time.ts";
import {
  type AnswerRow,
  answerRow,
  answerRowJson,
  identityMismatches,
  parseAnswerRow,
  responsePath,
} from "./answer_rows.ts";
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
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { InputError } from "../base/errors.ts";
 * import { resolveCredentials } from "./answering.ts";
 * const { config } = loadContracts(embeddedSources());
 * const env: Record<string, string> = { [config.qa.api_key_env]: "sk-test", [config.qa.base_url_env]: "https://llm.test/v1" };
 * deepStrictEqual(resolveCredentials(config, (name) => env[name]), { apiKey: "sk-test", baseUrl: "https://llm.test/v1" });
 * throws(() => resolveCredentials(config, () => undefined), InputError); // names the variable, never a value
 * ```
 */
export function resolveCredentials(
  config: ProtocolConfig,
  env: (name: string) => string | undefined,
): Credentials {
  const wanted = [
    [config.qa.api_key_env, "qa.api_key_env"],
    [config.qa.base_url_env, "qa.base_url_env"],
  ] as const;
  const missing = wanted.filter(([name]) => (env(name) ?? "") === "");
  if (missing.length > 0) {
    // Every unset variable at once, so that one run tells the whole story.
    const names = missing.map(([name, field]) => `${name} (the config's ${field})`).join(" and ");
    throw new InputError(
      `environment variable${missing.length === 1 ? "" : "s"} ${names} ${
        missing.length === 1 ? "is" : "are"
      } not set`,
    );
  }
  const apiKey = env(config.qa.api_key_env)!;
  const baseUrl = env(config.qa.base_url_env)!;
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
 * ```ts
 * import { doesNotThrow, throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { ContractError } from "../base/errors.ts";
 * import { checkQaSettings } from "./answering.ts";
 * const contracts = loadContracts(embeddedSources());
 * doesNotThrow(() => checkQaSettings(contracts));
 * const streaming = { ...contracts, config: { ...contracts.config, qa: { ...contracts.config.qa, stream: true } } };
 * throws(() => checkQaSettings(streaming), ContractError);
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
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { ContractError } from "../base/errors.ts";
 * import { checkRunDirectory } from "./answering.ts";
 * const contracts = loadContracts(embeddedSources());
 * const dir = await Deno.makeTempDir();
 * strictEqual(await checkRunDirectory(dir, contracts), "new");
 * await Deno.mkdir(`${dir}/responses`); // answer rows without qa_run.json
 * await rejects(checkRunDirectory(dir, contracts), ContractError);
 * ```
 */
export async function checkRunDirectory(directory: string, contracts: Contracts): Promise<"new" | "resume"> {
  const markerPath = `${directory}/${MARKER_FILE}`;
  // responses/ before the marker: a run writes the marker first, so one seen with rows is seen after them too
  // (read the other way round, a concurrent run could create both in between and look markerless).
  const hasRows = await exists(`${directory}/responses`);
  const marker = await readTextIfExists(markerPath);
  if (marker !== undefined) {
    checkMarker(marker, markerPath, contracts);
    return "resume";
  }
  if (hasRows) {
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
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { answerRow, answerRowJson, responsePath } from "./answer_rows.ts";
 * import { planRows } from "./answering.ts";
 * const task = {
 *   rowId: "q1__hybrid-v1", caseId: "q1", source: "longmemeval" as const, scenario: "access_help",
 *   questionType: "single-session-user", policy: "hybrid-v1" as const, capacity: 7, keptFactIds: ["f1"],
 *   supportAllRetained: true, supportRecall: 1, messages: [{ role: "user" as const, content: "How long?" }],
 *   requestFingerprint: "0".repeat(64), referenceAnswer: "seven weeks",
 * };
 * const dir = await Deno.makeTempDir();
 * deepStrictEqual((await planRows(dir, [task])).map((plan) => plan.state), ["missing"]);
 * await Deno.mkdir(`${dir}/responses`);
 * const row = answerRow(task, { prediction: "7", responseModel: null, usage: {} }, 1, "2026-11-29T00:00:00Z");
 * await Deno.writeTextFile(responsePath(dir, task.rowId), answerRowJson(row));
 * deepStrictEqual((await planRows(dir, [task])).map((plan) => plan.state), ["reuse"]);
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
 * import { deepStrictEqual } from "node:assert/strict";
 * import { dryRunLines } from "./answering.ts";
 * const task = {
 *   rowId: "q1__hybrid-v1", caseId: "q1", source: "longmemeval" as const, scenario: "access_help",
 *   questionType: "single-session-user", policy: "hybrid-v1" as const, capacity: 7, keptFactIds: ["f1"],
 *   supportAllRetained: true, supportRecall: 1, messages: [{ role: "user" as const, content: "How long?" }],
 *   requestFingerprint: "0".repeat(64), referenceAnswer: "seven weeks",
 * };
 * deepStrictEqual(dryRunLines([task]), [
 *   `q1__hybrid-v1  ${"0".repeat(64)}  9 chars`,
 *   "dry run: 1 tasks, 9 characters of messages, 1 call(s) needed; nothing called",
 * ]);
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
  /** Something the user should know that does not stop the run (a stale lock taken over, a key redacted). */
  | { kind: "warning"; rowId?: string; message: string }
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
  /** The API key: wherever its text appears in an answer or a reason, `[redacted]` is stored and printed. */
  secret?: string;
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
  /** The first 401 or 403, which stopped the run (the key is wrong for every call), or `null`. */
  credentialsRejected: { rowId: string; reason: string } | null;
}

function totalTokens(usage: Record<string, number>): number {
  return usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
}

/**
 * Runs (or resumes) the answer run in `directory` holding its lock (refusing with a `DirectoryLockedError`
 * naming the holder when another run holds it; taking over a stale one with a warning): writes `qa_run.json` if
 * new, moves stale rows aside to `responses/superseded/`, calls the provider for every task without a reusable
 * row, and writes each answer the moment it arrives. Aborting `signal` stops new calls and cancels those in
 * flight; rows already written stay valid for the next run. A 401 or 403 stops the run the same way and is
 * reported in `credentialsRejected`. The lock is released however the run ends.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { answerTasks } from "./answering.ts";
 * const task = {
 *   rowId: "q1__hybrid-v1", caseId: "q1", source: "longmemeval" as const, scenario: "access_help",
 *   questionType: "single-session-user", policy: "hybrid-v1" as const, capacity: 7, keptFactIds: ["f1"],
 *   supportAllRetained: true, supportRecall: 1, messages: [{ role: "user" as const, content: "How long?" }],
 *   requestFingerprint: "0".repeat(64), referenceAnswer: "seven weeks",
 * };
 * const provider = () => Promise.resolve({ prediction: "Seven weeks.", responseModel: "m", usage: { total_tokens: 5 } });
 * const dir = await Deno.makeTempDir();
 * const options = { provider, retry: { maxAttempts: 1 }, workers: 1, source: { dirty: null, head: null } };
 * const summary = await answerTasks(loadContracts(embeddedSources()), [task], dir, options); // an offline provider
 * strictEqual([summary.called, summary.tokens, summary.failed.length].join(), "1,5,0");
 * strictEqual((await answerTasks(loadContracts(embeddedSources()), [task], dir, options)).reused, 1); // resumed
 * ```
 */
export async function answerTasks(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  options: RunQaOptions,
): Promise<RunQaSummary> {
  await checkRunDirectory(directory, contracts);
  await ensureDir(directory);
  const lock = await acquireDirectoryLock(directory, "run-qa", LOCKED_ACTION, options.now);
  try {
    if (lock.tookOver !== null) {
      options.onEvent?.({ kind: "warning", message: `${lock.path}: ${takeoverText(lock.tookOver)}` });
    }
    return await runLocked(contracts, tasks, directory, options);
  } finally {
    lock.release();
  }
}

/** What a refusal on a locked directory tells the user to do. */
export const LOCKED_ACTION = "another run-qa is answering into this directory; wait for it to finish";

function takeoverText(holder: LockHolder): string {
  if (holder.pid === 0) return "taking over a stale lock whose file was unreadable (no process held it)";
  return `taking over a stale lock of ${holder.command} (pid ${holder.pid}, started ${holder.started_at}), which is no longer running`;
}

async function runLocked(
  contracts: Contracts,
  tasks: readonly AnswerTask[],
  directory: string,
  options: RunQaOptions,
): Promise<RunQaSummary> {
  const now = options.now ?? (() => new Date());
  // Checked again under the lock: a run that held it may have just written the marker.
  const state = await checkRunDirectory(directory, contracts);
  // The marker first: responses/ without it is a directory no run can resume (or a concurrent run refuses).
  if (state === "new") {
    await writeFileAtomic(`${directory}/${MARKER_FILE}`, qaRunMarker(contracts, now(), options.source));
  }
  await ensureDir(`${directory}/responses`);
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
    credentialsRejected: null,
  };
  const secret = options.secret ?? "";
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
        const { answer: received, attempts } = await answerWithRetries(
          options.provider,
          task.messages,
          options.retry,
          stop.signal,
        );
        const { answer, fields } = redactAnswer(received, secret);
        if (fields.length > 0) {
          options.onEvent?.({
            kind: "warning",
            rowId: task.rowId,
            message: `${task.rowId}: the answer contained the API key; stored with [redacted] in its place (${
              fields.join(", ")
            })`,
          });
        }
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
          const reason = redact(error.message, secret);
          if (reason !== error.message) {
            options.onEvent?.({
              kind: "warning",
              rowId: task.rowId,
              message:
                `${task.rowId}: the failure reason contained the API key; reported with [redacted] in its place`,
            });
          }
          const status = (error.cause as ProviderError | undefined)?.status;
          if (status === 401 || status === 403) {
            // The key is refused for one call, so for every call: sending the rest would only repeat it.
            const cause = redact((error.cause as ProviderError).message, secret);
            summary.credentialsRejected ??= { rowId: task.rowId, reason: cause };
            summary.notAttempted++;
            stop.abort();
            continue;
          }
          summary.failed.push({ rowId: task.rowId, reason });
          options.onEvent?.({
            kind: "failed",
            rowId: task.rowId,
            reason,
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

/**
 * The SIGINT handler for `run-qa`: the first signal calls `stop` (finish gracefully: summary and resume hint);
 * further signals within `graceMs` of it are copies of the same Ctrl-C (`deno task` has the terminal signal the
 * whole process group) and are ignored; one after that calls `quit` (leave at once).
 *
 * @example
 * ```ts
 * import { interruptHandler } from "./answering.ts";
 * const onSignal = interruptHandler({ stop: () => console.log("stopping"), quit: () => console.log("quit") });
 * onSignal(); // "stopping"
 * onSignal(); // nothing: the same Ctrl-C, delivered twice
 * ```
 */
export function interruptHandler(
  actions: { stop: () => void; quit: () => void },
  options: { graceMs?: number; now?: () => number } = {},
): () => void {
  const now = options.now ?? (() => performance.now());
  const graceMs = options.graceMs ?? 1000;
  let first: number | undefined;
  return () => {
    const at = now();
    if (first === undefined) {
      first = at;
      actions.stop();
    } else if (at - first > graceMs) {
      actions.quit();
    }
  };
}
