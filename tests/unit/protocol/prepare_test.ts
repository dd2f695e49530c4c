import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { ContractError, InputError } from "../../../lib/base/errors.ts";
import { DatasetIntegrityError } from "../../../lib/protocol/mod.ts";
import {
  contractsLine,
  DATASET_ENV,
  prepareDataset,
  prepareProtocol,
  readContracts,
  validateContracts,
  validatedLine,
} from "../../../lib/protocol/prepare.ts";
import { assertEquals, assertRejects, assertStringIncludes } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, FIXTURE_PROTOCOL, fixtureContracts } from "../../helpers/fixture.ts";

// The stages end to end are in cli_test.ts; these are the pieces cheap to check directly.

Deno.test("validate-contracts on the embedded contracts counts 40 official and 5 synthetic cases", async () => {
  const validation = await validateContracts();
  assertEquals(validation.contracts.config.protocol_id, "deermem-hybrid-v1-pr4789-reproduction-v1");
  assertEquals(contractsLine(validation), "validated 40 official and 5 synthetic cases");
});

Deno.test("readContracts takes each given file, keeps the embedded artifact for the others, and checks they agree", async () => {
  const embedded = await readContracts();
  await withTempDir(async (directory) => {
    const path = `${directory}/synthetic.json`;
    await Deno.writeFile(path, embeddedSources().synthetic.bytes);
    const contracts = await readContracts({ syntheticManifest: path });
    assertEquals(contracts.sources.synthetic, path);
    assertEquals(contracts.sources.config, embedded.sources.config);
    assertEquals(contracts.hashes, embedded.hashes);
  });
  const mixed = `${FIXTURE_PROTOCOL}/synthetic.json`;
  const error = await assertRejects(() => readContracts({ syntheticManifest: mixed }), ContractError);
  assertEquals(error.field, "protocol_id");
});

Deno.test("readContracts with a missing file names it: bad input, not an I/O failure", async () => {
  await withTempDir(async (directory) => {
    const path = `${directory}/absent.yaml`;
    const error = await assertRejects(() => readContracts({ config: path }), InputError);
    assertEquals(error.path, path);
    assertEquals(error.detail, "cannot read config: not found");
  });
});

Deno.test("prepareDataset without a path asks for --dataset and never downloads", async () => {
  const contracts = await fixtureContracts();
  for (const path of [undefined, ""]) {
    const error = await assertRejects(() => prepareDataset(contracts, path), InputError);
    assertEquals(error.message.split(": ")[0], `needs --dataset PATH (or ${DATASET_ENV})`);
    assertStringIncludes(error.message, "; this program never downloads it");
  }
});

Deno.test("validatedLine names the dataset's SHA-256 and the number of cases", async () => {
  const prepared = await prepareDataset(await fixtureContracts(), FIXTURE_DATASET);
  assertEquals(
    validatedLine(prepared),
    "validated dataset cd5c2b20057269a69a3308014dc9eb02b94231ff5aa0ca476e10e55483c938d9 and prepared 45 cases",
  );
});

Deno.test("a dataset refusal says where the pinned file is: file, repository, revision, SHA-256, URL, mirror", async () => {
  const contracts = await loadContracts(embeddedSources());
  const where = [
    "longmemeval_oracle.json of xiaowu0162/longmemeval-cleaned at revision 98d7416c24c778c2fee6e6f3006e7a073259d48f",
    "(SHA-256 821a2034d219ab45846873dd14c14f12cfe7776e73527a483f9dac095d38620c)",
    "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/98d7416c24c778c2fee6e6f3006e7a073259d48f/longmemeval_oracle.json",
    "a mirror serving the same /datasets/…/resolve/<revision>/… path works too",
  ];
  const wrong = await assertRejects(
    () => prepareProtocol(contracts, new TextEncoder().encode("[]"), "d.json"),
    DatasetIntegrityError,
  );
  const missing = await assertRejects(() => prepareDataset(contracts, undefined), InputError);
  for (const error of [wrong, missing]) for (const part of where) assertStringIncludes(error.message, part);
  assertStringIncludes(wrong.message, "d.json: SHA-256 mismatch: expected 821a2034");
});
