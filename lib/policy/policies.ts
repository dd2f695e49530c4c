/**
 * The policy contract: an eviction policy is a function from (facts, usage, capacity, clock) to kept and evicted
 * fact ids with per-fact scores. The two published policies, `confidence` and `hybrid-v1`, are instances of it
 * (the production selector behind each); a TypeScript module exporting another instance is judged under the same
 * protocol — same cases, capacities and `policy.raw.jsonl` rows — with its decisions checked and each case run
 * twice to prove it deterministic.
 *
 * @module
 */

import * as z from "../base/zod.ts";
import type { ProtocolConfig } from "../protocol/config.ts";
import { isoformatZulu } from "../py/time.ts";
import type { PreparedCase } from "../protocol/cases.ts";
import { PolicyModuleError } from "../base/errors.ts";
import {
  EVICTION_POLICY_CONFIDENCE,
  EVICTION_POLICY_HYBRID_V1,
  type EvictionPolicy,
  type HybridParams,
  selectFactsForCapacity,
} from "./selector.ts";
import { readBytes } from "../base/fs.ts";
import { sha256Hex } from "../base/hash.ts";
import { buildPool, type Fact, type Pool, type UsageEntry } from "../protocol/pool.ts";
import { dumps, PyFloat, type PyJson } from "../py/json.ts";

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
 * import type { Policy } from "./policies.ts";
 * const newestFirst: Policy = {
 *   name: "newest-first",
 *   select: ({ facts, capacity }) => {
 *     const ranked = [...facts].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
 *     return {
 *       kept: ranked.slice(0, capacity).map((fact) => fact.id),
 *       evicted: ranked.slice(capacity).reverse().map((fact) => fact.id),
 *       scores: Object.fromEntries(ranked.map((fact, rank) => [fact.id, 1 - rank / ranked.length])),
 *     };
 *   },
 * };
 * console.log(newestFirst.name); // "newest-first"
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
 * The `hybrid-v1` parameters a config pins.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { hybridParams } from "./policies.ts";
 * const { config } = loadContracts(embeddedSources());
 * strictEqual(hybridParams(config).confidenceWeight, 0.65);
 * strictEqual(hybridParams(config).accessHalfLifeDays, config.policies.hybrid_v1.access_half_life_days);
 * ```
 */
export function hybridParams(config: ProtocolConfig): HybridParams {
  const hybrid = config.policies.hybrid_v1;
  return {
    confidenceWeight: hybrid.weights.confidence,
    confirmationWeight: hybrid.weights.confirmation,
    accessWeight: hybrid.weights.access,
    confirmationHalfLifeDays: hybrid.confirmation_half_life_days,
    accessHalfLifeDays: hybrid.access_half_life_days,
    correctionReservedFraction: hybrid.correction_reserved_fraction,
    correctionReservedMax: hybrid.correction_reserved_max,
  };
}

/**
 * The inverse of {@linkcode hybridParams}: parameters in the config's `policies.hybrid_v1` shape (floats as
 * Python writes them), as `sweep` records each parameter set.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { hybridParams, hybridParamsConfig } from "./policies.ts";
 * import { dumps } from "../py/json.ts";
 * const { config } = loadContracts(embeddedSources());
 * const params = hybridParamsConfig({ ...hybridParams(config), confidenceWeight: 0.5 });
 * strictEqual(dumps(params.weights), '{"access": 0.1, "confidence": 0.5, "confirmation": 0.25}');
 * strictEqual(params.access_half_life_days, config.policies.hybrid_v1.access_half_life_days);
 * ```
 */
export function hybridParamsConfig(params: HybridParams): { [key: string]: PyJson } {
  return {
    access_half_life_days: params.accessHalfLifeDays,
    confirmation_half_life_days: params.confirmationHalfLifeDays,
    correction_reserved_fraction: new PyFloat(params.correctionReservedFraction),
    correction_reserved_max: params.correctionReservedMax,
    weights: {
      access: new PyFloat(params.accessWeight),
      confidence: new PyFloat(params.confidenceWeight),
      confirmation: new PyFloat(params.confirmationWeight),
    },
  };
}

/** The reference's `HybridParams` field names (flat, as the eviction vectors spell them) → ours. */
export const HYBRID_PARAM_NAMES: Readonly<Record<string, keyof HybridParams>> = {
  confidence_weight: "confidenceWeight",
  confirmation_weight: "confirmationWeight",
  access_weight: "accessWeight",
  confirmation_half_life_days: "confirmationHalfLifeDays",
  access_half_life_days: "accessHalfLifeDays",
  correction_reserved_fraction: "correctionReservedFraction",
  correction_reserved_max: "correctionReservedMax",
};

