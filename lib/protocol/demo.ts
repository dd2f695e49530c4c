/**
 * The demo: a synthetic LongMemEval-shaped dataset generated here (no LongMemEval text) with a protocol pinned
 * to it, so the offline stages can be shown end to end without the real file. Deterministic.
 *
 * @module
 */

import { ensureDir, publishFiles } from "../base/publish.ts";
import { type Contracts, EMBEDDED_ARTIFACTS, loadContracts } from "./contracts.ts";
import { sha256Hex } from "../base/hash.ts";
import { type Dataset, loadDataset, parseRows } from "./dataset.ts";
import type { OfficialManifest } from "./manifest.ts";
import { recomputeSelection } from "./cases.ts";
import { type ContractPaths, type PreparedProtocol, prepareProtocol } from "./prepare.ts";

/** The demo protocol's id; it says "demo" wherever it is recorded. */
export const DEMO_PROTOCOL_ID = "deermem-demo-synthetic-v1";

const WORDS = [
  "kite",
  "lake",
  "garden",
  "violin",
  "bakery",
  "train",
  "museum",
  "harbor",
  "lantern",
  "orchard",
];
const NAMES = ["Lena", "Omar", "Priya", "Jonas", "Mei", "Tomas", "Ada", "Ravi"];

function pick<T>(items: readonly T[], index: number): T {
  return items[index % items.length];
}

function hexId(index: number, salt: number): string {
  return ((index * 2654435761 + salt * 40503) >>> 0).toString(16).padStart(8, "0");
}

function session(sentences: string[], answerTurn: number, filler: string) {
  const turns: Record<string, unknown>[] = sentences.map((content, turn) => ({
    role: turn % 2 === 0 ? "user" : "assistant",
    content,
    ...(turn === answerTurn ? { has_answer: true } : {}),
  }));
  // Padding goes into an assistant turn that is never evidence, so it adds bytes without changing any case.
  if (filler !== "") turns.push({ role: "assistant", content: filler });
  return turns;
}

/**
 * A LongMemEval-shaped dataset: knowledge-update and temporal-reasoning questions, distractor-type rows, and
 * a few rows each selection rule excludes. `scale` multiplies the row count and `padding` adds that many
 * sentences of non-evidence chat to every session (the bench uses both to reach the real file's size).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { generateDemoDataset } from "./demo.ts";
 * const rows = generateDemoDataset();
 * deepStrictEqual(rows.length > 100, true);
 * ```
 */
export function generateDemoDataset(scale = 1, padding = 0): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const filler = "The weather was unremarkable that day. ".repeat(padding).trimEnd();
  const types: [string, number][] = [
    ["knowledge-update", 26],
    ["temporal-reasoning", 26],
    ["single-session-user", 36],
    ["single-session-preference", 14],
    ["multi-session", 4],
  ];
  let serial = 0;
  for (let copy = 0; copy < scale; copy++) {
    for (const [type, count] of types) {
      for (let index = 0; index < count; index++) {
        serial++;
        const name = pick(NAMES, serial);
        const thing = pick(WORDS, serial * 3);
        const place = pick(WORDS, serial * 7 + 1);
        const questionId = `${hexId(serial, copy)}${
          index % 9 === 8 && type === "knowledge-update" ? "_abs" : ""
        }`;
        const sessions = [
          session(
            [
              `${name} mentioned the ${thing} near the ${place} on day ${serial % 28 + 1}.`,
              `Noted: ${name} and the ${thing}.`,
            ],
            type.startsWith("single-session") ? -1 : 1,
            filler,
          ),
          session(
            [
              `Later ${name} said the ${thing} cost ${serial % 90 + 10} dollars.`,
              `Understood, ${serial % 90 + 10} dollars for the ${thing}.`,
            ],
            type.startsWith("single-session") ? -1 : 0,
            filler,
          ),
        ];
        rows.push({
          question_id: questionId,
          question_type: type,
          question: `How much did ${name} pay for the ${thing}?`,
          answer: index % 11 === 10 ? "There is not enough information." : `${serial % 90 + 10} dollars`,
          question_date: `2023/0${serial % 9 + 1}/1${serial % 10} (Mon) 10:00`,
          haystack_session_ids: [`s_${serial}_0`, `s_${serial}_1`],
          haystack_dates: ["2023/01/02 (Mon) 09:00", "2023/02/03 (Fri) 18:30"],
          haystack_sessions: sessions,
          answer_session_ids: [`s_${serial}_1`],
        });
      }
    }
  }
  return rows;
}

/** A generated demo protocol: the dataset bytes and the three contract texts pinned to them. */
export interface DemoProtocol {
  dataset: Uint8Array;
  config: string;
  official: string;
  synthetic: string;
}

/**
 * Builds the demo protocol: the embedded config with the demo's dataset identity and protocol id, an official
 * manifest listing the IDs the selection rule picks from the generated data, and the embedded synthetic cases.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, DEMO_PROTOCOL_ID } from "./demo.ts";
 * const demo = await buildDemoProtocol();
 * strictEqual(demo.config.includes(`protocol_id: ${DEMO_PROTOCOL_ID}`), true);
 * strictEqual(JSON.parse(demo.official).protocol_id, DEMO_PROTOCOL_ID);
 * ```
 */
