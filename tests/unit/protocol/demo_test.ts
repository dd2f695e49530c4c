/** The demo protocol: generated LongMemEval-shaped data, and contracts pinned to it that load and select. */
import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { parseRows } from "../../../lib/protocol/dataset.ts";
import {
  buildDemoProtocol,
  DEMO_PROTOCOL_ID,
  generateDemoDataset,
  loadDemoContracts,
  loadDemoDataset,
} from "../../../lib/protocol/demo.ts";
import { prepareDataset, prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { DatasetIntegrityError } from "../../../lib/protocol/errors.ts";
import { InputError } from "../../../lib/base/errors.ts";
import { eligibleCount } from "../../../lib/protocol/eligible.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";
import {
  assert,
  assertEquals,
  assertNotEquals,
  assertRejects,
  assertStringIncludes,
} from "../../helpers/assert.ts";

Deno.test("the generated dataset is deterministic, parses as LongMemEval rows, and scales", () => {
  const rows = generateDemoDataset();
  assertEquals(generateDemoDataset(), rows);
  const parsed = parseRows(rows, "demo");
  assertEquals(parsed.rows.length, rows.length);
  assertEquals(new Set(parsed.rows.map((row) => row.questionId)).size, rows.length);
  assertEquals(generateDemoDataset(2).length, 2 * rows.length);
  // Padding adds bytes, not rows.
  const padded = generateDemoDataset(1, 100);
  assertEquals(padded.length, rows.length);
  assertNotEquals(JSON.stringify(padded), JSON.stringify(rows));
});

Deno.test("the demo protocol pins its own dataset, says demo, and loads as contracts", async () => {
  const demo = await buildDemoProtocol();
  const encoder = new TextEncoder();
  assertEquals(demo.config.includes(`protocol_id: ${DEMO_PROTOCOL_ID}`), true);
  assertEquals(demo.config.includes(`  sha256: ${await sha256Hex(demo.dataset)}`), true);
  const contracts = await loadContracts({
    config: { source: "demo.yaml", bytes: encoder.encode(demo.config) },
    official: { source: "demo-official.json", bytes: encoder.encode(demo.official) },
    synthetic: { source: "demo-synthetic.json", bytes: encoder.encode(demo.synthetic) },
  });
  assertEquals(contracts.config.protocol_id, DEMO_PROTOCOL_ID);
  assertEquals(contracts.official.protocol_id, DEMO_PROTOCOL_ID);
  assertEquals(contracts.synthetic.protocol_id, DEMO_PROTOCOL_ID);
  const ids = Object.values(contracts.official.scenarios).flat();
  assertEquals(ids.length, 40);
  const known = new Set(
    parseRows(JSON.parse(new TextDecoder().decode(demo.dataset)), "demo").rows.map((row) => row.questionId),
  );
  for (const id of ids) assertEquals(known.has(id), true, id);
});

Deno.test("the demo's dataset has more than 150 eligible official cases; the 40 the rule takes first are the original rows", async () => {
  const demo = await buildDemoProtocol();
  const { contracts, dataset } = await loadDemoDataset(demo);
  const eligible = eligibleCount(dataset, contracts.official);
  assert(eligible.total >= 150, `${eligible.total}`);
  for (const type of contracts.official.selection.eligible_question_types) {
    assert(eligible.byType[type] >= 75, `${type}: ${eligible.byType[type]}`);
  }
  // The added rows sort after the first ones, so the 40-case protocol and the distractor bank are as before.
  const ids = Object.values(contracts.official.scenarios).flat();
  assertEquals(ids.filter((id) => id.startsWith("x")), []);
  const added = dataset.rows.filter((row) => row.questionId.startsWith("x"));
  assertEquals(added.length, 140);
  assertEquals(
    new Set(added.map((row) => row.questionType)),
    new Set(["knowledge-update", "temporal-reasoning"]),
  );
});

Deno.test("the demo's dataset carries its own identity, not LongMemEval's revision; its refusal says how to regenerate it, with no URL", async () => {
  const contracts = await loadDemoContracts(await buildDemoProtocol());
  const pinned = (await loadContracts(embeddedSources())).config.dataset;
  const { repository, revision, filename, sha256 } = contracts.config.dataset;
  assertNotEquals(revision, pinned.revision);
  assertEquals(revision, sha256.slice(0, 40)); // its own bytes name it: a config's revision is 40 hex digits
  assertEquals([repository, filename], ["deermem-eval/demo-synthetic", "demo-longmemeval-shaped.json"]);
  const missing = await assertRejects(() => prepareDataset(contracts, undefined), InputError);
  const wrong = await assertRejects(
    () => prepareProtocol(contracts, new TextEncoder().encode("[]"), "d.json"),
    DatasetIntegrityError,
  );
  for (const error of [missing, wrong]) {
    assert(!error.message.includes("https://") && !error.message.includes("huggingface"), error.message);
    assert(!error.message.includes(pinned.revision), error.message);
    assertStringIncludes(error.message, "deermem-eval demo --output-dir DIR");
    assertStringIncludes(error.message, "DIR/protocol/dataset/demo-longmemeval-shaped.json");
    assertStringIncludes(error.message, sha256);
  }
});
