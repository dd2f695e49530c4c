/**
 * A new protocol authored from another by the other's own selection rule: every eligible case the rule's
 * balance can hold (or about N), its scenarios assigned as `scenario_order` assigns them, its config pinned to
 * the dataset and naming the protocol it was authored from.
 *
 * The rule stays the source's: each eligible question type gives the same number of cases
 * (`take_per_question_type`), a multiple of the scenario count, the first ones by question_id; scenario *i*
 * takes each type's `[k·i, k·i + k)` in turn. `all` takes the largest such number every type has; `N` the
 * largest that keeps the total at most N (the remainder is not taken). With a seed (only with `N`), each type's
 * cases are drawn instead: the first by `draw_order` ({@linkcode takenRows}), then assigned in question_id
 * order; the manifest records `seed` and `draw_order`. `validate` recomputes exactly this selection.
 *
 * @module
 */

import { InputError } from "../base/mod.ts";
import { parseJsonText } from "../py/mod.ts";
import type { Dataset } from "./dataset.ts";
import { DRAW_ORDER, eligibleRows, takenRows } from "./eligible.ts";
import type { OfficialManifest } from "./manifest.ts";

/** What to author. */
export interface AuthorRequest {
  /** `all`, or the most official cases to take. */
  cases: "all" | number;
  /** Draw each type's cases by this seed (only with a number of cases). */
  seed?: number;
  /** The new protocol's id, or how to name it from the number of official cases taken. */
  protocolId: string | ((cases: number) => string);
}

/** The authored protocol's texts, and how many official cases it holds. */
export interface AuthoredProtocol {
  config: string;
  official: string;
  synthetic: string;
  /** Official cases per eligible type. */
  perType: number;
  /** All official cases. */
  cases: number;
  /** The new protocol's id. */
  protocolId: string;
}

/** The source protocol's texts and values, and the dataset to select from. */
export interface AuthorSource {
  configText: string;
  officialText: string;
  syntheticText: string;
  /** The source's protocol id. */
  protocolId: string;
  official: OfficialManifest;
  dataset: Dataset;
  /** The dataset's file name, for the config. */
  datasetName: string;
}

/**
 * Authors the protocol.
 *
 * @throws {InputError} When the dataset has too few eligible cases for one per scenario of every type, N is
 *   smaller than the smallest balanced protocol, or a seed comes with `all` (there is nothing to draw).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { authorProtocol } from "./author.ts";
 * import { buildDemoProtocol, loadDemoDataset } from "./demo.ts";
 * const demo = await buildDemoProtocol();
 * const { contracts, dataset } = await loadDemoDataset(demo);
 * const source = { configText: demo.config, officialText: demo.official, syntheticText: demo.synthetic,
 *   protocolId: contracts.config.protocol_id, official: contracts.official, dataset, datasetName: "demo.json" };
 * const authored = await authorProtocol(source, { cases: 80, protocolId: "demo-80" });
 * strictEqual(authored.cases, 80);
 * strictEqual(authored.config.includes("authored_from: deermem-demo-synthetic-v1"), true);
 * const seeded = await authorProtocol(source, { cases: 80, seed: 1, protocolId: "demo-80-seed-1" });
 * strictEqual(JSON.parse(seeded.official).selection.draw_order, "sha256(seed:question_id)");
 * ```
 */
export async function authorProtocol(
  source: AuthorSource,
  request: AuthorRequest,
): Promise<AuthoredProtocol> {
  if (request.seed !== undefined && request.cases === "all") {
    throw new InputError("expected --cases N to draw from, got all (every eligible case: nothing to draw)", {
      field: "--seed",
    });
  }
  // deno-lint-ignore no-explicit-any
  const manifest = parseJsonText(source.officialText, "official manifest") as Record<string, any>;
  const types: string[] = manifest.selection.eligible_question_types;
  const scenarios: string[] = manifest.scenario_order;
  const byType = eligibleRows(source.dataset, source.official);
  const fewest = Math.min(...types.map((type) => byType.get(type)!.length));
  const cap = request.cases === "all" ? fewest : Math.min(fewest, Math.floor(request.cases / types.length));
  const per = Math.floor(cap / scenarios.length);
  if (per < 1) {
    throw new InputError(
      `expected at least ${
        types.length * scenarios.length
      } official cases (one per scenario of each eligible ` +
        `type), got ${request.cases === "all" ? `${fewest} eligible of the scarcest type` : request.cases}`,
      { field: "--cases" },
    );
  }
  const take = per * scenarios.length;
  const protocolId = typeof request.protocolId === "string"
    ? request.protocolId
    : request.protocolId(take * types.length);
  manifest.protocol_id = protocolId;
  manifest.selection.take_per_question_type = take;
  manifest.selection.cases_per_type_per_scenario = per;
  delete manifest.selection.seed;
  delete manifest.selection.draw_order;
  if (request.seed !== undefined) {
    Object.assign(manifest.selection, { seed: request.seed, draw_order: DRAW_ORDER });
  }
  const taken = new Map<string, string[]>();
  for (const type of types) {
    const rows = await takenRows(byType.get(type)!, take, request.seed);
    taken.set(type, rows.map((row) => row.questionId));
  }
  manifest.scenarios = Object.fromEntries(scenarios.map((scenario, index) => [
    scenario,
    types.flatMap((type) => taken.get(type)!.slice(per * index, per * index + per)),
  ]));
  const synthetic = parseJsonText(source.syntheticText, "synthetic manifest") as Record<string, unknown>;
  synthetic.protocol_id = protocolId;
  return {
    config: authoredConfig(source, protocolId),
    official: JSON.stringify(manifest, null, 2) + "\n",
    synthetic: JSON.stringify(synthetic, null, 2) + "\n",
    perType: take,
    cases: take * types.length,
    protocolId,
  };
}

/** The source config with the new id, the line naming its source, and the dataset's name and SHA-256. */
function authoredConfig(source: AuthorSource, protocolId: string): string {
  const withoutSource = source.configText.replace(/^authored_from: .*\n/m, "");
  return withoutSource
    .replace(/^protocol_id: .*$/m, `protocol_id: ${protocolId}\nauthored_from: ${source.protocolId}`)
    .replace(/^ {2}filename: .*$/m, `  filename: ${JSON.stringify(source.datasetName)}`)
    .replace(/^ {2}sha256: [0-9a-f]{64}$/m, `  sha256: ${source.dataset.sha256}`);
}
