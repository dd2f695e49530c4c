/**
 * Stage 4, `run-qa` (the only networked stage): checks the settings, resolves the credentials before the dataset
 * is touched, refuses a locked or foreign directory, prepares the tasks and asks the answer model for each,
 * resuming what a previous run stored. Signals and printing stay with the caller (an `AbortSignal`, callbacks).
 *
 * @module
 */

import type { ProtocolConfig } from "../protocol/config.ts";
import { InputError } from "../base/errors.ts";
import { refuseIfLocked } from "../base/lock.ts";
import type { SourceState } from "../protocol/identity.ts";
import { openAiProvider } from "../qa/provider.ts";
import {
  answerTasks,
  checkQaSettings,
  checkRunDirectory,
  dryRunLines,
  LOCKED_ACTION,
  planRows,
  resolveCredentials,
  type RunEvent,
  type RunQaSummary,
} from "../qa/answering.ts";
import { buildAnswerTasks, requestSettings } from "../qa/tasks.ts";
import { type ContractPaths, prepareDataset, readContracts } from "../protocol/prepare.ts";

/** What `run-qa` reads and where it reports. */
export interface RunQaRequest {
  contracts: ContractPaths;
  dataset: string | undefined;
  /** The run directory; optional only for a dry run (which then plans no reuse). */
  directory: string | undefined;
  /** Build the tasks and describe them; call nothing, write nothing, need no key. */
  dryRun: boolean;
  /** Where the key and the base URL are read from (the two variables the config names). */
  env: (name: string) => string | undefined;
  /** Recorded in the marker in place of the reference's git state. */
  source: SourceState;
  /** Aborting stops new calls and cancels those in flight. */
  signal?: AbortSignal;
  /**
   * Called once, with the API key, just before the first call: from then on nothing printed may carry its
   * text.
   */
  onStart?: (secret: string) => void;
  onEvent?: (event: RunEvent) => void;
}

/** How a `run-qa` ended: the dry run's lines, or the run's summary and the QA settings it ran under. */
export type RunQaOutcome =
  | { kind: "dry-run"; lines: string[] }
  | { kind: "ran"; summary: RunQaSummary; qa: ProtocolConfig["qa"] };

const RUN_QA_HINT = "run it with `deno task run-qa …`";

/**
 * run-qa needs the network and the two variables the config names; `deno task cli` grants neither and would
 * make the variables read as unset, so say which task to use instead of "is not set".
 */
function requireRunQaPermissions(qa: { api_key_env: string; base_url_env: string }): void {
  const names = [qa.api_key_env, qa.base_url_env];
  const denied = names.filter((variable) =>
    Deno.permissions.querySync({ name: "env", variable }).state !== "granted"
  );
  if (denied.length === 0) return;
  if (Deno.permissions.querySync({ name: "net" }).state !== "granted") {
    throw new InputError(
      `run-qa calls the answer model: ${RUN_QA_HINT} (network access and the variables ${
        names.join(" and ")
      }); ` +
        "`deno task cli` runs the offline commands",
    );
  }
  throw new InputError(
    `run-qa may not read ${denied.join(" and ")}, which the config names: ` +
      `add ${denied.length === 1 ? "it" : "them"} to the run-qa task's --allow-env`,
  );
}

function requireNetPermission(baseUrl: string, qa: { api_key_env: string; base_url_env: string }): void {
  const host = new URL(baseUrl).host;
  if (Deno.permissions.querySync({ name: "net", host }).state === "granted") return;
  throw new InputError(
    `run-qa calls the answer model at ${host} (from ${qa.base_url_env}), but this invocation has no network ` +
      `permission for it: ${RUN_QA_HINT}`,
  );
}

/**
 * Stage 4: in this order — the contracts and their QA settings; the credentials and the permissions to use
 * them (before the dataset is touched); the directory's marker and lock; the dataset, cases and tasks; then
 * either the dry run's lines or the calls (resuming stored rows).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { runQa } from "./run_qa.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const dir = await Deno.makeTempDir();
 * for (const [name, body] of [["c.yaml", demo.config], ["o.json", demo.official], ["s.json", demo.synthetic]]) {
 *   await Deno.writeTextFile(`${dir}/${name}`, body);
 * }
 * await Deno.writeFile(`${dir}/data.json`, demo.dataset);
 * const contracts = { config: `${dir}/c.yaml`, officialManifest: `${dir}/o.json`, syntheticManifest: `${dir}/s.json` };
 * const outcome = await runQa({ // a dry run: no key, no call, nothing written
 *   contracts, dataset: `${dir}/data.json`, directory: undefined, dryRun: true, env: () => undefined, source: { dirty: null, head: null },
 * });
 * strictEqual(outcome.kind === "dry-run" && outcome.lines.at(-1)?.startsWith("dry run: 90 tasks, "), true);
 * ```
 */
export async function runQa(request: RunQaRequest): Promise<RunQaOutcome> {
  const { directory, dryRun } = request;
  const contracts = await readContracts(request.contracts);
  checkQaSettings(contracts);
  // Credentials first: a missing variable must fail before the dataset is touched.
  if (!dryRun) requireRunQaPermissions(contracts.config.qa);
  const credentials = dryRun ? undefined : resolveCredentials(contracts.config, request.env);
  if (credentials !== undefined) requireNetPermission(credentials.baseUrl, contracts.config.qa);
  if (directory !== undefined) {
    await checkRunDirectory(directory, contracts);
    if (!dryRun) await refuseIfLocked(directory, LOCKED_ACTION);
  }
  const prepared = await prepareDataset(contracts, request.dataset);
  const tasks = buildAnswerTasks(contracts, prepared.cases);
  if (credentials === undefined) {
    const plans = directory === undefined ? undefined : await planRows(directory, tasks);
    return { kind: "dry-run", lines: dryRunLines(tasks, plans) };
  }
  const qa = contracts.config.qa;
  const provider = openAiProvider({
    baseUrl: credentials.baseUrl,
    apiKey: credentials.apiKey,
    settings: requestSettings(contracts),
    timeoutSeconds: qa.timeout_seconds,
  });
  request.onStart?.(credentials.apiKey);
  const summary = await answerTasks(contracts, tasks, directory!, {
    provider,
    retry: { maxAttempts: qa.max_attempts },
    workers: qa.workers,
    source: request.source,
    signal: request.signal,
    onEvent: request.onEvent,
    secret: credentials.apiKey,
  });
  return { kind: "ran", summary, qa };
}
