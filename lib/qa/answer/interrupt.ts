/**
 * Ctrl-C during `run-qa`: the first stops the run gracefully, a second (after a grace period) leaves at once.
 *
 * @module
 */

/**
 * The SIGINT handler for `run-qa`: the first signal calls `stop` (finish gracefully: summary and resume hint);
 * further signals within `graceMs` of it are copies of the same Ctrl-C (`deno task` has the terminal signal the
 * whole process group) and are ignored; one after that calls `quit` (leave at once).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { interruptHandler } from "./interrupt.ts";
 * const calls: string[] = [];
 * let clock = 0;
 * const onSignal = interruptHandler({ stop: () => calls.push("stop"), quit: () => calls.push("quit") }, { now: () => clock });
 * onSignal();
 * onSignal(); // the same Ctrl-C, delivered twice: ignored
 * clock = 2000;
 * onSignal(); // a second Ctrl-C
 * deepStrictEqual(calls, ["stop", "quit"]);
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
