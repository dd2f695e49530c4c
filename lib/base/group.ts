/**
 * Grouping rows for the summaries (`summary.json`, `qa.summary.json`): one group per distinct key, in order of
 * first appearance, members in input order (so per-group sums add up in the reference's order).
 *
 * @module
 */

/**
 * Splits `items` into groups of equal key, keys compared by value.
 *
 * @param items The rows to group.
 * @param keyOf The fields that define a group, as a tuple.
 * @returns One array per distinct key, in order of first appearance; members keep their input order.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { groupBy } from "./group.ts";
 * const rows = [{ s: "a", n: 1 }, { s: "b", n: 2 }, { s: "a", n: 3 }];
 * deepStrictEqual(groupBy(rows, (row) => [row.s]), [[rows[0], rows[2]], [rows[1]]]);
 * ```
 */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => readonly unknown[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = JSON.stringify(keyOf(item));
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return [...groups.values()];
}
