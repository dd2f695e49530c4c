// deno-lint-ignore-file no-explicit-any
import { ContractError } from "../../../lib/base/errors.ts";
import { checkMarker, differingArtifacts, qaRunMarker } from "../../../lib/qa/run/run_marker.ts";
import { assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";
import { FIXTURE_PROTOCOL, fixtureContracts, REFERENCE_QA } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const reference = await Deno.readTextFile(`${REFERENCE_QA}/qa_run.json`);

Deno.test("qa_run.json is the reference's marker, byte for byte, but for the creation time and source state", () => {
  const referenceJson = JSON.parse(reference);
  const ours = qaRunMarker(contracts, new Date(Date.UTC(2026, 10, 29, 11, 12, 1, 966)), referenceJson.git);
  const expected = reference.replace('"2026-11-29T11:12:01.966908Z"', '"2026-11-29T11:12:01.966000Z"');
  assertEquals(ours, expected);
});

Deno.test("the reference's own marker checks out against the fixture protocol", () => {
  assertEquals(checkMarker(reference, "qa_run.json", contracts).schema_version, 2);
  assertEquals(differingArtifacts(JSON.parse(reference), contracts), []);
});

Deno.test("a marker made under another prompt or manifest is refused, naming what changed", async () => {
  const marker = JSON.parse(reference);
  marker.artifacts.answer_prompt_sha256 = "1".repeat(64);
  const error = assertThrows(
    () => checkMarker(JSON.stringify(marker), "run/qa_run.json", contracts),
    ContractError,
  );
  assertMatch(
    error.message,
    /^run\/qa_run\.json: artifacts: .*answer_prompt_sha256 differ \(answer_prompt_sha256: run has 1{64}, protocol in use has 2bd4f166/,
  );
  const reindented = await fixtureContracts({
    official: JSON.stringify(
      JSON.parse(await Deno.readTextFile(`${FIXTURE_PROTOCOL}/official.json`)),
    ),
  });
  const manifest = assertThrows(() => checkMarker(reference, "qa_run.json", reindented), ContractError);
  assertMatch(manifest.message, /official_manifest_sha256 differ/);
});

Deno.test("an unreadable marker or one of another schema version is refused", () => {
  assertMatch(
    assertThrows(() => checkMarker("{", "m.json", contracts), ContractError).message,
    /^m\.json: not valid JSON/,
  );
  const marker = { ...JSON.parse(reference), schema_version: 1 };
  assertMatch(
    assertThrows(() => checkMarker(JSON.stringify(marker), "m.json", contracts), ContractError).message,
    /^m\.json: schema_version: /,
  );
});

Deno.test("a marker is refused when its protocol id or model differs, or its artifacts are not exactly the five keys", () => {
  const cases: [string, (marker: Record<string, any>) => void, RegExp][] = [
    [
      "protocol id",
      (m) => (m.protocol_id = "other"),
      /^m\.json: protocol_id: .*expected "deermem-fixture-v1", got "other"/,
    ],
    [
      "model",
      (m) => (m.qa.model = "other"),
      /^m\.json: qa\.model: .*expected "deepseek-v4-flash", got "other"/,
    ],
    ["no qa block", (m) => delete m.qa, /^m\.json: qa: /],
    [
      "extra artifact key",
      (m) => (m.artifacts.extra_sha256 = "0"),
      /^m\.json: artifacts: unknown key\(s\): extra_sha256$/,
    ],
    [
      "missing artifact key",
      (m) => delete m.artifacts.dataset_sha256,
      /^m\.json: artifacts\.dataset_sha256: /,
    ],
    ["schema version 9", (m) => (m.schema_version = 9), /^m\.json: schema_version: /],
  ];
  for (const [what, change, expected] of cases) {
    const marker = JSON.parse(reference);
    change(marker);
    const error = assertThrows(() => checkMarker(JSON.stringify(marker), "m.json", contracts), ContractError);
    assertMatch(error.message, expected, what);
  }
});
