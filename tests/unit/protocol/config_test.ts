import { parse, stringify } from "yaml";
import { parseConfig } from "../../../lib/protocol/config.ts";
import { isoformatUtc } from "../../../lib/py/time.ts";
import { EMBEDDED_ARTIFACTS, embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { ContractError } from "../../../lib/base/errors.ts";
import { evaluateAll } from "../../../lib/policy/mod.ts";
import { policyRawJsonl, policySummary } from "../../../lib/policy/mod.ts";
import { checkQaSettings } from "../../../lib/qa/mod.ts";
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { GOLDEN } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, FIXTURE_PROTOCOL, fixtureContracts } from "../../helpers/fixture.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

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

// ---------------------------------------------------------------------------------------------------------
// Same accept set as the reference (PyYAML 6.0 safe_load + pydantic 2.13 lax mode). Each verdict and value
// below is what the reference's config model gave under CPython 3.11.7 for the same one-line edit.

const EMBEDDED = EMBEDDED_ARTIFACTS["configs/pr4789-reproduction-v1.yaml"];

function edited(old: string, next: string): string {
  if (!EMBEDDED.includes(old)) throw new Error(`the embedded config has no ${old}`);
  return EMBEDDED.replace(old, next);
}

/** [edit from, edit to, what the parsed config must hold]. */
const LAX_ACCEPTED: [string, string, (config: ReturnType<typeof parseConfig>) => unknown, unknown][] = [
  ["qa_capacity: 7", 'qa_capacity: "7"', (c) => c.pool.qa_capacity, 7],
  ["qa_capacity: 7", "qa_capacity: ' 7 '", (c) => c.pool.qa_capacity, 7],
  ["qa_capacity: 7", "qa_capacity: 7.0", (c) => c.pool.qa_capacity, 7],
  ["qa_capacity: 7", 'qa_capacity: "7.0"', (c) => c.pool.qa_capacity, 7],
  ["qa_capacity: 7", "qa_capacity: 07", (c) => c.pool.qa_capacity, 7],
  ["capacities: [5, 7, 9]", "capacities: [\"5\", 7.0, '9']", (c) => c.pool.capacities, [5, 7, 9]],
  ["size: 10", 'size: "10"', (c) => c.pool.size, 10],
  [
    "access_half_life_days: 30",
    "access_half_life_days: '30'",
    (c) => c.policies.hybrid_v1.access_half_life_days,
    30,
  ],
  ["bootstrap_seed: 4789", 'bootstrap_seed: "4789"', (c) => c.statistics.bootstrap_seed, 4789n],
  [
    "bootstrap_seed: 4789",
    "bootstrap_seed: 18446744073709551621",
    (c) => c.statistics.bootstrap_seed,
    2n ** 64n + 5n,
  ],
  ["bootstrap_seed: 4789", "bootstrap_seed: true", (c) => c.statistics.bootstrap_seed, 1n],
  ["alpha: 0.05", 'alpha: "0.05"', (c) => c.statistics.alpha, 0.05],
  ["alpha: 0.05", "alpha: 5.0e-2", (c) => c.statistics.alpha, 0.05],
  ["access: 0.10", 'access: "0.10"', (c) => c.policies.hybrid_v1.weights.access, 0.1],
  ["temperature: 0", "temperature: false", (c) => c.qa.temperature, 0],
  ["temperature: 0", 'temperature: "0.7"', (c) => c.qa.temperature, 0.7],
  ["stream: false", "stream: 0", (c) => c.qa.stream, false],
  ["stream: false", 'stream: "off"', (c) => c.qa.stream, false],
  ["stream: false", "stream: 1", (c) => c.qa.stream, true],
  ["timeout_seconds: 120", 'timeout_seconds: "120"', (c) => c.qa.timeout_seconds, 120],
  ["timeout_seconds: 120", "timeout_seconds: 120.0", (c) => c.qa.timeout_seconds, 120],
  ["timeout_seconds: 120", "timeout_seconds: true", (c) => c.qa.timeout_seconds, 1],
  ["schema_version: 1", "schema_version: true", (c) => c.schema_version, 1],
  ["max_attempts: 3", "max_attempts: 3\n  max_attempts: 4", (c) => c.qa.max_attempts, 4],
  ["model: deepseek-v4-flash", "model: 'deepseek\tv4'", (c) => c.qa.model, "deepseek\tv4"],
  [
    "confidence:\n    policy: confidence",
    "confidence: {}",
    (c) => c.policies.confidence.policy,
    "confidence",
  ],
  ["filename: longmemeval_oracle.json", "filename: ''", (c) => c.dataset.filename, ""],
];

