import { parse, stringify } from "yaml";
import { isoformatUtc, isoformatZulu, parseConfig } from "../lib/config.ts";
import { EMBEDDED_ARTIFACTS } from "../lib/contracts.ts";
import { ContractError } from "../lib/errors.ts";
import { assertEquals, assertThrows } from "./helpers/assert.ts";

const PATH = "configs/x.yaml";
// deno-lint-ignore no-explicit-any
const base = (): Record<string, any> =>
  parse(EMBEDDED_ARTIFACTS["configs/pr4789-reproduction-v1.yaml"], { version: "1.1" });

// deno-lint-ignore no-explicit-any
function expectViolation(mutate: (config: Record<string, any>) => void, field: string, message: RegExp) {
  const config = base();
  mutate(config);
  const error = assertThrows(() => parseConfig(stringify(config), PATH), ContractError) as ContractError;
  assertEquals(error.path, PATH);
  assertEquals(error.field, field, error.message);
  assertEquals(message.test(error.message), true, error.message);
  assertEquals(error.message.startsWith(`${PATH}: ${field}: `), true, error.message);
}

Deno.test("the embedded config parses with its pinned values", () => {
  const config = parseConfig(EMBEDDED_ARTIFACTS["configs/pr4789-reproduction-v1.yaml"], PATH);
  assertEquals(config.pool.capacities, [5, 7, 9]);
  assertEquals(config.policies.hybrid_v1.weights, { confidence: 0.65, confirmation: 0.25, access: 0.1 });
  assertEquals(isoformatUtc(config.evaluation_time), "2026-08-13T00:00:00+00:00");
  assertEquals(config.qa.temperature, 0);
});

// deno-lint-ignore no-explicit-any
const RULES: [string, (c: Record<string, any>) => void, string, RegExp][] = [
  ["unknown key", (c) => (c.pool.extra = 1), "pool", /unknown key/],
  ["revision not 40 hex", (c) => (c.dataset.revision = "ABC"), "dataset.revision", /40 lowercase hex/],
  [
    "sha256 uppercase",
    (c) => (c.dataset.sha256 = c.dataset.sha256.toUpperCase()),
    "dataset.sha256",
    /64 lowercase hex/,
  ],
  ["distractors != size-1", (c) => (c.pool.distractors = 8), "pool.distractors", /pool.size - 1/],
  [
    "bank smaller than distractors",
    (c) => (c.pool.distractor_bank_size = 5),
    "pool.distractor_bank_size",
    /≥ pool.distractors/,
  ],
  [
    "empty distractor types",
    (c) => (c.pool.distractor_types = []),
    "pool.distractor_types",
    /must not be empty/,
  ],
  [
    "duplicate distractor types",
    (c) => (c.pool.distractor_types = ["a", "a"]),
    "pool.distractor_types",
    /unique/,
  ],
  ["empty capacities", (c) => (c.pool.capacities = []), "pool.capacities", /must not be empty/],
  ["duplicate capacities", (c) => (c.pool.capacities = [5, 5]), "pool.capacities", /unique/],
  [
    "capacity out of range",
    (c) => (c.pool.capacities = [5, 7, 10]),
    "pool.capacities.2",
    /\[1, pool.size - 1\]/,
  ],
  ["qa capacity not listed", (c) => (c.pool.qa_capacity = 6), "pool.qa_capacity", /one of pool.capacities/],
  [
    "evidence bounds out of order",
    (c) => (c.pool.distractor_min_evidence_chars = 800),
    "pool.distractor_min_evidence_chars",
    /≤ pool.distractor_max_evidence_chars/,
  ],
  [
    "extra weight",
    (c) => (c.policies.hybrid_v1.weights.recency = 0),
    "policies.hybrid_v1.weights",
    /unknown key/,
  ],
  [
    "missing weight",
    (c) => delete c.policies.hybrid_v1.weights.access,
    "policies.hybrid_v1.weights.access",
    /./,
  ],
  [
    "weight above 1",
    (c) => (c.policies.hybrid_v1.weights.confidence = 1.5),
    "policies.hybrid_v1.weights.confidence",
    /\[0, 1\]/,
  ],
  [
    "weights not summing to 1",
    (c) => (c.policies.hybrid_v1.weights.access = 0.2),
    "policies.hybrid_v1.weights",
    /sum to 1/,
  ],
  [
    "half-life not integer",
    (c) => (c.policies.hybrid_v1.confirmation_half_life_days = 1.5),
    "policies.hybrid_v1.confirmation_half_life_days",
    /integer/,
  ],
  [
    "half-life zero",
    (c) => (c.policies.hybrid_v1.access_half_life_days = 0),
    "policies.hybrid_v1.access_half_life_days",
    /≥ 1/,
  ],
  [
    "reserved fraction > 1",
    (c) => (c.policies.hybrid_v1.correction_reserved_fraction = 1.1),
    "policies.hybrid_v1.correction_reserved_fraction",
    /\[0, 1\]/,
  ],
  [
    "reserved max negative",
    (c) => (c.policies.hybrid_v1.correction_reserved_max = -1),
    "policies.hybrid_v1.correction_reserved_max",
    /≥ 0/,
  ],
  [
    "evaluation time without zone",
    (c) => (c.evaluation_time = "2026-08-13T00:00:00"),
    "evaluation_time",
    /zone/,
  ],
  ["provider", (c) => (c.qa.provider = "anthropic"), "qa.provider", /openai-compatible/],
  ["max_tokens 0", (c) => (c.qa.max_tokens = 0), "qa.max_tokens", /≥ 1/],
  ["timeout 0", (c) => (c.qa.timeout_seconds = 0), "qa.timeout_seconds", /≥ 1/],
  ["max_attempts 0", (c) => (c.qa.max_attempts = 0), "qa.max_attempts", /≥ 1/],
  ["workers 0", (c) => (c.qa.workers = 0), "qa.workers", /≥ 1/],
  [
    "bootstrap iterations 0",
    (c) => (c.statistics.bootstrap_iterations = 0),
    "statistics.bootstrap_iterations",
    /≥ 1/,
  ],
  ["alpha 0", (c) => (c.statistics.alpha = 0), "statistics.alpha", /\(0, 1\)/],
  ["alpha 1", (c) => (c.statistics.alpha = 1), "statistics.alpha", /\(0, 1\)/],
];

for (const [name, mutate, field, message] of RULES) {
  Deno.test(`config rule: ${name} is refused naming ${field}`, () => expectViolation(mutate, field, message));
}

Deno.test("evaluation_time with an offset is normalised to UTC", () => {
  const config = base();
  config.evaluation_time = "2026-08-13T08:00:00+08:00";
  assertEquals(
    isoformatUtc(parseConfig(stringify(config), PATH).evaluation_time),
    "2026-08-13T00:00:00+00:00",
  );
});

Deno.test("YAML is read as YAML 1.1, like PyYAML safe_load", () => {
  const config = base();
  const text = stringify(config).replace("stream: false", "stream: no");
  assertEquals(parseConfig(text, PATH).qa.stream, false);
});

Deno.test("timestamps are written as Python writes them", () => {
  assertEquals(isoformatZulu({ day: 20498, microsecond: 0 }), "2026-02-14T00:00:00Z");
  assertEquals(isoformatZulu({ day: 20498, microsecond: 1_500 }), "2026-02-14T00:00:00.001500Z");
  assertEquals(isoformatZulu({ day: 20498, microsecond: -1 }), "2026-02-13T23:59:59.999999Z");
});
