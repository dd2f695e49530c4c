/**
 * The protocol config (`configs/*.yaml`): a strict schema with every rule of the reference's Pydantic model.
 * YAML is read with the YAML 1.1 schema, as PyYAML's `safe_load` reads it.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { ContractError } from "./errors.ts";
import { parseWith } from "./schema.ts";
import { fromIsoFormat, type Instant } from "./python.ts";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits (SHA-256)");
const revision = z.string().regex(/^[0-9a-f]{40}$/, "must be 40 lowercase hex digits");
const nonEmpty = z.string().min(1, "must be a non-empty string");
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name");
const int = z.number().int("must be an integer");
const unit = z.number().min(0, "must be in [0, 1]").max(1, "must be in [0, 1]");

function unique<T>(values: readonly T[]): boolean {
  return new Set(values).size === values.length;
}

/** The `hybrid-v1` weights: exactly these three keys. */
export const HybridWeights = z.strictObject({ confidence: unit, confirmation: unit, access: unit });

/** The config schema (unknown keys rejected at every level). */
export const ProtocolConfig = z.strictObject({
  schema_version: z.literal(1, "must be 1"),
  protocol_id: nonEmpty,
  required_policy_version: nonEmpty,
  evaluation_time: z.string().transform((text, context) => {
    const instant = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/.test(text.trim())
      ? fromIsoFormat(text.trim().replaceAll("Z", "+00:00"))
      : undefined;
    if (instant === undefined) {
      context.addIssue({ code: "custom", message: "must be an ISO timestamp with a zone" });
      return z.NEVER;
    }
    return instant;
  }),
  dataset: z.strictObject({ repository: nonEmpty, revision, filename: nonEmpty, sha256 }),
  pool: z.strictObject({
    size: int.min(2, "must be ≥ 2"),
    capacities: z.array(int).min(1, "must not be empty").refine(unique, "must be unique"),
    qa_capacity: int,
    distractors: int.min(1, "must be ≥ 1"),
    distractor_bank_size: int.min(1, "must be ≥ 1"),
    distractor_types: z.array(nonEmpty).min(1, "must not be empty").refine(unique, "must be unique"),
    distractor_min_evidence_chars: int.min(0, "must be ≥ 0"),
    distractor_max_evidence_chars: int.min(0, "must be ≥ 0"),
    offset_namespace: nonEmpty,
    fact_order: z.literal("fact-id", "must be fact-id"),
  }),
  policies: z.strictObject({
    confidence: z.strictObject({ policy: z.literal("confidence", "must be confidence") }),
    hybrid_v1: z.strictObject({
      policy: z.literal("hybrid-v1", "must be hybrid-v1"),
      weights: HybridWeights,
      confirmation_half_life_days: int.min(1, "must be ≥ 1"),
      access_half_life_days: int.min(1, "must be ≥ 1"),
      correction_reserved_fraction: unit,
      correction_reserved_max: int.min(0, "must be ≥ 0"),
    }),
  }),
  qa: z.strictObject({
    answer_prompt: z.strictObject({ path: nonEmpty, sha256 }),
    grader_version: nonEmpty,
    provider: z.literal("openai-compatible", "must be openai-compatible"),
    api_key_env: envName,
    base_url_env: envName,
    model: nonEmpty,
    temperature: z.number().min(0, "must be ≥ 0"),
    max_tokens: int.min(1, "must be ≥ 1"),
    stream: z.boolean(),
    timeout_seconds: z.number().min(1, "must be ≥ 1"),
    max_attempts: int.min(1, "must be ≥ 1"),
    workers: int.min(1, "must be ≥ 1"),
  }),
  statistics: z.strictObject({
    bootstrap_seed: int,
    bootstrap_iterations: int.min(1, "must be ≥ 1"),
    alpha: z.number().gt(0, "must be in (0, 1)").lt(1, "must be in (0, 1)"),
  }),
}).superRefine((config, context) => {
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
  if (Math.abs(confidence + confirmation + access - 1) > 1e-9) {
    issue(["policies", "hybrid_v1", "weights"], "must sum to 1");
  }
});

/** A validated config; `evaluation_time` is parsed (UTC). */
export type ProtocolConfig = z.infer<typeof ProtocolConfig>;

/**
 * Parses config YAML text (YAML 1.1, like PyYAML's `safe_load`) and validates it.
 *
 * @example
 * ```ts ignore
 * import { parseConfig } from "./config.ts";
 * const config = parseConfig(await Deno.readTextFile("configs/pr4789-reproduction-v1.yaml"), "configs/pr4789-reproduction-v1.yaml");
 * console.log(config.pool.qa_capacity); // 7
 * ```
 */
export function parseConfig(text: string, path: string): ProtocolConfig {
  let data: unknown;
  try {
    // YAML 1.1 like PyYAML, but timestamps stay text so a missing zone is still visible to the schema.
    data = parseYaml(text, {
      version: "1.1",
      customTags: (tags) =>
        tags.filter((tag) => typeof tag === "string" || tag.tag !== "tag:yaml.org,2002:timestamp"),
    });
  } catch (error) {
    throw new ContractError(`not valid YAML: ${(error as Error).message.split("\n")[0]}`, {
      path,
      cause: error,
    });
  }
  return parseWith(ProtocolConfig, data, path);
}

/**
 * The evaluation clock as Python's `datetime.isoformat()` writes a UTC datetime (`2026-08-13T00:00:00+00:00`).
 *
 * @example
 * ```ts
 * import { isoformatUtc } from "./config.ts";
 * console.log(isoformatUtc({ day: 20678, microsecond: 0 })); // "2026-08-13T00:00:00+00:00"
 * ```
 */
export function isoformatUtc(instant: Instant): string {
  return formatInstant(instant, "+00:00");
}

/**
 * An instant as Python writes `dt.isoformat().replace("+00:00", "Z")`: microseconds only when non-zero.
 *
 * @example
 * ```ts
 * import { isoformatZulu } from "./config.ts";
 * console.log(isoformatZulu({ day: 20498, microsecond: 0 })); // "2026-02-14T00:00:00Z"
 * ```
 */
export function isoformatZulu(instant: Instant): string {
  return formatInstant(instant, "Z");
}

function formatInstant(instant: Instant, zone: string): string {
  const dayShift = Math.floor(instant.microsecond / 86_400_000_000);
  const day = instant.day + dayShift;
  const micros = instant.microsecond - dayShift * 86_400_000_000;
  const date = new Date(day * 86_400_000);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = micros % 1_000_000;
  const text = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${
    pad(Math.floor(seconds / 3600))
  }:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  return `${text}${fraction === 0 ? "" : `.${pad(fraction, 6)}`}${zone}`;
}