for (const [old, next, read, expected] of LAX_ACCEPTED) {
  Deno.test(`config: the reference accepts ${JSON.stringify(next)}, and so do we`, () => {
    assertEquals(read(parseConfig(edited(old, next), PATH)), expected);
  });
}

const TIME = 'evaluation_time: "2026-08-13T00:00:00Z"';
const EVALUATION_TIMES: [string, string][] = [
  ["evaluation_time: 1786579200", "2026-08-13T00:00:00+00:00"],
  ["evaluation_time: 1786579200.5", "2026-08-13T00:00:00.500000+00:00"],
  ['evaluation_time: "1786579200"', "2026-08-13T00:00:00+00:00"],
  ["evaluation_time: 1786579200000", "2026-08-13T00:00:00+00:00"],
  ["evaluation_time: -86400", "1969-12-31T00:00:00+00:00"],
  ["evaluation_time: 20000000001", "1970-08-20T11:33:20.001000+00:00"],
  ['evaluation_time: "2026-08-13t00:00:00z"', "2026-08-13T00:00:00+00:00"],
  ['evaluation_time: "2026-08-13 09:30+05:30"', "2026-08-13T04:00:00+00:00"],
  ["evaluation_time: 2026-08-13 09:30:00.25 -5", "2026-08-13T14:30:00.250000+00:00"],
  ["evaluation_time: 2026-08-13T00:00:00Z", "2026-08-13T00:00:00+00:00"],
  ['evaluation_time: "9999-12-31T23:59:59+01:00"', "9999-12-31T22:59:59+00:00"],
];

for (const [line, expected] of EVALUATION_TIMES) {
  Deno.test(`config: ${line} is the reference's ${expected}`, () => {
    assertEquals(isoformatUtc(parseConfig(edited(TIME, line), PATH).evaluation_time), expected);
  });
}

const REFERENCE_REFUSES: [string, string, string][] = [
  ['evaluation_time: "20260813T000000Z"', TIME, "evaluation_time: must be a datetime"],
  ['evaluation_time: "2026-W33-4T00:00:00Z"', TIME, "evaluation_time: must be a datetime"],
  ['evaluation_time: "2026-08-13"', TIME, "evaluation_time: must include a timezone"],
  ["evaluation_time: 2026-08-13", TIME, "evaluation_time: must include a timezone"],
  ["evaluation_time: 2026-08-13 00:00:00", TIME, "evaluation_time: must include a timezone"],
  ['evaluation_time: " 2026-08-13T00:00:00Z"', TIME, "evaluation_time: must be a datetime"],
  ['evaluation_time: "0001-01-01T00:00:00Z"', TIME, "evaluation_time: is out of range"],
  ['evaluation_time: "0001-01-01T00:00:00+01:00"', TIME, "evaluation_time: is out of range"],
  ["timeout_seconds: 1.5", "timeout_seconds: 120", "qa.timeout_seconds: must be an integer"],
  ["qa_capacity: 1e3", "qa_capacity: 7", "pool.qa_capacity: must be an integer"],
  ["stream: 2", "stream: false", "qa.stream: must be a boolean"],
  ['schema_version: "1"', "schema_version: 1", "schema_version: must be 1"],
  [
    "stream:\tfalse",
    "stream: false",
    "not valid YAML: found a tab character where PyYAML does not allow one",
  ],
  ["\tworkers: 3", "  workers: 3", "not valid YAML: found a tab character"],
  ["stream: false\t", "stream: false", "not valid YAML: found a tab character"],
  ["protocol_id: 2026-01-01", "protocol_id: deermem-hybrid-v1-pr4789-reproduction-v1", "protocol_id: "],
];

