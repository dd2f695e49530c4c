/**
 * Progress of a long command on standard error, kept out of standard output so outputs stay byte-identical: on
 * a terminal one live line (done/total, elapsed time, rate) that ends as one summary line; when piped, nothing.
 *
 * @module
 */

import type { Io } from "./_command.ts";

/** How often a step's live line is rewritten at most (a tick at the end is always shown). */
const REFRESH_MS = 100;

/** `3.2 s` (one decimal). */
export function formatElapsed(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/**
 * `count` units over `milliseconds` as a rate: one decimal under 10 a second, whole above.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { formatRate } from "./_progress.ts";
 * deepStrictEqual([formatRate(3, 2000, "calls"), formatRate(450, 1000, "cases"), formatRate(1, 0, "cases")],
 *   ["1.5 calls/s", "450 cases/s", "– cases/s"]);
 * ```
 */
export function formatRate(count: number, milliseconds: number, unit: string): string {
  if (milliseconds <= 0) return `– ${unit}/s`;
  const rate = count / (milliseconds / 1000);
  return `${rate < 10 ? rate.toFixed(1) : Math.round(rate).toLocaleString("en-US")} ${unit}/s`;
}

/** Counted progress: ticks rewrite the live line; `end` leaves one summary line. */
export interface Progress {
  /** `done` of `total` units so far. */
  tick(done: number, total: number): void;
  /** Replaces the live line with `label: N units in T s (R units/s)` (`what` after the label, if given). */
  end(what?: string): void;
}

/**
 * Progress for `label` (e.g. `sweep`) counted in `unit` (e.g. `cases`): only when `io` has a live line (a
 * terminal); piped, it prints nothing.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { countedProgress } from "./_progress.ts";
 * const shown: string[] = [];
 * let clock = 0;
 * const live = { update: (text: string) => shown.push(text), done: () => shown.push("\n") };
 * const progress = countedProgress({ out() {}, err: (line) => shown.push(line), env: () => undefined, live }, "sweep", "cases", () => clock);
 * clock = 2000;
 * progress.tick(4, 4);
 * progress.end();
 * deepStrictEqual(shown, ["sweep: 4/4 cases · 2.0 s · 2.0 cases/s", "sweep: 4 cases in 2.0 s (2.0 cases/s)", "\n"]);
 * ```
 */
export function countedProgress(
  io: Io,
  label: string,
  unit: string,
  now: () => number = () => performance.now(),
): Progress {
  const started = now();
  let shownAt = -Infinity;
  let count = 0;
  return {
    tick: (done, total) => {
      count = done;
      const at = now();
      if (io.live === undefined || (at - shownAt < REFRESH_MS && done < total)) return;
      shownAt = at;
      const elapsed = at - started;
      io.live.update(
        `${label}: ${done}/${total} ${unit} · ${formatElapsed(elapsed)} · ${formatRate(done, elapsed, unit)}`,
      );
    },
    end: (what) => {
      if (io.live === undefined) return;
      const elapsed = now() - started;
      const prefix = what === undefined ? `${label}:` : `${label}: ${what},`;
      // The live line becomes the summary, left on the screen.
      io.live.update(
        `${prefix} ${count} ${unit} in ${formatElapsed(elapsed)} (${formatRate(count, elapsed, unit)})`,
      );
      io.live.done();
    },
  };
}

/**
 * Runs one long step with no count of its own (preparing a dataset): on a terminal the live line shows its
 * elapsed time while it awaits, then one summary line with the `count` of `unit` it produced.
 */
export async function timedStep<T>(
  io: Io,
  label: string,
  doing: string,
  done: string,
  unit: string,
  work: () => Promise<T>,
  count: (result: T) => number,
): Promise<T> {
  if (io.live === undefined) return await work();
  const live = io.live;
  const started = performance.now();
  const show = () => live.update(`${label}: ${doing} · ${formatElapsed(performance.now() - started)}`);
  show();
  const timer = setInterval(show, 250);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    live.done();
    throw error;
  } finally {
    clearInterval(timer);
  }
  const elapsed = performance.now() - started;
  const n = count(result);
  live.update(
    `${label}: ${done}, ${n} ${unit} in ${formatElapsed(elapsed)} (${formatRate(n, elapsed, unit)})`,
  );
  live.done();
  return result;
}
