/**
 * The conformance report — per file, and for the whole directory — and its text form.
 *
 * @module
 */

import type { FieldMismatch, Tier } from "./compare.ts";
import { summarize } from "./_record.ts";

/** A failing line. */
export interface LineMismatch extends FieldMismatch {
  line: number;
  input: string;
  tier: Tier;
}

/** A double that differs only within `--tolerate-ulps`: counted and listed, never silent. */
export interface ToleratedDifference extends LineMismatch {
  /** The distance in units in the last place. */
  ulps: number;
}

/** The report on one file. */
export interface FileReport {
  file: string;
  total: number;
  /** Lines that agree (exactly, or within `--tolerate-ulps` when given). */
  passed: number;
  /** Lines that agree only within `--tolerate-ulps` (counted in `passed`, each listed in `toleratedLines`). */
  tolerated: number;
  /** Every differing double of the tolerated lines. */
  toleratedLines: ToleratedDifference[];
  /** Failing lines of tier `core`, and of tier `exotic`. */
  coreFailures: number;
  exoticFailures: number;
  /** The first three mismatches. */
  mismatches: LineMismatch[];
}

/** Options of a conformance run. */
export interface ConformanceOptions {
  /** Fail on exotic-tier disagreements too. */
  strict?: boolean;
  /** Check exactly these known files (each must be present); by default every known file must be. */
  only?: readonly string[];
  /** Accept doubles up to this many ulps apart, for vector files made on another platform; default 0. */
  tolerateUlps?: number;
}

/** The whole conformance report. */
export interface ConformanceReport {
  files: FileReport[];
  /** Files present in the directory that this build does not know; never counted as passed. */
  skipped: string[];
  /** Known files present but left out by `only`. */
  notSelected: string[];
  /** Known files expected (all, or those `only` names) but not present. */
  missing: string[];
  /** What makes the run fail besides disagreeing lines: missing or empty files, no vector file at all. */
  problems: string[];
  ok: boolean;
  strict: boolean;
  tolerateUlps: number;
}

/**
 * The text report: one line per file, the problems, the tolerated differences (all of them), then the first
 * mismatches of each failing file, and the verdict.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { formatConformance } from "./report.ts";
 * const file = { file: "libm.jsonl", total: 2, passed: 2, tolerated: 0, toleratedLines: [], coreFailures: 0, exoticFailures: 0, mismatches: [] };
 * const report = { files: [file], skipped: [], notSelected: [], missing: [], problems: [], ok: true, strict: false, tolerateUlps: 0 };
 * strictEqual(formatConformance(report), "✓ libm.jsonl 2/2\nconformance: all checked files agree exactly");
 * ```
 */
export function formatConformance(report: ConformanceReport): string {
  const lines = report.files.map((file) => fileLine(file, report));
  for (const problem of report.problems) lines.push(`✗ ${problem}`);
  for (const name of report.notSelected) lines.push(`- ${name} not checked: not named by --only`);
  for (const name of report.skipped) lines.push(`- ${name} skipped: not a known vector file`);
  for (const file of report.files) {
    for (const difference of file.toleratedLines) {
      lines.push(
        `  ${file.file}:${difference.line} tolerated ${difference.ulps} ulp: ${difference.field}: expected ${
          summarize(difference.expected)
        }, got ${summarize(difference.actual)}`,
      );
    }
  }
  for (const file of report.files) {
    for (const mismatch of file.mismatches) {
      lines.push(
        `  ${file.file}:${mismatch.line} [${mismatch.tier}] ${mismatch.input}: ${mismatch.field}: expected ${
          summarize(mismatch.expected)
        }, got ${summarize(mismatch.actual)}`,
      );
    }
  }
  lines.push(verdictLine(report));
  return lines.join("\n");
}

/** `✓`, `~` (only exotic disagreements, not strict) or `✗`, the file, passed/total and what was let through. */
function fileLine(file: FileReport, report: ConformanceReport): string {
  const failed = file.coreFailures + file.exoticFailures;
  const mark = file.total === 0
    ? "✗"
    : failed === 0
    ? "✓"
    : file.coreFailures === 0 && !report.strict
    ? "~"
    : "✗";
  let line = `${mark} ${file.file} ${file.passed}/${file.total}`;
  if (file.tolerated > 0) {
    line += ` (${file.tolerated} only within --tolerate-ulps ${report.tolerateUlps}, listed below)`;
  }
  if (file.exoticFailures > 0) line += ` (${file.exoticFailures} exotic-tier disagreements)`;
  return line;
}

function verdictLine(report: ConformanceReport): string {
  const tolerated = report.files.reduce((sum, file) => sum + file.tolerated, 0);
  if (!report.ok) return "conformance: FAILED";
  if (tolerated === 0) return "conformance: all checked files agree exactly";
  return `conformance: all checked files agree, ${tolerated} line${
    tolerated === 1 ? "" : "s"
  } only within --tolerate-ulps ${report.tolerateUlps}`;
}
