/**
 * The protocol config (`configs/*.yaml`): a strict schema with every rule of the reference's Pydantic model,
 * read as the reference reads it — YAML as PyYAML's `safe_load` (py/yaml.ts), values converted as pydantic's
 * lax mode converts them (lax.ts) — plus a few deliberate bounds, each listed in README's known differences.
 *
 * @module
 */

import * as z from "../base/zod.ts";
import { ContractError, parseWith, type SameType, type Schema } from "../base/mod.ts";
import {
  type Instant,
  laxBigInt,
  laxBool,
  laxFloat,
  laxInt,
  laxIntLiteral,
  parseEvaluationTime,
  parsePyYamlFile,
} from "../py/mod.ts";

const sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits (SHA-256)"));
const revision = z.string().check(z.regex(/^[0-9a-f]{40}$/, "must be 40 lowercase hex digits"));
const nonEmpty = z.string().check(z.minLength(1, "must be a non-empty string"));
const envName = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"));
const unit = laxFloat().check(z.refine((value) => value >= 0 && value <= 1, "must be in [0, 1]"));

/** Deliberate bounds where the reference would hang or crash (README: known differences). */
export const QA_LIMITS = Object.freeze({
  /** The largest timeout a timer can hold: 2^31 − 1 ms. */
  timeoutSeconds: 2_147_483,
  workers: 64,
  maxAttempts: 20,
  /** A request's max_tokens is a signed 32-bit integer for OpenAI-compatible servers. */
  maxTokens: 2 ** 31 - 1,
  bootstrapIterations: 10_000_000,
});

function unique<T>(values: readonly T[]): boolean {
  return new Set(values).size === values.length;
}

/** The `hybrid-v1` weights, each in [0, 1] and summing to 1 (checked by {@linkcode ProtocolConfig}). */
export interface HybridWeights {
  /** The weight of the fact's stored confidence. */
  confidence: number;
  /** The weight of the decayed confirmation count. */
  confirmation: number;
  /** The weight of the decayed access count. */
  access: number;
}

const hybridWeightsSchema = z.strictObject({
  confidence: unit,
  confirmation: unit,
  access: unit,
});

/**
 * The `hybrid-v1` weights schema: exactly these three keys.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { HybridWeights } from "./config.ts";
 * deepStrictEqual(HybridWeights.parse({ confidence: 0.65, confirmation: 0.25, access: 0.1 }), {
 *   confidence: 0.65,
 *   confirmation: 0.25,
 *   access: 0.1,
 * });
 * strictEqual(HybridWeights.safeParse({ confidence: 2, confirmation: 0, access: 0 }).success, false);
 * ```
 */
export const HybridWeights: Schema<HybridWeights> = hybridWeightsSchema;

/** A validated config (`configs/*.yaml`); `evaluation_time` is parsed (UTC). */
export interface ProtocolConfig {
  /** Always 1. */
  schema_version: 1;
  /** The protocol's name, stamped into every output. */
  protocol_id: string;
  /** The protocol an authored protocol was made from (`author-protocol`); absent in the pinned one. */
  authored_from?: string;
  /** The eviction policy version the protocol was frozen against. */
  required_policy_version: string;
  /** The instant every score is computed at. */
  evaluation_time: Instant;
  /** The pinned LongMemEval file. */
  dataset: {
    /** The Hugging Face repository. */
    repository: string;
    /** The 40-hex-digit commit. */
    revision: string;
    /** The file inside the repository. */
    filename: string;
    /** The file's SHA-256 (64 lowercase hex digits). */
    sha256: string;
  };
  /** How each case's fact pool is built. */
  pool: {
    /** Facts per pool: the support fact and `distractors` distractors. */
    size: number;
    /** The capacities each policy is evaluated at. */
    capacities: number[];
    /** The capacity the QA stage answers at (one of `capacities`). */
    qa_capacity: number;
    /** Distractors per pool (`size − 1`). */
    distractors: number;
    /** The number of candidate distractors offsets are drawn from. */
    distractor_bank_size: number;
    /** The question types distractors are drawn from. */
    distractor_types: string[];
    /** The shortest evidence a distractor may have. */
    distractor_min_evidence_chars: number;
    /** The longest evidence a distractor may have. */
    distractor_max_evidence_chars: number;
    /** The namespace hashed into each case's distractor offset. */
    offset_namespace: string;
    /** The order facts are listed in: always by fact id. */
    fact_order: "fact-id";
  };
  /** The two policies' parameters. */
  policies: {
    /** The confidence baseline. */
    confidence: {
      /** Always `confidence`. */
      policy: "confidence";
    };
    /** The hybrid policy. */
    hybrid_v1: {
      /** Always `hybrid-v1`. */
      policy: "hybrid-v1";
      /** The score weights. */
      weights: HybridWeights;
      /** Days for a confirmation's weight to halve. */
      confirmation_half_life_days: number;
      /** Days for an access's weight to halve. */
      access_half_life_days: number;
      /** The fraction of capacity reserved for corrections. */
      correction_reserved_fraction: number;
      /** The most slots reserved for corrections. */
      correction_reserved_max: number;
    };
  };
  /** The answer stage's settings. */
  qa: {
    /** The answer prompt template and its SHA-256. */
    answer_prompt: {
      /** The template's path, relative to the config's directory. */
      path: string;
      /** The template's SHA-256. */
      sha256: string;
    };
    /** The grader version rows must carry. */
    grader_version: string;
    /** Always `openai-compatible`. */
    provider: "openai-compatible";
    /** The environment variable holding the API key. */
    api_key_env: string;
    /** The environment variable holding the base URL. */
    base_url_env: string;
    /** The answer model. */
    model: string;
    /** The sampling temperature (finite, ≥ 0). */
    temperature: number;
    /** The answer's token budget. */
    max_tokens: number;
    /** Whether responses are streamed. */
    stream: boolean;
    /** Each request's timeout. */
    timeout_seconds: number;
    /** Calls per task before giving up. */
    max_attempts: number;
    /** Concurrent requests. */
    workers: number;
  };
  /** The paired statistics' settings. */
  statistics: {
    /** The bootstrap's Mersenne Twister seed (any integer, as Python's). */
    bootstrap_seed: bigint;
    /** Bootstrap resamples. */
    bootstrap_iterations: number;
    /** The significance level, in (0, 1). */
    alpha: number;
  };
}

