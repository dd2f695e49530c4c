/**
 * How `run-qa` ends: Ctrl-C as a graceful stop, then the summary's lines and the exit they call for.
 *
 * @module
 */

import { CommandFailedError, exitAtOnce, StoppedError, visible } from "../base/mod.ts";
import { BudgetExceededError, interruptHandler, type RunQaSummary } from "../qa/mod.ts";
import { type ProtocolConfig, STAND_IN_MODEL } from "../protocol/mod.ts";
import type { Io } from "./_command.ts";

/** What a run that called the endpoint ends with. */
export interface RanOutcome {
  summary: RunQaSummary;
  qa: ProtocolConfig["qa"];
  maxCostUsd?: number;
}

/** Listens for Ctrl-C: the first stops gracefully, another quits at once. */
export function listenForInterrupt(note: (line: string) => void, interrupt: AbortController): () => void {
  const handler = interruptHandler({
    stop: () => {
      note("interrupted: stopping; rows already written stay valid (Ctrl-C again to quit at once)");
      interrupt.abort();
    },
    // Leaving at once skips finally blocks; the lock is released by its "unload" listener.
    quit: () => exitAtOnce(new StoppedError("SIGINT")),
  });
  Deno.addSignalListener("SIGINT", handler);
  return handler;
}

/** Prints the summary's lines; a failed, stopped or budget-limited run throws what its exit calls for. */
export function reportOutcome(outcome: RanOutcome, say: Io): void {
  const { summary, qa } = outcome;
  if (summary.copiedFromRuns !== undefined && summary.copiedFromRuns > 0) {
    say.out(
      `reused from earlier runs: ${summary.copiedFromRuns} answer(s), ${summary.copiedFromRuns} call(s) saved ` +
        "(their origins in reuse.json)",
    );
  }
  say.out(`answer rows: ${summary.reused} reused, ${summary.called} called, ${summary.failed.length} failed`);
  if (summary.leftForLater > 0) {
    say.out(
      `limited by --limit: ${summary.leftForLater} task(s) left; run the same command without it to answer them`,
    );
  }
  const standIn = summary.responseModels[STAND_IN_MODEL];
  if (standIn !== undefined) {
    say.out(
      `stand-in: ${standIn} answer(s) from ${STAND_IN_MODEL}, a deterministic stand-in, not a language model`,
    );
  }
  const others = Object.entries(summary.responseModels).filter(([model]) =>
    model !== qa.model && model !== STAND_IN_MODEL
  );
  if (others.length > 0) {
    const count = others.reduce((sum, [, answers]) => sum + answers, 0);
    // A server's model name is outside text: JSON's quoting, then every control left in it escaped.
    const listed = others.map(([model, answers]) => `${visible(JSON.stringify(model))} (${answers})`).join(
      ", ",
    );
    say.err(`warning: ${count} answer(s) came from a model other than qa.model ${qa.model}: ${listed}`);
  }
  for (const failure of summary.failed) say.out(`  failed ${failure.rowId}: ${failure.reason}`);
  if (summary.credentialsRejected !== null) {
    say.out(
      `stopped: the endpoint rejected the API key (${summary.credentialsRejected.reason}), so no further ` +
        `call was sent; check ${qa.api_key_env} and ${qa.base_url_env}, then run the same command to resume`,
    );
    throw new CommandFailedError("the endpoint rejected the API key");
  }
  if (summary.unreachable !== undefined) {
    say.out(
      `stopped: ${summary.unreachable.reason}, so no further call was sent; check ${qa.base_url_env}, then run ` +
        "the same command to resume",
    );
    throw new CommandFailedError("the endpoint cannot be reached");
  }
  if (summary.leftByBudget !== undefined && summary.leftByBudget > 0) {
    const before = summary.spentBefore ?? 0;
    say.out(
      `stopped by --max-cost $${outcome.maxCostUsd} (the run's total; $${before.toFixed(4)} spent before ` +
        `this invocation): ${summary.leftByBudget} task(s) left; the rows written stay valid: a larger ` +
        "--max-cost answers them",
    );
  }
  if (summary.interrupted) {
    say.out(`interrupted: ${summary.notAttempted} row(s) not attempted; run the same command to resume`);
    throw new StoppedError("SIGINT");
  }
  if (summary.failed.length > 0) throw new CommandFailedError(`${summary.failed.length} row(s) failed`);
  if (summary.leftByBudget !== undefined && summary.leftByBudget > 0) {
    throw new BudgetExceededError(`${summary.leftByBudget} task(s) left by --max-cost`);
  }
}
