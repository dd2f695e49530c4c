/**
 * A policy author's kit, the package's `./policy` export: the contract a policy module's default export meets,
 * the two published policies as instances of it, and the function that runs any policy through the protocol's
 * cases, capacities and row format.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import type { Policy } from "./kit.ts";
 * const keepFirst: Policy = {
 *   name: "keep-first",
 *   select: ({ facts, capacity }) => ({
 *     kept: facts.slice(0, capacity).map((fact) => fact.id),
 *     evicted: facts.slice(capacity).map((fact) => fact.id),
 *     scores: {},
 *   }),
 * };
 * const fact = { content: "", category: "context", createdAt: "2026-08-01T00:00:00Z", source: "chat", confidence: 1 };
 * const input = { facts: [{ ...fact, id: "a" }, { ...fact, id: "b" }], usage: {}, capacity: 1, clock: "2026-08-13T00:00:00Z" };
 * deepStrictEqual(keepFirst.select(input).kept, ["a"]);
 * ```
 *
 * @module
 */

export type { Policy, PolicyDecision, PolicyInput, PolicyResult } from "./contract.ts";
export { CONFIDENCE_POLICY, hybridPolicy } from "./builtins.ts";
export { evaluatePolicy, type EvaluatePolicyOptions, type PolicyProtocol } from "./evaluate.ts";
export type { ModulePolicy } from "./module.ts";
export type { SandboxModule } from "./sandbox.ts";
export type { HybridParams } from "./selection_types.ts";