const protocolConfigSchema = z.strictObject({
  schema_version: laxIntLiteral(1),
  protocol_id: nonEmpty,
  authored_from: z.optional(nonEmpty),
  required_policy_version: nonEmpty,
  evaluation_time: z.transform((value: unknown, context) => {
    const instant = parseEvaluationTime(value);
    if (typeof instant !== "string") return instant;
    context.issues.push({ code: "custom", message: instant, input: value });
    return z.NEVER;
  }),
  dataset: z.strictObject({ repository: nonEmpty, revision, filename: z.string(), sha256 }),
  pool: z.strictObject({
    size: laxInt({ min: 2 }),
    capacities: z.array(laxInt()).check(
      z.minLength(1, "must not be empty"),
      z.refine(unique, "must be unique"),
    ),
    qa_capacity: laxInt({ min: 1 }),
    distractors: laxInt({ min: 1 }),
    distractor_bank_size: laxInt({ min: 1 }),
    distractor_types: z.array(nonEmpty).check(
      z.minLength(1, "must not be empty"),
      z.refine(unique, "must be unique"),
    ),
    distractor_min_evidence_chars: laxInt({ min: 0 }),
    distractor_max_evidence_chars: laxInt({ min: 1 }),
    offset_namespace: nonEmpty,
    fact_order: z.literal("fact-id", "must be fact-id"),
  }),
  policies: z.strictObject({
    // The reference's models default each policy name, so the key may be left out.
    confidence: z.strictObject({
      policy: z._default(z.literal("confidence", "must be confidence"), "confidence"),
    }),
    hybrid_v1: z.strictObject({
      policy: z._default(z.literal("hybrid-v1", "must be hybrid-v1"), "hybrid-v1"),
      weights: hybridWeightsSchema,
      confirmation_half_life_days: laxInt({ min: 1 }),
      access_half_life_days: laxInt({ min: 1 }),
      correction_reserved_fraction: unit,
      correction_reserved_max: laxInt({ min: 0 }),
    }),
  }),
  qa: z.strictObject({
    answer_prompt: z.strictObject({ path: nonEmpty, sha256 }),
    grader_version: nonEmpty,
    provider: z.literal("openai-compatible", "must be openai-compatible"),
    api_key_env: envName,
    base_url_env: envName,
    model: nonEmpty,
    temperature: laxFloat().check(
      z.refine((value) => Number.isFinite(value) && value >= 0, "must be a finite number ≥ 0"),
    ),
    max_tokens: laxInt({ min: 1, max: QA_LIMITS.maxTokens }),
    stream: laxBool(),
    timeout_seconds: laxInt({ min: 1, max: QA_LIMITS.timeoutSeconds }),
    max_attempts: laxInt({ min: 1, max: QA_LIMITS.maxAttempts }),
    workers: laxInt({ min: 1, max: QA_LIMITS.workers }),
  }),
  statistics: z.strictObject({
    bootstrap_seed: laxBigInt(),
    bootstrap_iterations: laxInt({ min: 1, max: QA_LIMITS.bootstrapIterations }),
    alpha: laxFloat().check(z.refine((value) => value > 0 && value < 1, "must be in (0, 1)")),
  }),
}).check(z.superRefine((config, context) => {
  const { pool, policies } = config;
  const issue = (path: (string | number)[], message: string) =>
    context.addIssue({ code: "custom", path, message });
  if (pool.distractors !== pool.size - 1) issue(["pool", "distractors"], "must equal pool.size - 1");
  if (pool.distractor_bank_size < pool.distractors) {
    issue(["pool", "distractor_bank_size"], "must be ≥ pool.distractors");
  }
  pool.capacities.forEach((capacity, index) => {
    if (capacity < 1 || capacity > pool.size - 1) {
      issue(["pool", "capacities", index], "must be in [1, pool.size - 1]");
    }
  });
  if (!pool.capacities.includes(pool.qa_capacity)) {
    issue(["pool", "qa_capacity"], "must be one of pool.capacities");
  }
  if (pool.distractor_min_evidence_chars > pool.distractor_max_evidence_chars) {
    issue(["pool", "distractor_min_evidence_chars"], "must be ≤ pool.distractor_max_evidence_chars");
  }
  const { confidence, confirmation, access } = policies.hybrid_v1.weights;
  // math.isclose(sum, 1.0, rel_tol=0, abs_tol=1e-9); a NaN weight fails it.
  if (!(Math.abs(confidence + confirmation + access - 1) <= 1e-9)) {
    issue(["policies", "hybrid_v1", "weights"], "must sum to 1");
  }
}));