/** A built-in policy: the production selector under one of its two names. */
function selectorPolicy(policy: EvictionPolicy, params?: HybridParams): Policy {
  return {
    name: policy,
    select: ({ facts, usage, capacity, clock }) => {
      const selection = selectFactsForCapacity(facts, {
        maxFacts: capacity,
        policy,
        now: clock,
        usage,
        params,
      });
      const scores: Record<string, number> = {};
      const components: Record<string, Record<string, number>> = {};
      for (const [id, score] of selection.scores) {
        scores[id] = score.value;
        const named: Record<string, number> = {};
        for (const [key, value] of Object.entries(score.components)) {
          if (value !== undefined) named[key] = value;
        }
        components[id] = named;
      }
      return {
        kept: selection.kept.map((fact) => fact.id),
        evicted: selection.evicted.map((fact) => fact.factId),
        scores,
        components,
        reservedCorrectionSlots: selection.reservedCorrectionSlots,
      };
    },
  };
}

/**
 * The historical `confidence` policy as an instance of the contract.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { CONFIDENCE_POLICY } from "./policies.ts";
 * strictEqual(CONFIDENCE_POLICY.name, "confidence");
 * const fact = { content: "", category: "context", createdAt: "2026-08-01T00:00:00Z", source: "chat" };
 * const decision = CONFIDENCE_POLICY.select({
 *   facts: [{ ...fact, id: "a", confidence: 0.2 }, { ...fact, id: "b", confidence: 0.9 }],
 *   usage: {},
 *   capacity: 1,
 *   clock: "2026-08-13T00:00:00Z",
 * });
 * deepStrictEqual(decision.kept, ["b"]);
 * deepStrictEqual(decision.evicted, ["a"]);
 * ```
 */
export const CONFIDENCE_POLICY: Policy = selectorPolicy(EVICTION_POLICY_CONFIDENCE);

/**
 * `hybrid-v1` with the given parameters as an instance of the contract.
 *
 * @param params The `hybrid-v1` weights, half-lives and correction slots.
 * @returns The policy, named `hybrid-v1`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { DEFAULT_HYBRID_PARAMS } from "./selector.ts";
 * import { hybridPolicy } from "./policies.ts";
 * strictEqual(hybridPolicy(DEFAULT_HYBRID_PARAMS).name, "hybrid-v1");
 * ```
 */
export function hybridPolicy(params: HybridParams): Policy {
  return selectorPolicy(EVICTION_POLICY_HYBRID_V1, params);
}

/**
 * The published policies under a config, in the order every output lists them: `confidence`, `hybrid-v1`.
 *
 * @param config The protocol config; `hybrid-v1` takes its parameters from `policies.hybrid_v1`.
 * @returns The two policies.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { builtinPolicies } from "./policies.ts";
 * const { config } = loadContracts(embeddedSources());
 * deepStrictEqual(builtinPolicies(config).map((policy) => policy.name), ["confidence", "hybrid-v1"]);
 * ```
 */
export function builtinPolicies(config: ProtocolConfig): Policy[] {
  return [CONFIDENCE_POLICY, hybridPolicy(hybridParams(config))];
}

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
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { CONFIDENCE_POLICY, policyInput, policyResult } from "./policies.ts";
 * import { buildPool } from "../protocol/pool.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const text = (source: string, body: string) => ({ source, bytes: new TextEncoder().encode(body) });
 * const contracts = loadContracts({
 *   config: text("c.yaml", demo.config), official: text("o.json", demo.official), synthetic: text("s.json", demo.synthetic),
 * });
 * const { cases } = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const pool = buildPool(cases[0], contracts.config.evaluation_time);
 * const decision = CONFIDENCE_POLICY.select(policyInput(pool, 7, contracts.config));
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
  return {
    prepared,
    policy: policyName,
    capacity,
    pool,
    keptFacts: decision.kept.map((id) => factById.get(id)!),
    row,
    supportAllRetained,
    supportRecall,
  };
}

/** The input a policy sees for a pool: the evaluation clock as `isoformat()` with `Z`. */
export function policyInput(pool: Pool, capacity: number, config: ProtocolConfig): PolicyInput {
  return { facts: pool.facts, usage: pool.usage, capacity, clock: isoformatZulu(config.evaluation_time) };
}

