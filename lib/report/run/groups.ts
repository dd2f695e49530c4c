/**
 * Grouping rules the report's sections, charts and comparison share: the scenarios in first-seen order, the
 * capacities in ascending order, a policy run's group at a capacity, and how many cases kept the support.
 *
 * @module
 */

import { POLICIES, type PolicySummaryGroup, type RetentionEntry } from "../../policy/mod.ts";

/** A policy run's policies: the published two, then a module's (as its rows name it), in that order. */
export function runPolicies(items: readonly { policy: string }[]): string[] {
  const others = items.map((item) => item.policy).filter((policy) =>
    !(POLICIES as readonly string[]).includes(policy)
  );
  return [...POLICIES, ...new Set(others)];
}

/** The distinct (source, scenario) pairs of `items`, in the order they first appear. */
export function scenarioKeys(items: readonly { source: string; scenario: string }[]): [string, string][] {
  const keys = new Map<string, [string, string]>();
  for (const { source, scenario } of items) {
    const key = JSON.stringify([source, scenario]);
    if (!keys.has(key)) keys.set(key, [source, scenario]);
  }
  return [...keys.values()];
}

/** The distinct capacities of `items`, ascending. */
export function capacitiesOf(items: readonly { capacity: number }[]): number[] {
  return [...new Set(items.map((item) => item.capacity))].sort((a, b) => a - b);
}

/** Of the entries at `capacity` under `policy`: how many kept every support fact, of how many. */
export function supportKept(
  entries: readonly RetentionEntry[],
  capacity: number,
  policy: string,
): { kept: number; cases: number } {
  const members = entries.filter((entry) => entry.capacity === capacity && entry.policy === policy);
  return { kept: members.filter((entry) => entry.supportAllRetained).length, cases: members.length };
}

/** The summary group of one capacity, scenario and policy, if the run has one. */
export function policyGroup(
  groups: readonly PolicySummaryGroup[],
  capacity: number,
  [source, scenario]: readonly [string, string],
  policy: string,
): PolicySummaryGroup | undefined {
  return groups.find((item) =>
    item.capacity === capacity && item.source === source && item.scenario === scenario &&
    item.policy === policy
  );
}
