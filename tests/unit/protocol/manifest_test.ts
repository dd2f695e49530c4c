import { EMBEDDED_ARTIFACTS } from "../../../lib/protocol/contracts.ts";
import { ContractError } from "../../../lib/base/errors.ts";
import { parseOfficialManifest, parseSyntheticManifest } from "../../../lib/protocol/manifest.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

const OFFICIAL = "manifests/longmemeval-pr4789-v1.json";
const SYNTHETIC = "manifests/synthetic-corrections-pr4789-v1.json";
// deno-lint-ignore no-explicit-any
type Json = any;

function expectViolation(path: string, mutate: (manifest: Json) => void, field: string, message: RegExp) {
  const manifest = JSON.parse(EMBEDDED_ARTIFACTS[path]);
  mutate(manifest);
  const parse = path === OFFICIAL ? parseOfficialManifest : parseSyntheticManifest;
  const error = assertThrows(() => parse(JSON.stringify(manifest), path), ContractError);
  assertEquals(error.message.startsWith(`${path}: ${field}: `), true, error.message);
  assertEquals(message.test(error.message), true, error.message);
}

Deno.test("embedded manifests parse", () => {
  assertEquals(parseOfficialManifest(EMBEDDED_ARTIFACTS[OFFICIAL], OFFICIAL).loss_ranks, [
    6,
    6,
    6,
    8,
    8,
    8,
    10,
    10,
    10,
    10,
  ]);
  assertEquals(parseSyntheticManifest(EMBEDDED_ARTIFACTS[SYNTHETIC], SYNTHETIC).cases.length, 5);
});

const OFFICIAL_RULES: [string, (m: Json) => void, string, RegExp][] = [
  [
    "unknown scenario key",
    (m) => (m.scenarios.recency_help = m.scenarios.access_help),
    "scenarios",
    /unknown key/,
  ],
  [
    "nine IDs",
    (m) => m.scenarios.access_help.pop(),
    "scenarios.access_help",
    /exactly 10 IDs \(2 eligible types × 5 cases per type\), got 9/,
  ],
  [
    "duplicate ID",
    (m) => (m.scenarios.access_help[1] = m.scenarios.access_help[0]),
    "scenarios.access_help",
    /unique/,
  ],
  [
    "ID in two scenarios",
    (m) => (m.scenarios.access_help[0] = m.scenarios.confirmation_help[0]),
    "scenarios.access_help",
    /twice/,
  ],
  [
    "unregistered scenario in order",
    (m) => (m.scenario_order[0] = "other"),
    "scenario_order.0",
    /registered/,
  ],
  [
    "order not a permutation",
    (m) => (m.scenario_order[1] = m.scenario_order[0]),
    "scenario_order",
    /permutation/,
  ],
  ["nine loss ranks", (m) => m.loss_ranks.pop(), "loss_ranks", /exactly ten/],
  ["loss rank 11", (m) => (m.loss_ranks[0] = 11), "loss_ranks.0", /\[1, 10\]/],
  ["loss rank 0", (m) => (m.loss_ranks[0] = 0), "loss_ranks.0", /\[1, 10\]/],
  ["unknown selection key", (m) => (m.selection.extra = true), "selection", /unknown key/],
];
for (const [name, mutate, field, message] of OFFICIAL_RULES) {
  Deno.test(`official manifest rule: ${name}`, () => expectViolation(OFFICIAL, mutate, field, message));
}

const SYNTHETIC_RULES: [string, (m: Json) => void, string, RegExp][] = [
  ["four cases", (m) => m.cases.pop(), "cases", /exactly five/],
  ["duplicate case id", (m) => (m.cases[1].case_id = m.cases[0].case_id), "cases", /unique/],
  ["loss rank out of range", (m) => (m.cases[0].loss_rank = 12), "cases.0.loss_rank", /\[1, 10\]/],
  ["wrong scenario", (m) => (m.scenario = "access_help"), "scenario", /correction_reserve/],
  ["unknown case key", (m) => (m.cases[0].extra = 1), "cases.0", /unknown key/],
];
for (const [name, mutate, field, message] of SYNTHETIC_RULES) {
  Deno.test(`synthetic manifest rule: ${name}`, () => expectViolation(SYNTHETIC, mutate, field, message));
}

// Same accept set as the reference's json.load + pydantic 2.13 lax mode (verdicts from CPython 3.11.7).

Deno.test("manifests: numeric strings, integral floats and bools convert as pydantic's lax mode converts them", () => {
  const official = JSON.parse(EMBEDDED_ARTIFACTS[OFFICIAL]);
  official.loss_ranks[0] = "6";
  official.loss_ranks[1] = 6.0;
  official.selection.cases_per_type_per_scenario = " 5 ";
  official.schema_version = true;
  const text = JSON.stringify(official).replace('"loss_ranks":["6",6', '"loss_ranks":["6",6.0');
  const parsed = parseOfficialManifest(text, OFFICIAL);
  assertEquals(parsed.loss_ranks.slice(0, 2), [6, 6]);
  assertEquals(parsed.selection.cases_per_type_per_scenario, 5);
  const synthetic = JSON.parse(EMBEDDED_ARTIFACTS[SYNTHETIC]);
  synthetic.cases[0].loss_rank = "3";
  assertEquals(parseSyntheticManifest(JSON.stringify(synthetic), SYNTHETIC).cases[0].loss_rank, 3);
  synthetic.cases[0].loss_rank = "3.5";
  assertThrows(
    () => parseSyntheticManifest(JSON.stringify(synthetic), SYNTHETIC),
    ContractError,
    "must be an integer",
  );
});

Deno.test("manifests: Python's JSON is read (duplicate keys, the last wins)", () => {
  const text = EMBEDDED_ARTIFACTS[SYNTHETIC].replace(
    '"schema_version": 1',
    '"schema_version": 2, "schema_version": 1',
  );
  assertEquals(parseSyntheticManifest(text, SYNTHETIC).schema_version, 1);
});

Deno.test("manifests: a leading UTF-8 BOM is refused, as the reference's json.load refuses it", () => {
  for (
    const [path, parse] of [[OFFICIAL, parseOfficialManifest], [SYNTHETIC, parseSyntheticManifest]] as const
  ) {
    const error = assertThrows(() => parse(`\ufeff${EMBEDDED_ARTIFACTS[path]}`, path), ContractError);
    assertEquals(error.message, `${path}: not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)`);
  }
});

Deno.test("manifests: a case id that is not a safe file name is refused (deliberate)", () => {
  for (const id of ["corr/one", "..", ".hidden", "a\\b"]) {
    expectViolation(SYNTHETIC, (m) => (m.cases[0].case_id = id), "cases.0.case_id", /usable as a file name/);
    expectViolation(
      OFFICIAL,
      (m) => (m.scenarios.access_help[0] = id),
      "scenarios.access_help.0",
      /file name/,
    );
  }
});

Deno.test("manifests: empty strings the reference's str fields accept are accepted", () => {
  const synthetic = JSON.parse(EMBEDDED_ARTIFACTS[SYNTHETIC]);
  Object.assign(synthetic.cases[0], { support_fact: "", question: "", answer: "" });
  assertEquals(parseSyntheticManifest(JSON.stringify(synthetic), SYNTHETIC).cases[0].question, "");
  const official = JSON.parse(EMBEDDED_ARTIFACTS[OFFICIAL]);
  official.selection.excluded_pilot_ids.push("");
  assertEquals(
    parseOfficialManifest(JSON.stringify(official), OFFICIAL).selection.excluded_pilot_ids.at(-1),
    "",
  );
});