/**
 * Runs a trusted policy (a built-in) on one case at one capacity, without the checks of
 * {@linkcode evaluatePolicy}.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { CONFIDENCE_POLICY, evaluateCase, evaluateTrusted } from "./policies.ts";
 * import { buildPool } from "../protocol/pool.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const text = (source: string, body: string) => ({ source, bytes: new TextEncoder().encode(body) });
 * const contracts = loadContracts({
 *   config: text("c.yaml", demo.config), official: text("o.json", demo.official), synthetic: text("s.json", demo.synthetic),
 * });
 * const { cases } = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const pool = buildPool(cases[0], contracts.config.evaluation_time);
 * const result = evaluateTrusted(CONFIDENCE_POLICY, cases[0], 7, contracts.config, pool);
 * deepStrictEqual(result.row, evaluateCase(cases[0], "confidence", 7, contracts.config).row);
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

const Decision = z.object({
  kept: z.array(z.string()),
  evicted: z.array(z.string()),
  scores: z.record(z.string(), z.number()),
  components: z.optional(z.record(z.string(), z.record(z.string(), z.number()))),
  reservedCorrectionSlots: z.optional(z.number().check(z.int(), z.minimum(0))),
});

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

function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split("\n")[0];
}

/**
 * Runs any policy through the protocol — every case × capacity, in the order and row format of `run-policy` —
 * and refuses it, naming the origin and the case, when it throws, returns a malformed decision, names an
 * unknown fact, keeps or evicts a fact twice or not at all, keeps more than the capacity, or decides a case
 * differently when asked twice.
 *
 * @param policy The policy to evaluate.
 * @param protocol The prepared protocol: the config and the cases.
 * @param options Where the policy came from (for messages) and extra row fields.
 * @returns One result per case and capacity, cases in protocol order, capacities ascending.
 * @throws {PolicyModuleError} When the policy breaks the contract on a case.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { CONFIDENCE_POLICY, evaluatePolicy } from "./policies.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data, pinned: the real dataset is not in the package
 * const bytes = (text: string) => new TextEncoder().encode(text);
 * const contracts = loadContracts({
 *   config: { source: "demo.yaml", bytes: bytes(demo.config) },
 *   official: { source: "demo-official.json", bytes: bytes(demo.official) },
 *   synthetic: { source: "demo-synthetic.json", bytes: bytes(demo.synthetic) },
 * });
 * const prepared = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const results = evaluatePolicy(CONFIDENCE_POLICY, prepared);
 * strictEqual(results.length, 45 * contracts.config.pool.capacities.length); // every case at every capacity
 * ```
 */
export function evaluatePolicy(
  policy: Policy,
  protocol: PolicyProtocol,
  options: EvaluatePolicyOptions = {},
): PolicyResult[] {
  const { config } = protocol.contracts;
  const origin = options.origin ?? policy.name;
  const results: PolicyResult[] = [];
  for (const prepared of protocol.cases) {
    const pool = buildPool(prepared, config.evaluation_time);
    for (const capacity of config.pool.capacities) {
      const where = `case ${prepared.caseId} at capacity ${capacity}`;
      const refuse = (message: string): never => {
        throw new PolicyModuleError(message, { path: origin, field: where });
      };
      const decide = (): PolicyDecision => {
        let output: unknown;
        try {
          output = policy.select(frozenCopy(policyInput(pool, capacity, config)));
        } catch (error) {
          return refuse(`the policy threw ${firstLine(error)}`);
        }
        const parsed = Decision.safeParse(output);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const field = issue.path.length === 0 ? "the decision" : issue.path.map(String).join(".");
          return refuse(`malformed decision: ${field}: ${issue.message}`);
        }
        return parsed.data;
      };
      const decision = decide();
      checkDecision(decision, pool, capacity, refuse);
      const result = policyResult(prepared, policy.name, capacity, pool, decision, options.rowFields);
      const again = policyResult(prepared, policy.name, capacity, pool, decide(), options.rowFields);
      if (dumps(again.row) !== dumps(result.row)) {
        refuse("not deterministic: two runs of the same case differ");
      }
      results.push(result);
    }
  }
  return results;
}

