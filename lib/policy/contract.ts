/**
 * The policy contract: an eviction policy is a function from (facts, usage, capacity, clock) to kept and evicted
 * fact ids with per-fact scores. The two published policies are instances of it (builtins.ts); a module
 * exporting another instance is judged under the same protocol (evaluate.ts), its decisions checked here.
 *
 * @module
 */

import * as z from "../base/zod.ts";
import type { Fact, Pool, PreparedCase, ProtocolConfig, UsageEntry } from "../protocol/mod.ts";
import { isoformatZulu, type PyJson } from "../py/mod.ts";

/** What a policy sees of one case at one capacity: the pool (read-only copies) and the evaluation clock. */
export interface PolicyInput {
  /** The case's facts, sorted by id (ties in score are broken by this order in the built-ins). */
  readonly facts: readonly Readonly<Fact>[];
  /** The usage sidecar: fact id → access heat, count and last access. */
  readonly usage: Readonly<Record<string, Readonly<UsageEntry>>>;
  /** How many facts may be kept. */
  readonly capacity: number;
  /** The evaluation clock, an ISO timestamp in UTC (`2026-08-13T00:00:00Z`). */
  readonly clock: string;
}

/** A policy's decision for one case at one capacity. Every fact must be kept or evicted, exactly once. */
export interface PolicyDecision {
  /** Kept fact ids, in the policy's order; at most `capacity` of them. */
  readonly kept: readonly string[];
  /** Evicted fact ids, lowest-ranked first. */
  readonly evicted: readonly string[];
  /** A score per fact id. */
  readonly scores: Readonly<Record<string, number>>;
  /** Optional named score components per fact id (written beside the score in each row). */
  readonly components?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Slots reserved for corrections, when the policy has such a rule (0 when absent). */
  readonly reservedCorrectionSlots?: number;
}

/**
 * The contract of an eviction policy. A policy module's default export is one of these.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import type { Policy } from "./contract.ts";
 * const keepFirst: Policy = {
 *   name: "keep-first",
 *   select: ({ facts, capacity }) => ({
 *     kept: facts.slice(0, capacity).map((fact) => fact.id),
 *     evicted: facts.slice(capacity).reverse().map((fact) => fact.id),
 *     scores: Object.fromEntries(facts.map((fact, rank) => [fact.id, -rank])),
 *   }),
 * };
 * const fact = { content: "", category: "context", createdAt: "2026-08-01T00:00:00Z", source: "chat", confidence: 1 };
 * const input = { facts: [{ ...fact, id: "a" }, { ...fact, id: "b" }], usage: {}, capacity: 1, clock: "2026-08-13T00:00:00Z" };
 * deepStrictEqual(keepFirst.select(input).evicted, ["b"]);
 * ```
 */
export interface Policy {
  /** The name written in each row's `policy` field. */
  readonly name: string;
  /** Decides one case at one capacity; must be synchronous, pure and deterministic. */
  select(input: PolicyInput): PolicyDecision;
}

/** A case evaluated under one policy at one capacity. */
export interface PolicyResult {
  /** The case evaluated. */
  prepared: PreparedCase;
  /** The policy's name. */
  policy: string;
  /** The capacity the pool was cut to. */
  capacity: number;
  /** The case's full pool. */
  pool: Pool;
  /** The facts the policy kept. */
  keptFacts: Fact[];
  /** The `policy.raw.jsonl` row (Python-typed for byte-identical output). */
  row: Record<string, PyJson>;
  /** Whether every support fact was kept. */
  supportAllRetained: boolean;
  /** The fraction of support facts kept, in [0, 1]. */
  supportRecall: number;
}

/**
 * The input a policy sees for a pool: the evaluation clock as `isoformat()` with `Z`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { buildPool } from "../protocol/pool.ts";
 * import { policyInput } from "./contract.ts";
 * const { contracts: { config }, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const input = policyInput(buildPool(cases[0], config.evaluation_time), 7, config);
 * strictEqual(input.clock, "2026-08-13T00:00:00Z");
 * strictEqual(input.capacity, 7);
 * ```
 */
export function policyInput(pool: Pool, capacity: number, config: ProtocolConfig): PolicyInput {
  return { facts: pool.facts, usage: pool.usage, capacity, clock: isoformatZulu(config.evaluation_time) };
}

const Decision = z.object({
  kept: z.array(z.string()),
  evicted: z.array(z.string()),
  scores: z.record(z.string(), z.number()),
  components: z.optional(z.record(z.string(), z.record(z.string(), z.number()))),
  reservedCorrectionSlots: z.optional(z.number().check(z.int(), z.minimum(0))),
});

/**
 * A policy's output checked for shape; a malformed one is refused through `refuse`, naming the first issue.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { parseDecision } from "./contract.ts";
 * const refuse = (message: string): never => { throw new Error(message); };
 * deepStrictEqual(parseDecision({ kept: [], evicted: [], scores: {} }, refuse).kept, []);
 * throws(() => parseDecision({ kept: [1], evicted: [], scores: {} }, refuse), /malformed decision: kept\.0/);
 * ```
 */
export function parseDecision(output: unknown, refuse: (message: string) => never): PolicyDecision {
  const parsed = Decision.safeParse(output);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length === 0 ? "the decision" : issue.path.map(String).join(".");
    return refuse(`malformed decision: ${field}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Refuses, through `refuse`, a decision that names an unknown fact, keeps or evicts a fact twice or not at all,
 * leaves a fact unscored, or keeps more than the capacity.
 *
 * @example
 * ```ts
 * import { doesNotThrow, throws } from "node:assert/strict";
 * import { checkDecision } from "./contract.ts";
 * const refuse = (message: string): never => { throw new Error(message); };
 * const pool = { facts: [{ id: "a" }, { id: "b" }] };
 * doesNotThrow(() => checkDecision({ kept: ["a"], evicted: ["b"], scores: { a: 1, b: 0 } }, pool, 1, refuse));
 * throws(() => checkDecision({ kept: ["a", "b"], evicted: [], scores: { a: 1, b: 0 } }, pool, 1, refuse), /capacity/);
 * ```
 */
export function checkDecision(
  decision: PolicyDecision,
  pool: { readonly facts: readonly { readonly id: string }[] },
  capacity: number,
  refuse: (message: string) => never,
): void {
  const known = new Set(pool.facts.map((fact) => fact.id));
  const seen = new Set<string>();
  for (const id of [...decision.kept, ...decision.evicted]) {
    if (!known.has(id)) refuse(`returns unknown fact id ${JSON.stringify(id)}`);
    if (seen.has(id)) refuse(`returns fact id ${JSON.stringify(id)} twice`);
    seen.add(id);
  }
  for (const id of Object.keys(decision.scores)) {
    if (!known.has(id)) refuse(`scores unknown fact id ${JSON.stringify(id)}`);
  }
  for (const id of Object.keys(decision.components ?? {})) {
    if (!known.has(id)) refuse(`gives components for unknown fact id ${JSON.stringify(id)}`);
  }
  if (decision.kept.length > capacity) {
    refuse(`keeps ${decision.kept.length} facts, more than the capacity ${capacity}`);
  }
  for (const id of known) {
    if (!seen.has(id)) refuse(`neither keeps nor evicts fact ${JSON.stringify(id)}`);
    if (!Object.hasOwn(decision.scores, id)) refuse(`gives no score for fact ${JSON.stringify(id)}`);
  }
}
