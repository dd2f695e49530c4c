/**
 * The answer run's options, events and summary: what `answering.ts` takes and gives, and what its worker pool
 * reads.
 *
 * @module
 */

import type { SourceState } from "../../protocol/mod.ts";
import type { PublishOptions } from "../../base/mod.ts";
import type { AnswerProvider } from "./provider.ts";
import type { RetryPolicy } from "./retry.ts";
import type { RunCandidate } from "../run/candidate.ts";
import type { CostBudget } from "./cost.ts";
import type { ReuseSource } from "./answer_reuse.ts";
import type { RowPlan } from "./resume.ts";

/** Progress the runner reports as it goes. */
export type RunEvent =
  & (
    | { kind: "planned"; total: number; reuse: number; toCall: number; stale: RowPlan[] }
    /** Something the user should know that does not stop the run (a stale lock taken over, a key redacted). */
    | { kind: "warning"; rowId?: string; message: string }
    | { kind: "answered"; rowId: string; attempts: number; tokens: number; done: number; toCall: number }
    | { kind: "failed"; rowId: string; reason: string; done: number; toCall: number }
  )
  & {
    /** With `--epochs K` above 1: the run (from 1) of the K the event belongs to; absent for one run. */
    epoch?: { run: number; of: number };
  };

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
  /** How the marker and rows are published (a test's hook sees each file operation). */
  publish?: PublishOptions;
  /** Call at most this many tasks (the first in row order); the others wait for the next run. */
  limit?: number;
  /** A candidate run's module and baseline: recorded in a new marker, held to a resumed one. */
  candidate?: RunCandidate;
  /**
   * The run's total budget (`--max-cost`): every attempt's worst case is counted before it is made, with what
   * earlier invocations recorded in `spend.jsonl`; an attempt that would pass it is not made and the rest wait.
   */
  budget?: CostBudget;
  /** Record the endpoint in `reuse.json` and take identical requests' answers from these earlier runs. */
  reuse?: { endpoint: string; sources: readonly ReuseSource[] };
  /** A record of the run's own (its kind), written beside a new run's marker. */
  record?: { name: string; text: string };
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
  /** How many of this run's answers each reported model gave (the model the API says served it). */
  responseModels: Record<string, number>;
  /** Tasks left for the next run by `limit`. */
  leftForLater: number;
  /** With a budget: tasks it left for the next run (counted apart from `leftForLater`). */
  leftByBudget?: number;
  /** With a budget: the run's spend (its worst case, in USD) recorded before this invocation. */
  spentBefore?: number;
  /** With `reuse`: the rows this run copied from earlier runs (each a call saved; counted in `reused`). */
  copiedFromRuns?: number;
  /** The first call that found no server on any attempt before any call succeeded, which stopped the run. */
  unreachable?: { rowId: string; reason: string };
}