function checkDecision(
  decision: PolicyDecision,
  pool: Pool,
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

/** A policy loaded from a module file, with what identifies it in the rows. */
export interface LoadedPolicyModule {
  policy: Policy;
  /** The module's file name (its last path segment). */
  moduleName: string;
  /** The path as given. */
  path: string;
  /** SHA-256 of the module's source bytes. */
  sha256: string;
}

/** A path as a `file:` URL (the pathname setter percent-encodes what a URL cannot hold), without node:url. */
function fileUrl(path: string): string {
  const url = new URL("file:///");
  url.pathname = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  return url.href;
}

/**
 * Loads a policy module: its default export must be a {@linkcode Policy} (`{ name, select }`). The source is
 * hashed from the bytes read; the module is then imported (it runs with the caller's permissions, so the CLI
 * gives up network and environment first). A module that fails to load or exports something else is a
 * {@linkcode PolicyModuleError} naming it; a file that cannot be read is refused as any input is.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { InputError, PolicyModuleError } from "../base/errors.ts";
 * import { sha256Hex } from "../base/hash.ts";
 * import { loadPolicyModule } from "./policies.ts";
 * const directory = await Deno.makeTempDir();
 * const source = 'export default { name: "keep-first", select: (input) => ({ ' +
 *   "kept: input.facts.slice(0, input.capacity).map((fact) => fact.id), " +
 *   "evicted: input.facts.slice(input.capacity).map((fact) => fact.id), scores: {} }) };\n";
 * await Deno.writeTextFile(`${directory}/keep_first.js`, source);
 * const loaded = await loadPolicyModule(`${directory}/keep_first.js`);
 * strictEqual(loaded.policy.name, "keep-first");
 * strictEqual(loaded.sha256, sha256Hex(source));
 * await Deno.writeTextFile(`${directory}/nothing.js`, "export default 42;\n");
 * await rejects(loadPolicyModule(`${directory}/nothing.js`), PolicyModuleError); // not a policy
 * await rejects(loadPolicyModule(`${directory}/missing.js`), InputError); // not found, as any input
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function loadPolicyModule(path: string): Promise<LoadedPolicyModule> {
  const bytes = await readBytes(path, "policy module");
  const sha256 = sha256Hex(bytes);
  let module: Record<string, unknown>;
  try {
    module = await import(fileUrl(path));
  } catch (error) {
    throw new PolicyModuleError(`cannot load the module: ${firstLine(error)}`, { path, cause: error });
  }
  const policy = module.default as Partial<Policy> | undefined;
  if (
    policy === null || typeof policy !== "object" || typeof policy.name !== "string" || policy.name === "" ||
    typeof policy.select !== "function"
  ) {
    throw new PolicyModuleError(
      "must export default a policy { name: non-empty string, select: function }",
      { path, field: "default" },
    );
  }
  if (policy.name === EVICTION_POLICY_CONFIDENCE || policy.name === EVICTION_POLICY_HYBRID_V1) {
    // Its rows would pass for the published policy's wherever only the name is read.
    throw new PolicyModuleError(`must not take a published policy's name (${policy.name})`, {
      path,
      field: "default.name",
    });
  }
  return { policy: policy as Policy, moduleName: path.slice(path.lastIndexOf("/") + 1), path, sha256 };
}

/** The two policies, in the order every output lists them. */
export const POLICIES: readonly [EvictionPolicy, ...EvictionPolicy[]] = [
  EVICTION_POLICY_CONFIDENCE,
  EVICTION_POLICY_HYBRID_V1,
];

/**
 * Runs the production selector for one case, policy and capacity.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { evaluateCase } from "./policies.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const text = (source: string, body: string) => ({ source, bytes: new TextEncoder().encode(body) });
 * const contracts = loadContracts({
 *   config: text("c.yaml", demo.config), official: text("o.json", demo.official), synthetic: text("s.json", demo.synthetic),
 * });
 * const { cases } = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const result = evaluateCase(cases[0], "hybrid-v1", 7, contracts.config);
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
  const instance = policy === "confidence" ? CONFIDENCE_POLICY : hybridPolicy(hybridParams(config));
  return evaluateTrusted(instance, prepared, capacity, config, pool);
}

/**
 * Every case × capacity × policy, in that nesting order (the order of `policy.raw.jsonl`).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { loadContracts } from "../protocol/contracts.ts";
 * import { buildDemoProtocol } from "../protocol/demo.ts";
 * import { evaluateAll } from "./policies.ts";
 * import { prepareProtocol } from "../protocol/prepare.ts";
 * const demo = await buildDemoProtocol(); // generated data: the pinned dataset is not in the package
 * const text = (source: string, body: string) => ({ source, bytes: new TextEncoder().encode(body) });
 * const contracts = loadContracts({
 *   config: text("c.yaml", demo.config), official: text("o.json", demo.official), synthetic: text("s.json", demo.synthetic),
 * });
 * const { cases } = await prepareProtocol(contracts, demo.dataset, "demo.json");
 * const results = evaluateAll(cases.slice(0, 2), contracts.config); // 2 cases × 3 capacities × 2 policies
 * deepStrictEqual(results.length, 12);
 * deepStrictEqual(results.slice(0, 3).map((result) => [result.capacity, result.policy]), [[5, "confidence"], [5, "hybrid-v1"], [7, "confidence"]]);
 * ```
 */
export function evaluateAll(cases: readonly PreparedCase[], config: ProtocolConfig): PolicyResult[] {
  const policies = [CONFIDENCE_POLICY, hybridPolicy(hybridParams(config))];
  const results: PolicyResult[] = [];
  for (const prepared of cases) {
    const pool = buildPool(prepared, config.evaluation_time);
    for (const capacity of config.pool.capacities) {
      for (const policy of policies) results.push(evaluateTrusted(policy, prepared, capacity, config, pool));
    }
  }
  return results;
}
