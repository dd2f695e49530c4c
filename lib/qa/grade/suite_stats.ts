/**
 * `qa.stats.json`: exact McNemar and the seeded paired bootstrap (hybrid-v1 minus confidence, or a candidate
 * minus its baseline) for the official, synthetic and overall suites, pairs by case id, written exactly as the reference writes it.
 *
 * @module
 */

import type { ProtocolConfig } from "../../protocol/mod.ts";
import { compareCodePoints } from "../../base/mod.ts";
import { dumps, PyFloat, type PyJson } from "../../py/mod.ts";
import type { GradedRow } from "./graded_rows.ts";
import { type PolicyPair, PUBLISHED_PAIR } from "../run/candidate.ts";
import { GRADER_VERSION } from "./grading.ts";
import {
  type BootstrapResult,
  exactMcnemar,
  formatPValue,
  type McnemarResult,
  type Pair,
  pairedBootstrapDifference,
} from "./stats.ts";

/** The name of the official suite's source, as `qa.rows.jsonl` and `qa.summary.json` write it. */
export const OFFICIAL_SOURCE = "longmemeval";

/** Which rows each suite of `qa.stats.json` holds: the one map every stage and report uses. */
export const SUITE_ROWS: Readonly<Record<"official" | "synthetic" | "overall", (row: GradedRow) => boolean>> =
  {
    official: (row) => row.source === OFFICIAL_SOURCE,
    synthetic: (row) => row.source === "synthetic",
    overall: () => true,
  };

/** One suite of `qa.stats.json` as values: exact McNemar and the bootstrap (hybrid-v1 minus confidence). */
export interface QaSuiteStats {
  bootstrap: BootstrapResult & { alpha: number; iterations: number; seed: bigint };
  cases: number;
  mcnemar: McnemarResult;
}

/** The three suites of `qa.stats.json`, never merged otherwise. */
export interface QaStatsSuites {
  official: QaSuiteStats;
  overall: QaSuiteStats;
  synthetic: QaSuiteStats;
}

function suite(rows: readonly GradedRow[], config: ProtocolConfig, pair: PolicyPair): QaSuiteStats {
  const caseIds = [...new Set(rows.map((row) => row.case_id))].sort(compareCodePoints);
  const pairs: Pair[] = caseIds.map((caseId) => {
    const outcome = (policy: string) =>
      rows.find((row) => row.case_id === caseId && row.policy === policy)!.grade_correct;
    return [outcome(pair[0]), outcome(pair[1])];
  });
  const { bootstrap_seed: seed, bootstrap_iterations: iterations, alpha } = config.statistics;
  const mcnemar = exactMcnemar(pairs);
  // Only a partial run's grading has a suite with no pair (every protocol has cases in each): no difference.
  const bootstrap = pairs.length === 0
    ? { mean_difference: 0, lower: 0, upper: 0 }
    : pairedBootstrapDifference(pairs, { seed, iterations, alpha });
  return { bootstrap: { alpha, iterations, ...bootstrap, seed }, cases: pairs.length, mcnemar };
}

function suiteJson(stats: QaSuiteStats): PyJson {
  const { bootstrap, mcnemar } = stats;
  return {
    bootstrap: {
      alpha: new PyFloat(bootstrap.alpha),
      iterations: bootstrap.iterations,
      lower: new PyFloat(bootstrap.lower),
      mean_difference: new PyFloat(bootstrap.mean_difference),
      seed: bootstrap.seed,
      upper: new PyFloat(bootstrap.upper),
    },
    cases: stats.cases,
    mcnemar: { ...mcnemar, p_value: new PyFloat(mcnemar.p_value) },
  };
}

/**
 * The suites of `qa.stats.json` as values: `official`, `synthetic` and `overall`, pairs by case id.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { qaStatsSuites } from "./suite_stats.ts";
 * import { graded } from "./_samples.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const rows = ["q1", "q2"].flatMap((id) => [graded(id, "confidence", false, "longmemeval"), graded(id, "hybrid-v1", true, "longmemeval")]);
 * const suites = qaStatsSuites([...rows, graded("s1", "confidence", true, "synthetic"), graded("s1", "hybrid-v1", true, "synthetic")], config);
 * strictEqual(suites.official.mcnemar.p_value, 0.5); // two discordant pairs, both for hybrid-v1
 * strictEqual(suites.overall.cases, 3);
 * ```
 */
