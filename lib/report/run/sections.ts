/**
 * The report laid out as titled sections, in order: what `verify` proved, then the QA results' suites,
 * scenarios, retention, discordant cases, token bill and provenance — or a policy run's retention,
 * differences and provenance.
 *
 * @module
 */

import { discordantSection } from "./discordant.ts";
import type { Section } from "../document/model.ts";
import { differencesSection, supportRetainedSection } from "./policy_sections.ts";
import { provenanceSection } from "./provenance.ts";
import { retentionSection } from "./retention.ts";
import { type PerModel, perModel, type PolicyReport, type QaReport, type RunReport } from "./run_report.ts";
import { scenariosSection } from "./scenarios.ts";
import { runPolicies } from "./groups.ts";
import { suitesSection } from "./suites.ts";
import { billSection } from "./tokens.ts";
import { epochSections } from "./epochs.ts";
import { suiteName } from "./names.ts";
import { reusedLine } from "../../qa/mod.ts";
import type { Verification } from "./verification.ts";

/** What `verify` proved, as the report's first section. */
export function verificationSection(verification: Verification): Section {
  return {
    id: "verification",
    title: "Verification",
    lines: verification.reused === undefined ? [] : [`· ${reusedLine(verification.reused)}`],
    tables: [],
    checks: {
      // Only a verified directory is reported, so a check either passed or was not run (needs the dataset).
      items: verification.checks.map((check) => ({
        proves: check.name,
        status: check.verdict === "pass" ? "pass" : "needs-dataset",
      })),
      proved: verification.proved,
    },
  };
}

/**
 * The report laid out as titled sections of tables, shared by every renderer.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { samplePolicyReport } from "./samples.ts";
 * import { reportSections } from "./sections.ts";
 * const report = samplePolicyReport();
 * deepStrictEqual(reportSections(report).map((section) => section.id), ["verification", "retention", "differences", "provenance"]);
 * ```
 */
export function reportSections(report: RunReport): Section[] {
  return perModel(SECTIONS, report);
}

/** Each report model's sections, in order. */
const SECTIONS: PerModel<[], Section[]> = { qa: qaSections, policy: policySections };

/** A policy run's sections: what verify proved, support retained, where the policies differ, provenance. */
function policySections(report: PolicyReport): Section[] {
  return [
    verificationSection(report.verification),
    supportRetainedSection(report),
    differencesSection(report.differences, runPolicies(report.entries)),
    provenanceSection(report.provenance),
  ];
}

/** A QA run's sections; with K runs, the case level first and the one-run sections run 1's. */
function qaSections(report: QaReport): Section[] {
  // With K runs, the one-run sections below the case level are run 1's: said in the suites' title.
  const suites = suitesSection(report);
  return renamed([
    verificationSection(report.verification),
    ...epochSections(report),
    report.epochs === undefined
      ? suites
      : { ...suites, title: `${suites.title}: run 1 of ${report.epochs.epochs}` },
    scenariosSection(report.scenarios, report.policies),
    retentionSection(report.retention),
    discordantSection(report.discordant, report.policies),
    billSection(report.bill),
    provenanceSection(report.provenance),
  ]);
}

/** The suites' and retention tables name each suite as the scenarios and the rows do (one name per thing). */
function renamed(sections: readonly Section[]): Section[] {
  return sections.map((section) =>
    section.id === "suites" || section.id === "retention"
      ? {
        ...section,
        tables: section.tables.map((table) => ({
          ...table,
          rows: table.rows.map(([suite, ...rest]) => [suiteName(suite), ...rest]),
        })),
      }
      : section
  );
}

/** The report's heading line. */
export function reportHeading(report: RunReport): string {
  return `deermem-eval report: ${report.directory} (${MODEL_LABELS[report.kind]})`;
}

/** How each report model is named in its heading. */
const MODEL_LABELS: Record<RunReport["kind"], string> = { qa: "QA results", policy: "policy run" };
