/** verify on a sweep directory: the recorded SHA-256, the rows where the grid puts them, sweep.json re-derived. */
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256, sweepRecord } from "../../../lib/sweep/mod.ts";
import { SWEEP_CHECKS, type SweepVerification, verifySweep } from "../../../lib/verify/mod.ts";
import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";
import { UnreadableFileError } from "../../../lib/base/errors.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
const grid = "weights_step: 0.25\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\n" +
  "correction_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7]\n";
const result = runSweep(prepared, parseGrid(grid, "grid.yaml", contracts.config));
const ROWS = sweepJsonl(result);
const RECORD = sweepRecord(
  result,
  contracts,
  prepared.dataset.sha256,
  "deermem-eval test",
  await sweepJsonlSha256(result),
);

/** The sweep written into a fresh directory, each file changed by `edit` first. */
async function withSweep<T>(
  edit: { rows?: (text: string) => string; record?: (text: string) => string },
  body: (directory: string) => Promise<T>,
): Promise<T> {
  return await withTempDir(async (directory) => {
    const rows = edit.rows?.(ROWS) ?? ROWS;
    const record = edit.record?.(RECORD) ?? RECORD;
    assert(edit.rows === undefined || rows !== ROWS, "the rows' edit changed nothing");
    assert(edit.record === undefined || record !== RECORD, "the record's edit changed nothing");
    await Deno.writeTextFile(`${directory}/sweep.jsonl`, rows);
    await Deno.writeTextFile(`${directory}/sweep.json`, record);
    return await body(directory);
  });
}

/** Each check's verdict by its key in SWEEP_CHECKS, with the detail of a failed one. */
function verdicts(verification: SweepVerification): Record<string, string> {
  const keys = Object.fromEntries(Object.entries(SWEEP_CHECKS).map(([key, name]) => [name, key]));
  return Object.fromEntries(verification.checks.map((check) => [
    keys[check.name],
    check.verdict === "pass" ? "pass" : `${check.verdict}: ${check.detail}`,
  ]));
}

/** Line `line` (1-based) of the rows with its counts changed by `change`, the row kept self-consistent. */
function editRow(text: string, line: number, change: (row: Record<string, number>) => void): string {
  const lines = text.split("\n");
  const row = JSON.parse(lines[line - 1]);
  change(row);
  row.difference = row.hybrid_v1_retained - row.confidence_retained;
  // The keys as sweep writes them (sorted, Python spacing), so only the numbers differ.
  lines[line - 1] = lines[line - 1]
    .replace(/"confidence_retained": \d+/, `"confidence_retained": ${row.confidence_retained}`)
    .replace(/"difference": -?\d+/, `"difference": ${row.difference}`)
    .replace(/"hybrid_v1_retained": \d+/, `"hybrid_v1_retained": ${row.hybrid_v1_retained}`);
  return lines.join("\n");
}

Deno.test("verifySweep: a sweep as written passes every check, with the dataset every row recomputed", async () => {
  await withSweep({}, async (directory) => {
    const offline = await verifySweep(directory, contracts);
    assertEquals(Object.values(verdicts(offline)), ["pass", "pass", "pass", "pass", "pass"]);
    assert(offline.ok && offline.result !== undefined);
    const full = await verifySweep(directory, contracts, prepared.cases);
    assertEquals(verdicts(full).recomputed, "pass");
  });
});

Deno.test("verifySweep: a self-consistent edit of hybrid-v1's count is refused by the hash, and named with the dataset", async () => {
  const line = 17; // a row of the second parameter set
  await withSweep(
    { rows: (text) => editRow(text, line, (row) => row.hybrid_v1_retained -= 1) },
    async (directory) => {
      const offline = verdicts(await verifySweep(directory, contracts));
      assert(offline.hash.startsWith("fail: the file's is "), offline.hash);
      assert(offline.hash.includes("the rows changed after sweep wrote them"), offline.hash);
      assertEquals([offline.rows, offline.canonical], ["pass", "pass"]);
      const full = verdicts(await verifySweep(directory, contracts, prepared.cases));
      const original = JSON.parse(ROWS.split("\n")[line - 1]).hybrid_v1_retained;
      assertEquals(
        full.recomputed,
        `fail: ${directory}/sweep.jsonl: line ${line}: hybrid_v1_retained: file ${
          original - 1
        }, recomputed ${original}`,
      );
    },
  );
});