for (const [next, old, message] of REFERENCE_REFUSES) {
  Deno.test(`config: the reference refuses ${JSON.stringify(next)}, and so do we`, () => {
    assertThrows(() => parseConfig(edited(old, next), PATH), ContractError, `${PATH}: ${message}`);
  });
}

/** Deliberate bounds (README: known differences): the reference would hang, crash or mis-time. */
const DELIBERATE_BOUNDS: [string, string, string, string][] = [
  [
    "timeout_seconds: 120",
    "timeout_seconds: 2147483",
    "timeout_seconds: 2147484",
    "qa.timeout_seconds: must be ≤ 2147483",
  ],
  ["workers: 3", "workers: 64", "workers: 65", "qa.workers: must be ≤ 64"],
  ["max_attempts: 3", "max_attempts: 20", "max_attempts: 21", "qa.max_attempts: must be ≤ 20"],
  [
    "bootstrap_iterations: 10000",
    "bootstrap_iterations: 10000000",
    "bootstrap_iterations: 10000001",
    "statistics.bootstrap_iterations: must be ≤ 10000000",
  ],
  [
    "max_tokens: 2048",
    "max_tokens: 2147483647",
    "max_tokens: 2147483648",
    "qa.max_tokens: must be ≤ 2147483647",
  ],
  ["temperature: 0", "temperature: 2.0", "temperature: -0.5", "qa.temperature: must be a finite number ≥ 0"],
  ["temperature: 0", "temperature: 0.0", "temperature: .nan", "qa.temperature: must be a finite number ≥ 0"],
  ["temperature: 0", "temperature: 1", "temperature: .inf", "qa.temperature: must be a finite number ≥ 0"],
  ["model: deepseek-v4-flash", "model: m", "model: ''", "qa.model: must be a non-empty string"],
  [
    "protocol_id: deermem-hybrid-v1-pr4789-reproduction-v1",
    "protocol_id: p",
    'protocol_id: ""',
    "protocol_id: must be a non-empty string",
  ],
  [
    "offset_namespace: deermem-medium-v1",
    "offset_namespace: n",
    "offset_namespace: ''",
    "pool.offset_namespace: must be a non-empty",
  ],
  [
    "repository: xiaowu0162/longmemeval-cleaned",
    "repository: r",
    "repository: ''",
    "dataset.repository: must be a non-empty string",
  ],
  [
    "distractor_types: [single-session-user, single-session-preference]",
    "distractor_types: [single-session-user, x]",
    "distractor_types: [single-session-user, '']",
    "pool.distractor_types.1: must be a non-empty string",
  ],
  [
    "api_key_env: DEERMEM_EVAL_ANSWER_API_KEY",
    "api_key_env: K_1",
    "api_key_env: K-1",
    "qa.api_key_env: must be an environment variable name",
  ],
];

for (const [old, largest, beyond, message] of DELIBERATE_BOUNDS) {
  Deno.test(`config bound: ${largest} is accepted, ${beyond} refused`, () => {
    parseConfig(edited(old, largest), PATH);
    assertThrows(() => parseConfig(edited(old, beyond), PATH), ContractError, `${PATH}: ${message}`);
  });
}

