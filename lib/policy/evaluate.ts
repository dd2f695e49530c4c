/**
 * Policies run through the protocol: every case × capacity, in the order and row format of `run-policy`. The
 * built-ins are trusted ({@linkcode evaluateAll}, {@linkcode evaluateCase}); any other policy is checked on
 * every decision and run twice per case to prove it deterministic ({@linkcode evaluatePolicy}).
 *
 * @module
 */

import { buildPool, type Pool, type PreparedCase, type ProtocolConfig } from "../protocol/mod.ts";
import { PolicyModuleError } from "./errors.ts";
import { dumps, PyFloat, type PyJson } from "../py/mod.ts";
import { builtinPolicies, builtinPolicy } from "./builtins.ts";
import {
  checkDecision,
  parseDecision,
  type Policy,
  type PolicyDecision,
  type PolicyInput,
  policyInput,
  type PolicyResult,
} from "./contract.ts";
import type { EvictionPolicy } from "./selection_types.ts";
import { firstLine } from "./_messages.ts";
import { isModulePolicy, type ModulePolicy } from "./module.ts";
import { PolicySandbox, type SelectOutcome } from "./sandbox.ts";

function componentsJson(components: Readonly<Record<string, number>> | undefined): Record<string, PyJson> {
  const out: Record<string, PyJson> = {};
  for (const [key, value] of Object.entries(components ?? {})) out[key] = new PyFloat(value);
  return out;
}

/**
 * Turns a decision into the case's result and `policy.raw.jsonl` row (the decision is trusted here; see
 * {@linkcode evaluatePolicy} for the checks). `extra` adds fields to the row, e.g. a module's name and hash.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { buildPool } from "../protocol/pool.ts";
 * import { CONFIDENCE_POLICY } from "./builtins.ts";
 * import { policyInput } from "./contract.ts";
 * import { policyResult } from "./evaluate.ts";
 * const { contracts: { config }, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const pool = buildPool(cases[0], config.evaluation_time);
 * const decision = CONFIDENCE_POLICY.select(policyInput(pool, 7, config));
 * const result = policyResult(cases[0], "confidence", 7, pool, decision, { note: "x" });
 * deepStrictEqual([result.keptFacts.map((fact) => fact.id), result.row.note], [[...decision.kept], "x"]);
 * ```
 */
export function policyResult(
  prepared: PreparedCase,
  policyName: string,
  capacity: number,
  pool: Pool,
  decision: PolicyDecision,
  extra: Readonly<Record<string, PyJson>> = {},
): PolicyResult {
  const factById = new Map(pool.facts.map((fact) => [fact.id, fact]));
  const keptSet = new Set(decision.kept);
  const retained = pool.supportFactIds.filter((id) => keptSet.has(id)).length;
  const supportRecall = retained / pool.supportFactIds.length;
  const supportAllRetained = retained === pool.supportFactIds.length;
  const row: Record<string, PyJson> = {
    capacity,
    case_id: prepared.caseId,
    evicted: decision.evicted.map((id) => ({
      // The selector writes "context" for a missing or empty category.
      category: factById.get(id)?.category || "context",
      components: componentsJson(decision.components?.[id]),
      fact_id: id,
      score: new PyFloat(decision.scores[id]),
    })),
    kept_fact_ids: [...decision.kept],
    policy: policyName,
    question_type: prepared.questionType,
    reserved_correction_slots: decision.reservedCorrectionSlots ?? 0,
    scenario: prepared.scenario,
    schema_version: 1,
    scores: Object.fromEntries(
      Object.entries(decision.scores).map(([id, value]) => [id, {
        components: componentsJson(decision.components?.[id]),
        value: new PyFloat(value),
      }]),
    ),
    source: prepared.source,
    support_all_retained: supportAllRetained,
    support_fact_ids: pool.supportFactIds,
    support_recall: new PyFloat(supportRecall),
    ...extra,
  };
  const keptFacts = decision.kept.map((id) => factById.get(id)!);
  return { prepared, policy: policyName, capacity, pool, keptFacts, row, supportAllRetained, supportRecall };
}

