import {
  type Artifact,
  EMBEDDED_ARTIFACTS,
  embeddedSources,
  loadContracts,
} from "../../../lib/protocol/contracts.ts";
import { ContractError } from "../../../lib/base/errors.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";
import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { PINS } from "../../helpers/cli.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function edited(artifact: Artifact, edit: (text: string) => string): Artifact {
  return { source: "edited.txt", bytes: encoder.encode(edit(decoder.decode(artifact.bytes))) };
}

Deno.test("embedded contracts load and record the hashes of the bytes used", async () => {
  const contracts = await loadContracts(embeddedSources());
  assertEquals(contracts.hashes.config, "e0bcd1581be8457c614a4159b87304e54501d48a7e07990b02f1f6f8627fa026");
  assertEquals(contracts.hashes.prompt, contracts.config.qa.answer_prompt.sha256);
  assertEquals(contracts.sources.prompt, "embedded:prompts/answer-v1.txt");
});

Deno.test("a config loaded from a file is hashed as those bytes", async () => {
  const sources = embeddedSources();
  const config = edited(sources.config, (text) => text + "\n");
  const contracts = await loadContracts({ ...sources, config });
  assertEquals(contracts.hashes.config, await sha256Hex(config.bytes));
});

const CASES: [
  string,
  (sources: ReturnType<typeof embeddedSources>) => ReturnType<typeof embeddedSources>,
  string,
][] = [
  [
    "manifest protocol id differs",
    (s) => ({
      ...s,
      official: edited(s.official, (t) => t.replace('"deermem-hybrid', '"other-deermem-hybrid')),
    }),
    "protocol_id: other-deermem-hybrid-v1-pr4789-reproduction-v1 does not match",
  ],
  [
    "synthetic protocol id differs",
    (s) => ({
      ...s,
      synthetic: edited(s.synthetic, (t) => t.replace('"deermem-hybrid', '"x-deermem-hybrid')),
    }),
    "edited.txt: protocol_id: x-deermem-hybrid",
  ],
  [
    "grader version this program does not implement",
    (s) => ({
      ...s,
      config: edited(s.config, (t) => t.replace("deterministic-overlap-v1", "deterministic-overlap-v2")),
    }),
    "qa.grader_version: expected deterministic-overlap-v1",
  ],
  [
    "policy version this program does not implement",
    (s) => ({
      ...s,
      config: edited(
        s.config,
        (t) => t.replace("required_policy_version: hybrid-v1", "required_policy_version: hybrid-v2"),
      ),
    }),
    "required_policy_version: expected hybrid-v1",
  ],
  [
    "prompt hash pin differs",
    (s) => ({ ...s, config: edited(s.config, (t) => t.replace("sha256: 2bd4", "sha256: 3bd4")) }),
    "qa.answer_prompt.sha256: SHA-256 mismatch: expected 3bd4",
  ],
  [
    "prompt path outside the tool's protocol root",
    (s) => ({
      ...s,
      config: edited(s.config, (t) => t.replace("path: prompts/answer-v1.txt", "path: ../answer-v1.txt")),
    }),
    "qa.answer_prompt.path",
  ],
];

for (const [name, mutate, message] of CASES) {
  Deno.test(`validate-contracts refuses: ${name}`, async () => {
    await assertRejects(() => loadContracts(mutate(embeddedSources())), ContractError, message);
  });
}

Deno.test("a UTF-8 BOM: PyYAML skips it in the config, the reference's json.load refuses it in a manifest", async () => {
  const sources = embeddedSources();
  const withBom = (artifact: Artifact): Artifact => ({
    source: "bom.txt",
    bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...artifact.bytes]),
  });
  const contracts = await loadContracts({ ...sources, config: withBom(sources.config) });
  assertEquals(contracts.config.pool.qa_capacity, 7);
  for (const key of ["official", "synthetic"] as const) {
    const error = await assertRejects(
      () => loadContracts({ ...sources, [key]: withBom(sources[key]) }),
      ContractError,
    );
    assertEquals(error.message, "bom.txt: not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)");
  }
});

Deno.test("embedded artifacts hash to the pinned values (what the binary carries)", async () => {
  const sums = Deno.readTextFileSync(`${PINS}/pr4789-reproduction-v1.SHA256SUMS`).trim().split(
    "\n",
  );
  const pinned = sums.map((line) => line.split(/\s+/)).map(([sum, path]) => [sum, path.replace(/^\.\//, "")]);
  const protocolFiles = pinned.filter(([, path]) => !path.startsWith("results/"));
  assertEquals(protocolFiles.length, 4);
  for (const [sum, path] of protocolFiles) {
    assertEquals(await sha256Hex(EMBEDDED_ARTIFACTS[path]), sum, path);
  }
});