Deno.test("stream: any spelling of true is read as the reference reads it, then refused before any call (deliberate)", async () => {
  const sources = embeddedSources();
  for (const spelling of ["true", "1", '"on"', "yes"]) {
    const text = edited("stream: false", `stream: ${spelling}`);
    const contracts = await loadContracts({
      ...sources,
      config: { source: "c.yaml", bytes: new TextEncoder().encode(text) },
    });
    assertEquals(contracts.config.qa.stream, true);
    assertThrows(
      () => checkQaSettings(contracts),
      ContractError,
      "c.yaml: qa.stream: streaming answers are not supported",
    );
  }
});

Deno.test("config: a lone surrogate anywhere is refused with one line (deliberate: the reference crashes writing it)", () => {
  assertThrows(
    () => parseConfig(edited("model: deepseek-v4-flash", 'model: "m\\ud800"'), PATH),
    ContractError,
    `${PATH}: not valid YAML: lone surrogate \\ud800: refused, as no UTF-8 output can hold it`,
  );
});

// PyYAML reads each \\u escape on its own: "\\ud83d\\ude00" is two lone surrogates (the reference crashes
// writing them), though JavaScript joins them into one character. The character itself is fine.
Deno.test("config: an escaped surrogate pair is refused in one line naming the file and the field", () => {
  for (const spelling of ['"\\ud83d\\ude00"', '"m\\uD83D\\uDE00x"', '"\\U0000d83d\\U0000de00"']) {
    assertThrows(
      () => parseConfig(edited("model: deepseek-v4-flash", `model: ${spelling}`), PATH),
      ContractError,
      `${PATH}: qa.model: an escaped surrogate (\\ud83d) is a lone surrogate to PyYAML, which no UTF-8 output can hold; write the character itself`,
    );
  }
  const literal = parseConfig(edited("model: deepseek-v4-flash", 'model: "\u{1F600}"'), PATH);
  assertEquals(literal.qa.model, "\u{1F600}");
  for (const text of ["'\\ud83d\\ude00'", "m\\ud83d # \\ude00"]) { // no escapes outside double quotes
    const parsed = parseConfig(edited("model: deepseek-v4-flash", `model: ${text}`), PATH);
    assertEquals(parsed.qa.model.includes("\\u"), true, text);
  }
  const whole = parseConfig(edited("model: deepseek-v4-flash", 'model: "\\U0001F600"'), PATH);
  assertEquals(whole.qa.model, "\u{1F600}"); // one escape of the whole code point: one character
});

Deno.test("the fixture config in lax spellings reads to the same values, so run-policy gives the reference's bytes", async () => {
  let text = await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`);
  // Each spelling below is read by the reference (PyYAML + pydantic lax mode) as the original value.
  const edits: [string, string][] = [
    ['evaluation_time: "2026-08-13T00:00:00Z"', "evaluation_time: 2026-08-13 05:30:00 +05:30"],
    ["size: 10", 'size: "10"'],
    ["capacities: [5, 7, 9]", "capacities: [\"5\", 7.0, '9']"],
    ["qa_capacity: 7", 'qa_capacity: 9\n  qa_capacity: " 7 "'],
    ["distractor_bank_size: 40", "distractor_bank_size: '40'"],
    ["confidence: 0.65", 'confidence: "0.65"'],
    ["confirmation_half_life_days: 90", "confirmation_half_life_days: 90.0"],
    ["access_half_life_days: 30", "access_half_life_days: 0x1E"],
    ["correction_reserved_max: 10", 'correction_reserved_max: "10.0"'],
  ];
  for (const [old, next] of edits) {
    assertEquals(text.includes(old), true, old);
    text = text.replace(old, next);
  }
  const contracts = await fixtureContracts({ config: text });
  const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  const results = evaluateAll(prepared.cases, contracts.config);
  const reference = `${GOLDEN}/fixture-run/policy`;
  assertEquals(policyRawJsonl(results), await Deno.readTextFile(`${reference}/policy.raw.jsonl`));
  assertEquals(
    policySummary(results, contracts.config.protocol_id),
    await Deno.readTextFile(`${reference}/summary.json`),
  );
});