export async function buildDemoProtocol(
  size: { scale?: number; padding?: number } = {},
): Promise<DemoProtocol> {
  const rows = generateDemoDataset(size.scale, size.padding);
  const dataset = new TextEncoder().encode(JSON.stringify(rows, null, 1));
  const sha256 = await sha256Hex(dataset);
  const config = EMBEDDED_ARTIFACTS["configs/pr4789-reproduction-v1.yaml"]
    .replace(/^protocol_id: .*$/m, `protocol_id: ${DEMO_PROTOCOL_ID}`)
    .replace(/^ {2}repository: .*$/m, "  repository: deermem-eval/demo-synthetic")
    .replace(/^ {2}filename: .*$/m, "  filename: demo-longmemeval-shaped.json")
    .replace(/^ {2}sha256: [0-9a-f]{64}$/m, `  sha256: ${sha256}`);
  const official = JSON.parse(EMBEDDED_ARTIFACTS["manifests/longmemeval-pr4789-v1.json"]);
  official.protocol_id = DEMO_PROTOCOL_ID;
  const selection = recomputeSelection({ sha256, ...parseRows(rows, "demo") }, official as OfficialManifest);
  const per = official.selection.cases_per_type_per_scenario;
  official.scenarios = Object.fromEntries(
    (official.scenario_order as string[]).map((scenario, index) => [
      scenario,
      official.selection.eligible_question_types.flatMap((type: string) =>
        selection.get(type)!.slice(per * index, per * index + per).map((row) => row.questionId)
      ), // in the order the reference compares: each type's IDs in turn
    ]),
  );
  const synthetic = JSON.parse(EMBEDDED_ARTIFACTS["manifests/synthetic-corrections-pr4789-v1.json"]);
  synthetic.protocol_id = DEMO_PROTOCOL_ID;
  return {
    dataset,
    config,
    official: JSON.stringify(official, null, 2) + "\n",
    synthetic: JSON.stringify(synthetic, null, 2) + "\n",
  };
}

/**
 * A demo protocol's contracts loaded, as `validate-contracts` would load them from files.
 *
 * @param demo What {@linkcode buildDemoProtocol} generated.
 * @returns The parsed and cross-checked contracts, named `demo:config.yaml`, `demo:official.json`, ….
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, DEMO_PROTOCOL_ID, loadDemoContracts } from "./demo.ts";
 * const contracts = await loadDemoContracts(await buildDemoProtocol());
 * strictEqual(contracts.config.protocol_id, DEMO_PROTOCOL_ID);
 * ```
 */
export async function loadDemoContracts(demo: DemoProtocol): Promise<Contracts> {
  const encoder = new TextEncoder();
  return await loadContracts({
    config: { source: "demo:config.yaml", bytes: encoder.encode(demo.config) },
    official: { source: "demo:official.json", bytes: encoder.encode(demo.official) },
    synthetic: { source: "demo:synthetic.json", bytes: encoder.encode(demo.synthetic) },
  });
}

/**
 * A demo protocol's contracts loaded and its generated dataset prepared, as `validate` would from files.
 *
 * @param demo What {@linkcode buildDemoProtocol} generated.
 * @returns The contracts, the dataset and the 45 prepared cases.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "./demo.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * strictEqual(prepared.cases.length, 45);
 * ```
 */
export async function prepareDemoProtocol(demo: DemoProtocol): Promise<PreparedProtocol> {
  return await prepareProtocol(await loadDemoContracts(demo), demo.dataset, "demo:dataset.json");
}

/**
 * A demo protocol's contracts and its generated dataset parsed (its pin checked), rows and all: what the
 * selection's and the bank's own examples work on.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, loadDemoDataset } from "./demo.ts";
 * const { contracts, dataset } = await loadDemoDataset(await buildDemoProtocol());
 * strictEqual(dataset.sha256, contracts.config.dataset.sha256);
 * ```
 */
export async function loadDemoDataset(
  demo: DemoProtocol,
): Promise<{ contracts: Contracts; dataset: Dataset }> {
  const contracts = await loadDemoContracts(demo);
  return {
    contracts,
    dataset: await loadDataset(demo.dataset, "demo:dataset.json", contracts.config.dataset.sha256),
  };
}

/** Where {@linkcode writeDemoProtocol} put the demo protocol's files. */
export interface DemoProtocolFiles {
  /** The three contract files, as `--config`, `--official-manifest` and `--synthetic-manifest` take them. */
  contracts: ContractPaths;
  /** The generated dataset, as `--dataset` takes it. */
  dataset: string;
}

/**
 * Writes the demo protocol into `directory` (created if missing) as files (`config.yaml`, `official.json`, `synthetic.json`,
 * `dataset.json`), so every command can run on it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, writeDemoProtocol } from "./demo.ts";
 * import { readContracts } from "./prepare.ts";
 * const files = await writeDemoProtocol(await Deno.makeTempDir(), await buildDemoProtocol());
 * strictEqual((await readContracts(files.contracts)).config.protocol_id, "deermem-demo-synthetic-v1");
 * ```
 */
export async function writeDemoProtocol(directory: string, demo: DemoProtocol): Promise<DemoProtocolFiles> {
  const contracts = {
    config: `${directory}/config.yaml`,
    officialManifest: `${directory}/official.json`,
    syntheticManifest: `${directory}/synthetic.json`,
  };
  const dataset = `${directory}/dataset.json`;
  await ensureDir(directory);
  await publishFiles([
    [contracts.config, demo.config],
    [contracts.officialManifest, demo.official],
    [contracts.syntheticManifest, demo.synthetic],
    [dataset, demo.dataset],
  ]);
  return { contracts, dataset };
}
