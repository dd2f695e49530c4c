/**
 * A policy author's kit, the package's `./policy` export: the contract a policy module's default export meets,
 * the two published policies as instances of it, the function that runs any policy through the protocol's
 * cases, capacities and row format, and the rule its name follows through the QA stages.
 *
 * A module is one file whose default export is a {@linkcode Policy}: `select` is synchronous, pure and
 * deterministic (it is asked twice per case and both answers must agree), keeps at most `capacity` facts and
 * puts every fact in `kept` or `evicted` exactly once. Its `name` must not be a published policy's; to be
 * answered by `run-qa --policy-module` (against `--baseline confidence` or `hybrid-v1`) it must also pass
 * {@linkcode checkCandidateName}, since it names the row files. The module's SHA-256 identifies the run: every
 * later stage (`grade-qa`, `verify --dataset`, `report`, `explain`) takes the same module and refuses another.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, doesNotThrow } from "node:assert/strict";
 * import { checkCandidateName, type Policy } from "./kit.ts";
 * const keepFirst: Policy = {
 *   name: "keep-first",
 *   select: ({ facts, capacity }) => ({
 *     kept: facts.slice(0, capacity).map((fact) => fact.id),
 *     evicted: facts.slice(capacity).map((fact) => fact.id),
 *     scores: Object.fromEntries(facts.map((fact, rank) => [fact.id, -rank])), // every fact needs a score
 *   }),
 * };
 * const fact = { content: "", category: "context", createdAt: "2026-08-01T00:00:00Z", source: "chat", confidence: 1 };
 * const input = { facts: [{ ...fact, id: "a" }, { ...fact, id: "b" }], usage: {}, capacity: 1, clock: "2026-08-13T00:00:00Z" };
 * deepStrictEqual(keepFirst.select(input).kept, ["a"]);
 * doesNotThrow(() => checkCandidateName(keepFirst.name, "keep_first.ts")); // fit to name run-qa's row files
 * ```
 *
 * @module
 */

export type { Policy, PolicyDecision, PolicyInput, PolicyResult } from "./contract.ts";
export { CONFIDENCE_POLICY, hybridPolicy } from "./builtins.ts";
export { checkCandidateName } from "./candidate_name.ts";
export { evaluatePolicy, type EvaluatePolicyOptions, type PolicyProtocol } from "./evaluate.ts";
export type { ModulePolicy } from "./module.ts";
export type { SandboxModule } from "./sandbox.ts";
export type { HybridParams } from "./selection_types.ts";