/**
 * The config schema (unknown keys rejected at every level), applied to YAML already parsed.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { ProtocolConfig } from "./config.ts";
 * import { embeddedSources } from "./contracts.ts";
 * import { parsePyYaml } from "../py/yaml.ts";
 * import { decodeStrictUtf8 } from "../base/utf8.ts";
 * const data = parsePyYaml(decodeStrictUtf8(embeddedSources().config.bytes));
 * strictEqual(ProtocolConfig.parse(data).pool.qa_capacity, 7);
 * const result = ProtocolConfig.safeParse({ schema_version: 1 });
 * strictEqual(result.success, false);
 * if (!result.success) strictEqual(result.error.issues.length > 0, true);
 * ```
 */
export const ProtocolConfig: Schema<ProtocolConfig> = protocolConfigSchema;

// The hand-written type must stay the schema's own: this line stops compiling when they drift apart.
const _sameConfig: SameType<ProtocolConfig, z.infer<typeof protocolConfigSchema>> = true;

/**
 * Parses config YAML text (YAML 1.1, like PyYAML's `safe_load`) and validates it.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { parseConfig } from "./config.ts";
 * import { embeddedSources } from "./contracts.ts";
 * import { ContractError } from "../base/errors.ts";
 * import { decodeStrictUtf8 } from "../base/utf8.ts";
 * const text = decodeStrictUtf8(embeddedSources().config.bytes);
 * strictEqual(parseConfig(text, "configs/pr4789-reproduction-v1.yaml").pool.qa_capacity, 7);
 * throws(() => parseConfig(text.replace("qa_capacity: 7", "qa_capacity: 8"), "x.yaml"), ContractError);
 * ```
 */
export function parseConfig(text: string, path: string): ProtocolConfig {
  const data = parsePyYamlFile(text, path, ContractError);
  refuseEscapedSurrogates(text, data, path);
  return parseWith(ProtocolConfig, data, path);
}

// A \u or \U escape of a UTF-16 surrogate (D800–DFFF), as a double-quoted YAML scalar may spell one.
const SURROGATE_ESCAPE = /\\(?:u|U0000)[dD][89a-fA-F][0-9a-fA-F]{2}/g;

/**
 * PyYAML reads each escape on its own, so `"\ud83d\ude00"` is two lone surrogates to the reference (which then
 * crashes writing them), though JavaScript joins them into one character. The field is found by reading the text
 * again with every such escape spelling `A`: a value that held surrogates and changes came from escapes.
 */
function refuseEscapedSurrogates(text: string, data: unknown, path: string): void {
  if (text.search(SURROGATE_ESCAPE) < 0) return; // search, not test: a /g pattern's test keeps state
  const marked = parsePyYamlFile(
    text.replace(SURROGATE_ESCAPE, (escape) => escape.slice(0, -4) + "0041"),
    path,
    ContractError,
  );
  const field = escapedField(data, marked, []);
  if (field === undefined) return;
  const code = field.value.charCodeAt(field.value.search(/[\uD800-\uDFFF]/)).toString(16);
  throw new ContractError(
    `an escaped surrogate (\\u${code}) is a lone surrogate to PyYAML, which no UTF-8 output can hold; write the character itself`,
    { path, field: field.path.join(".") || "(root)" },
  );
}

/** The first string (key or value) that holds surrogates and reads differently with the escapes marked. */
function escapedField(
  value: unknown,
  marked: unknown,
  at: string[],
): { path: string[]; value: string } | undefined {
  const fromEscapes = (text: string, other: unknown) => /[\uD800-\uDFFF]/.test(text) && text !== other;
  if (typeof value === "string") return fromEscapes(value, marked) ? { path: at, value } : undefined;
  if (value === null || typeof value !== "object" || marked === null || typeof marked !== "object") {
    return undefined;
  }
  const entries = Object.entries(value);
  const markedEntries = Object.entries(marked);
  for (let index = 0; index < entries.length; index++) {
    const [key, item] = entries[index];
    const [markedKey, markedItem] = markedEntries[index] ?? [];
    const where = [...at, key];
    if (!Array.isArray(value) && fromEscapes(key, markedKey)) return { path: where, value: key };
    const found = escapedField(item, markedItem, where);
    if (found !== undefined) return found;
  }
  return undefined;
}
