/** The demo protocol: generated LongMemEval-shaped data, and contracts pinned to it that load and select. */
import { loadContracts } from "../../../lib/protocol/contracts.ts";
import { parseRows } from "../../../lib/protocol/dataset.ts";
import { buildDemoProtocol, DEMO_PROTOCOL_ID, generateDemoDataset } from "../../../lib/protocol/demo.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";
import { assertEquals, assertNotEquals } from "../../helpers/assert.ts";

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