/**
 * Runs a trusted policy (a built-in) on one case at one capacity, without the checks of
 * {@linkcode evaluatePolicy}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { buildPool } from "../protocol/pool.ts";
 * import { CONFIDENCE_POLICY } from "./builtins.ts";
 * import { evaluateCase, evaluateTrusted } from "./evaluate.ts";
 * const { contracts: { config }, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const result = evaluateTrusted(CONFIDENCE_POLICY, cases[0], 7, config, buildPool(cases[0], config.evaluation_time));
 * deepStrictEqual(result.row, evaluateCase(cases[0], "confidence", 7, config).row);
 * ```
 */
export function evaluateTrusted(
  policy: Policy,
  prepared: PreparedCase,
  capacity: number,
  config: ProtocolConfig,
  pool: Pool,
): PolicyResult {
  const decision = policy.select(policyInput(pool, capacity, config));
  return policyResult(prepared, policy.name, capacity, pool, decision);
}

/** Options of {@linkcode evaluatePolicy}. */
export interface EvaluatePolicyOptions {
  /** Where the policy came from, for error messages (a module path); default the policy's name. */
  origin?: string;
  /** Fields added to every row (a module's name and SHA-256). */
  rowFields?: Readonly<Record<string, PyJson>>;
}

/** The parts of a prepared protocol {@linkcode evaluatePolicy} reads. */
export interface PolicyProtocol {
  /** The contracts; only the config is read. */
  contracts: { config: ProtocolConfig };
  /** The prepared cases, in protocol order. */
  cases: readonly PreparedCase[];
}

/** A read-only deep copy, so a policy can neither change the pool nor carry state in it. */
function frozenCopy<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (item: unknown): void => {
    if (item === null || typeof item !== "object") return;
    Object.freeze(item);
    for (const child of Object.values(item)) freeze(child);
  };
  freeze(copy);
  return copy;
}

/** Decides one case at one capacity: `select`'s outcomes, the second only when the first did not throw. */
type Decide = (input: PolicyInput, where: string) => Promise<SelectOutcome[]>;

/** A policy in this process, asked twice on read-only copies. */
function decideInProcess(policy: Policy): Decide {
  const once = (input: PolicyInput): SelectOutcome => {
    try {
      return { output: policy.select(frozenCopy(input)) };
    } catch (error) {
      return { threw: firstLine(error) };
    }
  };
  return (input) => {
    const first = once(input);
    return Promise.resolve("threw" in first ? [first] : [first, once(input)]);
  };
}

/** A module's decisions checked as every policy's: the first shaped, known and within capacity, the second equal. */
function checkedResult(
  prepared: PreparedCase,
  name: string,
  capacity: number,
  pool: Pool,
  outcomes: readonly SelectOutcome[],
  options: EvaluatePolicyOptions & { origin: string },
): PolicyResult {
  const refuse = (message: string): never => {
    throw new PolicyModuleError(message, {
      path: options.origin,
      field: `case ${prepared.caseId} at capacity ${capacity}`,
    });
  };
  const decision = (outcome: SelectOutcome | undefined): PolicyDecision => {
    if (outcome === undefined) return refuse("its sandbox sent a malformed answer");
    if ("threw" in outcome) return refuse(`the policy threw ${outcome.threw}`);
    return parseDecision(outcome.output, refuse);
  };
  const first = decision(outcomes[0]);
  checkDecision(first, pool, capacity, refuse);
  const result = policyResult(prepared, name, capacity, pool, first, options.rowFields);
  const again = policyResult(prepared, name, capacity, pool, decision(outcomes[1]), options.rowFields);
  if (dumps(again.row) !== dumps(result.row)) refuse("not deterministic: two runs of the same case differ");
  return result;
}