Deno.test("verifySweep: an edit of confidence's count is named by its row, without the dataset", async () => {
  await withSweep(
    { rows: (text) => editRow(text, 12, (row) => row.confidence_retained += 1) },
    async (directory) => {
      const found = verdicts(await verifySweep(directory, contracts));
      const first = JSON.parse(ROWS.split("\n")[1]).confidence_retained;
      assertEquals(
        found.rows,
        `fail: ${directory}/sweep.jsonl: line 12: confidence_retained is ${
          first + 1
        }, but ${first} at line 2 (the same capacity and scenario): confidence's count does not depend on hybrid-v1's parameters`,
      );
      assert(found.hash.startsWith("fail: "));
    },
  );
});

Deno.test("verifySweep: an edit that updates the recorded hash too is caught only by the dataset", async () => {
  const rows = editRow(ROWS, 17, (row) => row.hybrid_v1_retained -= 1);
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(rows));
  const hex = Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, "0")).join("");
  const record = (text: string) =>
    text.replace(/"sweep_jsonl_sha256": "\w+"/, `"sweep_jsonl_sha256": "${hex}"`);
  await withSweep({ rows: () => rows, record }, async (directory) => {
    const offline = verdicts(await verifySweep(directory, contracts));
    // Offline, a forged pair of files that agree is what the rows alone cannot tell apart (the report says so).
    assertEquals(offline.hash, "pass");
    const full = verdicts(await verifySweep(directory, contracts, prepared.cases));
    assert(full.recomputed.startsWith(`fail: ${directory}/sweep.jsonl: line 17: hybrid_v1_retained: file `));
  });
});

Deno.test("verifySweep: sweep.json's placement edited is named by its figure; a respaced row by its line", async () => {
  const published = JSON.parse(RECORD).placement.published_grid_points;
  const record = (text: string) =>
    text.replace(`"published_grid_points": ${published}`, `"published_grid_points": ${published + 1}`);
  await withSweep({ record }, async (directory) => {
    const found = verdicts(await verifySweep(directory, contracts));
    assertEquals(
      found.derived,
      `fail: placement.published_grid_points: file ${published + 1}, rows ${published}`,
    );
  });
  await withSweep(
    { rows: (text) => text.replace('"capacity": 5, "cases"', '"capacity":5, "cases"') },
    async (directory) => {
      const found = verdicts(await verifySweep(directory, contracts));
      assertEquals(
        found.canonical,
        "fail: line 1 is not in canonical form (sorted keys, Python spacing and number forms)",
      );
      assert(found.hash.startsWith("fail: "));
    },
  );
});

Deno.test("verifySweep: an earlier version's sweep.json (no hash) and missing files are failed checks", async () => {
  const record = (text: string) => text.replace('"schema_version": 2', '"schema_version": 1');
  await withSweep({ record }, async (directory) => {
    const found = verdicts(await verifySweep(directory, contracts));
    assertEquals(
      found.record,
      `fail: ${directory}/sweep.json: schema_version 1, expected 2 (an earlier version's sweep records no SHA-256 of its rows): run sweep again`,
    );
  });
  await withTempDir(async (directory) => {
    const found = verdicts(await verifySweep(directory, contracts));
    assertEquals([found.record, found.hash], ["fail: missing", "fail: missing"]);
  });
});

Deno.test("verifySweep with the dataset: a sweep made under another protocol is named, its rows not recomputed", async () => {
  const record = (text: string) =>
    text.replace(/"config_sha256": "\w+"/, `"config_sha256": "${"0".repeat(64)}"`);
  await withSweep({ record }, async (directory) => {
    const offline = verdicts(await verifySweep(directory, contracts));
    assertEquals(offline.derived, "pass"); // the blocks are the file's own
    const full = verdicts(await verifySweep(directory, contracts, prepared.cases));
    assertEquals(full.protocol, "fail: differ: artifacts.config_sha256");
    assertEquals(full.recomputed, "fail: not checked: the checks above fail");
  });
});

Deno.test("verifySweep: a sweep.jsonl that is not valid UTF-8 is refused as every text read refuses it", async () => {
  await withSweep({}, async (directory) => {
    const bytes = await Deno.readFile(`${directory}/sweep.jsonl`);
    bytes[10] = 0xff;
    await Deno.writeFile(`${directory}/sweep.jsonl`, bytes);
    await assertRejects(() => verifySweep(directory, contracts), UnreadableFileError, "sweep.jsonl");
  });
});
