/**
 * Checking one vector file's text: every line through its file's checker, compared exactly, or — only with
 * `tolerateUlps` — passing as tolerated when its only differences are doubles that few ulps apart.
 *
 * @module
 */

import { VectorFormatError } from "./errors.ts";
import { parseJsonText } from "../py/mod.ts";
import { type AsyncVectorChecker, type LineVerdict, ulpsApart, type VectorChecker } from "./compare.ts";
import type { FileReport } from "./report.ts";
import { PYTHON_FLOAT_FILES, VECTOR_CHECKERS } from "./vectors.ts";

/**
 * Runs every line of one vector file's text through its checker. Every double is compared exactly unless
 * `tolerateUlps` is given, and then a line whose only differences are doubles at most that many ulps apart
 * passes as tolerated: counted, and each difference listed. A malformed line is a {@linkcode VectorFormatError}
 * naming the file and the line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkVectorText } from "./check.ts";
 * const report = await checkVectorText("bounded-number.jsonl", '{"expected": "3fe6666666666666", "input": 0.7}\n');
 * deepStrictEqual([report.passed, report.total], [1, 1]);
 * ```
 */
export async function checkVectorText(
  file: string,
  text: string,
  options: { tolerateUlps?: number } = {},
): Promise<FileReport> {
  const checker = VECTOR_CHECKERS[file];
  if (checker === undefined) throw new RangeError(`unknown vector file: ${file}`);
  const report: FileReport = {
    file,
    total: 0,
    passed: 0,
    tolerated: 0,
    toleratedLines: [],
    coreFailures: 0,
    exoticFailures: 0,
    mismatches: [],
  };
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    if (lines[index].trim() === "") continue;
    const record = parseLine(file, lines[index], index + 1);
    const verdict = await checkLine(checker, record, file, index + 1);
    tally(report, verdict, index + 1, options.tolerateUlps ?? 0);
  }
  return report;
}

function parseLine(file: string, line: string, lineNumber: number): Record<string, unknown> {
  const record = parseJsonText(line, file, {
    error: VectorFormatError,
    prefix: `line ${lineNumber}: `,
    parser: PYTHON_FLOAT_FILES.has(file) ? "python" : "engine",
  });
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    throw new VectorFormatError(`line ${lineNumber}: not a JSON object`, { path: file });
  }
  return record as Record<string, unknown>;
}

/** The checker's verdict; its format error gains the file and the line. */
async function checkLine(
  checker: VectorChecker | AsyncVectorChecker,
  record: Record<string, unknown>,
  file: string,
  lineNumber: number,
): Promise<LineVerdict> {
  try {
    return await checker(record);
  } catch (error) {
    if (error instanceof VectorFormatError) {
      throw new VectorFormatError(`line ${lineNumber}: ${error.field ?? ""}: ${error.detail}`, {
        path: file,
      });
    }
    throw error;
  }
}

/** Counts one line's verdict into the file's report. */
function tally(report: FileReport, verdict: LineVerdict, line: number, tolerateUlps: number): void {
  report.total++;
  if (verdict.mismatches.length === 0) {
    report.passed++;
    return;
  }
  const where = { line, input: verdict.input, tier: verdict.tier };
  const distances = verdict.mismatches.map(ulpsApart);
  if (tolerateUlps > 0 && distances.every((ulps) => ulps !== undefined && ulps <= tolerateUlps)) {
    report.passed++;
    report.tolerated++;
    verdict.mismatches.forEach((mismatch, at) =>
      report.toleratedLines.push({ ...where, ...mismatch, ulps: distances[at]! })
    );
    return;
  }
  if (verdict.tier === "core") report.coreFailures++;
  else report.exoticFailures++;
  if (report.mismatches.length < 3) report.mismatches.push({ ...where, ...verdict.mismatches[0] });
}