/**
 * Runs any policy through the protocol — every case × capacity, in the order and row format of `run-policy` —
 * and refuses it, naming the origin and the case, when it throws, returns a malformed decision, names an
 * unknown fact, keeps or evicts a fact twice or not at all, keeps more than the capacity, or decides a case
 * differently when asked twice. A module's policy ({@linkcode ModulePolicy}) runs in its sandbox: the host
 * builds each case's input, the sandbox answers as data within the per-case time limit, and is killed before
 * this returns; a policy object runs in this process.
 *
 * @param policy The policy to evaluate: in this process, or a loaded module's.
 * @param protocol The prepared protocol: the config and the cases.
 * @param options Where the policy came from (for messages) and extra row fields.
 * @returns One result per case and capacity, cases in protocol order, capacities ascending.
 * @throws {PolicyModuleError} When the policy breaks the contract or its sandbox's limits on a case.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { CONFIDENCE_POLICY } from "./builtins.ts";
 * import { evaluatePolicy } from "./evaluate.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const results = await evaluatePolicy(CONFIDENCE_POLICY, prepared);
 * strictEqual(results.length, 45 * prepared.contracts.config.pool.capacities.length); // every case, every capacity
 * ```
 */
export async function evaluatePolicy(
  policy: Policy | ModulePolicy,
  protocol: PolicyProtocol,
  options: EvaluatePolicyOptions = {},
): Promise<PolicyResult[]> {
  const { config } = protocol.contracts;
  const origin = options.origin ?? (isModulePolicy(policy) ? policy.module.origin : policy.name);
  const opened = isModulePolicy(policy) ? await PolicySandbox.open(policy.module) : undefined;
  const decide: Decide = opened === undefined
    ? decideInProcess(policy as Policy)
    : (input, where) => opened.sandbox.decide(input, where);
  try {
    if (opened !== undefined && opened.loaded.name !== policy.name) {
      throw new PolicyModuleError("changed its policy's name between two loads", { path: origin });
    }
    const results: PolicyResult[] = [];
    for (const prepared of protocol.cases) {
      const pool = buildPool(prepared, config.evaluation_time);
      for (const capacity of config.pool.capacities) {
        const outcomes = await decide(
          policyInput(pool, capacity, config),
          `case ${prepared.caseId} at capacity ${capacity}`,
        );
        results.push(checkedResult(prepared, policy.name, capacity, pool, outcomes, { ...options, origin }));
      }
    }
    return results;
  } finally {
    await opened?.sandbox.close();
  }
}

/**
 * Runs the production selector for one case, policy and capacity.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { evaluateCase } from "./evaluate.ts";
 * const { contracts: { config }, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const result = evaluateCase(cases[0], "hybrid-v1", 7, config);
 * strictEqual(result.keptFacts.length, 7);
 * strictEqual(result.supportAllRetained, result.supportRecall === 1);
 * ```
 */
export function evaluateCase(
  prepared: PreparedCase,
  policy: EvictionPolicy,
  capacity: number,
  config: ProtocolConfig,
  pool: Pool = buildPool(prepared, config.evaluation_time),
): PolicyResult {
  return evaluateTrusted(builtinPolicy(policy, config), prepared, capacity, config, pool);
}

/**
 * Every case × capacity × policy, in that nesting order (the order of `policy.raw.jsonl`).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { evaluateAll } from "./evaluate.ts";
 * const { contracts: { config }, cases } = await prepareDemoProtocol(await buildDemoProtocol());
 * const results = evaluateAll(cases.slice(0, 2), config); // 2 cases × 3 capacities × 2 policies
 * deepStrictEqual(results.length, 12);
 * deepStrictEqual(results.slice(0, 3).map((result) => [result.capacity, result.policy]), [[5, "confidence"], [5, "hybrid-v1"], [7, "confidence"]]);
 * ```
 */
export function evaluateAll(cases: readonly PreparedCase[], config: ProtocolConfig): PolicyResult[] {
  const policies = builtinPolicies(config);
  const results: PolicyResult[] = [];
  for (const prepared of cases) {
    const pool = buildPool(prepared, config.evaluation_time);
    for (const capacity of config.pool.capacities) {
      for (const policy of policies) results.push(evaluateTrusted(policy, prepared, capacity, config, pool));
    }
  }
  return results;
}
