/**
 * A policy run's report and a result block to show report's functions with, in examples and nowhere else (not
 * private: the renderers' examples, one folder up, read them too).
 *
 * @module
 */

import { RunFiles } from "../../base/mod.ts";
import { policySummaryGroups } from "../../policy/mod.ts";
import type { Claim } from "./claim.ts";
import type { PolicyReport } from "./run_report.ts";

/**
 * The report of a policy run named `run` with one case at capacity 7: confidence loses its support, hybrid-v1
 * keeps it; verified on the recorded rows alone (the kept facts need --dataset).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { samplePolicyReport } from "./samples.ts";
 * const report = samplePolicyReport();
 * deepStrictEqual(report.entries.map((entry) => [entry.policy, entry.supportAllRetained]), [["confidence", false], ["hybrid-v1", true]]);
 * ```
 */
export function samplePolicyReport(): PolicyReport {
  const entries = [false, true].map((kept, index) => ({
    source: "longmemeval",
    scenario: "access_help",
    capacity: 7,
    policy: ["confidence", "hybrid-v1"][index],
    supportAllRetained: kept,
    supportRecall: Number(kept),
  }));
  return {
    kind: "policy",
    directory: "run",
    verification: {
      checks: [],
      ok: true,
      proved: "the kept facts need --dataset",
      rederived: false,
      bound: true,
    },
    entries,
    groups: policySummaryGroups(entries),
    differences: [],
    provenance: { entries: [] },
    rows: [],
    files: new RunFiles("run"),
  };
}

/**
 * A result block of one row, "overall": a 1 of 4 against b 3 of 4, with its statistics; what was checked
 * reads `what_next` (a Markdown character to escape).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sampleClaim } from "./samples.ts";
 * strictEqual(sampleClaim().rows[0].statistics?.discordant, 2);
 * ```
 */
export function sampleClaim(): Claim {
  return {
    title: "Result: b against a",
    policies: ["a", "b"],
    measure: "m",
    level: 95,
    method: "how",
    checked: "what_next",
    rows: [{
      label: "overall",
      cases: 4,
      scores: [{ policy: "a", count: 1 }, { policy: "b", count: 3 }],
      statistics: {
        p: "0.5000",
        midP: "0.2500",
        difference: "+0.500",
        interval: "[+0.000, +1.000]",
        discordant: 2,
        onlyFirst: 0,
        onlySecond: 2,
      },
    }],
  };
}
