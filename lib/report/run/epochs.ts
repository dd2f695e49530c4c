/**
 * A K-run directory's sections: the case-level verdict (the exact sign-flip test over cases, K runs each, the
 * mean difference and its case bootstrap interval, the flips between runs) and each run's own exact McNemar.
 *
 * @module
 */

import { formatP, formatSigned, fraction } from "../document/format.ts";
import { type Section, table } from "../document/model.ts";
import type { QaReport } from "./run_report.ts";
import { suiteName } from "./names.ts";

/**
 * The case-level and per-run sections of a K-run report; none for a one-run report.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { epochStats } from "../../qa/mod.ts";
 * import { graded } from "../../qa/grade/_samples.ts";
 * import { epochSections } from "./epochs.ts";
 * import type { QaReport } from "./run_report.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const run = (a: boolean, b: boolean) => [graded("q1", "confidence", a, "longmemeval"), graded("q1", "hybrid-v1", b, "longmemeval")];
 * const epochs = epochStats([run(false, true), run(false, false)], config);
 * const report = { policies: ["confidence", "hybrid-v1"], epochs } as unknown as QaReport;
 * const [caseLevel, runs] = epochSections(report);
 * strictEqual(caseLevel.title, "Case level: exact sign-flip test over 1 cases, 2 runs each");
 * strictEqual(runs.tables[0].rows.length, 2 * 3); // two runs × three suites
 * strictEqual(epochSections({ ...report, epochs: undefined }).length, 0);
 * ```
 */
export function epochSections(report: QaReport): Section[] {
  const epochs = report.epochs;
  if (epochs === undefined) return [];
  const [first, second] = report.policies;
  const k = epochs.epochs;
  const cases = epochs.case_level.find((suite) => suite.suite === "overall")?.cases ?? 0;
  const caseLevel: Section = {
    id: "case-level",
    title: `Case level: exact sign-flip test over ${cases} cases, ${k} runs each`,
    lines: [
      `Per case, d = ${second} − ${first} correct answers out of ${k}; p by exact enumeration of the sign ` +
      `assignments over the cases; the difference is sum d / (${k} · cases), its interval a case bootstrap.`,
      `Cases whose grade flips between runs: ${
        epochs.policies.map((policy) => `${policy} ${epochs.flips[policy]}`).join(", ")
      }.`,
    ],
    tables: [table(
      ["suite", "cases", `${second} − ${first}`, "interval", "sign-flip p"],
      epochs.case_level.map((suite) => [
        suiteName(suite.suite),
        String(suite.cases),
        formatSigned(suite.difference),
        `[${formatSigned(suite.interval[0])}, ${formatSigned(suite.interval[1])}]`,
        formatP(suite.p),
      ]),
      [false, true, true, true, true],
    )],
  };
  const runs: Section = {
    id: "runs",
    title: `Each run's exact McNemar (${k} runs)`,
    lines: [],
    tables: [table(
      ["run", "suite", first, second, "discordant", "McNemar p"],
      epochs.per_epoch.flatMap((row) =>
        (["official", "synthetic", "overall"] as const).map((suite) => {
          const { cases: n, correct, mcnemar } = row.suites[suite];
          return [
            String(row.run),
            suiteName(suite),
            fraction(correct[first], n),
            fraction(correct[second], n),
            `${mcnemar.only_first_correct}/${mcnemar.only_second_correct}`,
            formatP(mcnemar.p_value),
          ];
        })
      ),
      [true, false, true, true, true, true],
    )],
  };
  return [caseLevel, runs];
}
