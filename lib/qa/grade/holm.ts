/**
 * Holm's step-down adjustment: p values of a family of tests made comparable with the family-wise error rate
 * (each candidate against one baseline is one test of the family).
 *
 * @module
 */

/**
 * Holm-adjusted p values, in the input's order: sorted ascending, the i-th smallest (from 0) times `m − i`,
 * raised to the running maximum, capped at 1.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { holmAdjust } from "./holm.ts";
 * deepStrictEqual(holmAdjust([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06]);
 * ```
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p || a.index - b.index);
  const adjusted = new Array<number>(m);
  let running = 0;
  for (const [rank, { p, index }] of order.entries()) {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  }
  return adjusted;
}