export function qaStatsSuites(
  rows: readonly GradedRow[],
  config: ProtocolConfig,
  pair: PolicyPair = PUBLISHED_PAIR,
): QaStatsSuites {
  return {
    official: suite(rows.filter(SUITE_ROWS.official), config, pair),
    overall: suite(rows, config, pair),
    synthetic: suite(rows.filter(SUITE_ROWS.synthetic), config, pair),
  };
}

/**
 * `qa.stats.json`: suites `official`, `synthetic` and `overall` (hybrid-v1 minus confidence), pairs by case id.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { qaStats } from "./suite_stats.ts";
 * import { graded } from "./_samples.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const rows = [graded("q1", "confidence", false, "longmemeval"), graded("q1", "hybrid-v1", true, "longmemeval"),
 *   graded("s1", "confidence", false, "synthetic"), graded("s1", "hybrid-v1", true, "synthetic")];
 * const stats = JSON.parse(qaStats(rows, config));
 * strictEqual(stats.suites.overall.mcnemar.p_value, 0.5);
 * strictEqual(stats.suites.official.cases, 1);
 * ```
 */
export function qaStats(
  rows: readonly GradedRow[],
  config: ProtocolConfig,
  pair: PolicyPair = PUBLISHED_PAIR,
): string {
  return qaStatsOf(qaStatsSuites(rows, config, pair), config, pair);
}

/**
 * `qa.stats.json` from its suites as values (see {@linkcode qaStats}).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { qaStats, qaStatsOf, qaStatsSuites } from "./suite_stats.ts";
 * import { graded } from "./_samples.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const rows = [graded("q1", "confidence", true, "longmemeval"), graded("q1", "hybrid-v1", true, "longmemeval"),
 *   graded("s1", "confidence", false, "synthetic"), graded("s1", "hybrid-v1", true, "synthetic")];
 * strictEqual(qaStatsOf(qaStatsSuites(rows, config), config), qaStats(rows, config));
 * ```
 */
export function qaStatsOf(
  suites: QaStatsSuites,
  config: ProtocolConfig,
  pair: PolicyPair = PUBLISHED_PAIR,
): string {
  return dumps({
    grader_version: GRADER_VERSION,
    policies: [...pair],
    protocol_id: config.protocol_id,
    schema_version: 1,
    suites: {
      official: suiteJson(suites.official),
      overall: suiteJson(suites.overall),
      synthetic: suiteJson(suites.synthetic),
    },
  }, { indent: 2 }) + "\n";
}

/**
 * One line per suite for the terminal: `official: confidence 23/40, hybrid-v1 35/40, exact McNemar p=0.0018`,
 * from the rows and the suites' values (as `qa.stats.json` holds them).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { qaStatsSuites, suiteLines } from "./suite_stats.ts";
 * import { graded } from "./_samples.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const rows = [graded("q1", "confidence", false, "longmemeval"), graded("q1", "hybrid-v1", true, "longmemeval"),
 *   graded("s1", "confidence", false, "synthetic"), graded("s1", "hybrid-v1", true, "synthetic")];
 * strictEqual(suiteLines(rows, qaStatsSuites(rows, config))[0], "official: confidence 0/1, hybrid-v1 1/1, exact McNemar p=1.0000");
 * ```
 */
export function suiteLines(
  rows: readonly GradedRow[],
  suites: QaStatsSuites,
  pair: PolicyPair = PUBLISHED_PAIR,
): string[] {
  const members: [keyof QaStatsSuites, GradedRow[]][] = [
    ["official", rows.filter(SUITE_ROWS.official)],
    ["synthetic", rows.filter(SUITE_ROWS.synthetic)],
    ["overall", [...rows]],
  ];
  return members.map(([name, suiteRows]) => {
    const { cases, mcnemar } = suites[name];
    if (cases === 0) return `${name}: no cases, no statistics`;
    const counts = pair.map((policy) =>
      `${policy} ${suiteRows.filter((row) => row.policy === policy && row.grade_correct).length}/${cases}`
    );
    const p = formatPValue(mcnemar.p_value);
    return `${name}: ${counts.join(", ")}, exact McNemar p${
      p.startsWith("<") ? p.replace(" ", "") : `=${p}`
    }`;
  });
}
