/**
 * Checks this build against reference vector files (the format of deer-flow's golden vectors): every line
 * is run through the library and compared exactly, doubles as bit patterns. The reference values come from
 * CPython on x86_64 glibc with FMA; only for vector files made on another platform may `tolerateUlps` accept
 * doubles a few ulps apart, and then every such line is counted and listed.
 *
 * @module
 */

import { doubleToHex, hexToDouble, ulpDistance } from "./float_bits.ts";
import { InputError } from "../base/errors.ts";
import {
  boundedNumber,
  type HybridParams,
  parseTimestamp,
  type ScoreComponents,
  selectFactsForCapacity,
} from "../policy/mod.ts";
import { dumps, dumpsString, floatRepr, parsePyJson, PyFloat } from "../py/json.ts";
import { answerText, renderEvidence } from "../protocol/dataset.ts";
import { gradeAnswer, normalizeAnswer } from "../qa/grading.ts";
import { EMBEDDED_ARTIFACTS } from "../protocol/contracts.ts";
import { fingerprintPayload, parsePromptTemplate, renderMessages, requestFingerprint } from "../qa/prompt.ts";
import { distractorOffset } from "../protocol/cases.ts";
import { HYBRID_PARAM_NAMES } from "../policy/mod.ts";
import { PythonRandom } from "../py/random.ts";
import { codePointLength } from "../py/builtins.ts";
import { instantToEpochMicroseconds } from "../py/time.ts";
import { exactMcnemar, type Pair, pairedBootstrapDifference } from "../qa/stats.ts";
import { log1p, pow } from "../py/libm.ts";

/** One field of one line that disagrees. */
export interface FieldMismatch {
  field: string;
  expected: unknown;
  actual: unknown;
}

/** A failing line. */
export interface LineMismatch extends FieldMismatch {
  line: number;
  input: string;
  tier: Tier;
}

/** `core` lines must agree; `exotic` ones are reported and only fail under `--strict`. */
export type Tier = "core" | "exotic";

/** The verdict on one vector line. */
export interface LineVerdict {
  mismatches: FieldMismatch[];
  tier: Tier;
  /** A short description of the input, for reports. */
  input: string;
}

/** Checks one parsed vector line; throws {@linkcode VectorFormatError} when the line lacks a field. */
export type VectorChecker = (record: Record<string, unknown>) => LineVerdict;

/** A vector line is malformed (bad JSON, missing or mistyped field): exit code 2. */
export class VectorFormatError extends InputError {
  constructor(message: string, options: { path?: string; field?: string; cause?: unknown } = {}) {
    super(message, options);
    this.name = "VectorFormatError";
  }
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

export function requireField(record: Record<string, unknown>, field: string): unknown {
  if (!Object.hasOwn(record, field)) throw new VectorFormatError(`missing field`, { field });
  return record[field];
}

function requireString(record: Record<string, unknown>, field: string): string {
  const value = requireField(record, field);
  if (typeof value !== "string") throw new VectorFormatError(`must be a string`, { field });
  return value;
}

function requireHexDouble(value: unknown, field: string): number {
  if (typeof value !== "string" || !/^[0-9a-f]{16}$/.test(value)) {
    throw new VectorFormatError(`must be a 16-hex-digit double`, { field });
  }
  return hexToDouble(value);
}

function summarize(value: unknown, limit = 80): string {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

// ---------------------------------------------------------------------------------------------------------
// Checkers, one per known file.

function componentsHex(components: ScoreComponents): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(components)) {
    if (value !== undefined) out[key] = doubleToHex(value);
  }
  return out;
}

function checkEviction(tier: Tier): VectorChecker {
  return (record) => {
    const input = requireField(record, "input") as Record<string, unknown>;
    const expected = requireField(record, "expected");
    if (input === null || typeof input !== "object") {
      throw new VectorFormatError("must be an object", { field: "input" });
    }
    for (const field of ["facts", "max_facts", "policy", "now"]) requireField(input, field);
    const params: Partial<HybridParams> = {};
    for (const [key, value] of Object.entries((input.params ?? {}) as Record<string, unknown>)) {
      const name = HYBRID_PARAM_NAMES[key];
      if (name === undefined) {
        throw new VectorFormatError(`unknown parameter`, { field: `input.params.${key}` });
      }
      params[name] = typeof value === "string"
        ? requireHexDouble(value, `input.params.${key}`)
        : Number(value);
    }
    const facts = input.facts as Record<string, unknown>[];
    const result = selectFactsForCapacity(facts, {
      maxFacts: input.max_facts as number,
      policy: input.policy as "confidence",
      now: input.now as string,
      usage: (input.usage ?? {}) as Record<string, unknown>,
      params,
    });
    const actual = {
      evicted: result.evicted.map((fact) => ({
        category: fact.category,
        components: componentsHex(fact.components),
        fact_id: fact.factId,
        score: doubleToHex(fact.score),
      })),
      kept_ids: result.kept.map((fact) => fact.id ?? null),
      kept_index: result.keptIndex,
      policy: input.policy,
      reserved_correction_slots: result.reservedCorrectionSlots,
      scores: Object.fromEntries(
        [...result.scores].map(([id, score]) => [id, {
          components: componentsHex(score.components),
          value: doubleToHex(score.value),
        }]),
      ),
    };
    return {
      mismatches: differences(expected, actual),
      tier,
      input: `${input.policy} capacity ${input.max_facts}, ${facts.length} facts`,
    };
  };
}

function collectDifferences(
  expected: unknown,
  actual: unknown,
  path: string,
  report: (difference: FieldMismatch) => void,
): void {
  if (Object.is(expected, actual)) return;
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    expected.forEach((item, index) => collectDifferences(item, actual[index], `${path}[${index}]`, report));
    return;
  }
  if (
    expected !== null && actual !== null && typeof expected === "object" && typeof actual === "object" &&
    !Array.isArray(expected) && !Array.isArray(actual)
  ) {
    const left = expected as Record<string, unknown>;
    const right = actual as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
    for (const key of keys) {
      collectDifferences(left[key], right[key], path === "" ? key : `${path}.${key}`, report);
    }
    return;
  }
  report({ field: path === "" ? "value" : path, expected, actual });
}

const checkDatetime: VectorChecker = (record) => {
  const input = requireField(record, "input");
  const expected = requireField(record, "epoch_microseconds");
  const tier = record.tier === "exotic" ? "exotic" : "core";
  const instant = parseTimestamp(input);
  const actual = instant === undefined ? null : Number(instantToEpochMicroseconds(instant));
  return {
    mismatches: Object.is(actual, expected) ? [] : [{ field: "epoch_microseconds", expected, actual }],
    tier,
    input: summarize(input),
  };
};

const checkBoundedNumber: VectorChecker = (record) => {
  const input = requireField(record, "input");
  const expected = requireString(record, "expected");
  const actual = doubleToHex(boundedNumber(input));
  return {
    mismatches: actual === expected ? [] : [{ field: "expected", expected, actual }],
    tier: "core",
    input: summarize(input),
  };
};

const checkPyjsonFloat: VectorChecker = (record) => {
  const bits = requireString(record, "bits");
  const value = requireHexDouble(bits, "bits");
  const mismatches: FieldMismatch[] = [];
  const repr = floatRepr(value);
  const json = dumps(new PyFloat(value));
  if (repr !== requireString(record, "repr")) {
    mismatches.push({ field: "repr", expected: record.repr, actual: repr });
  }
  if (json !== requireString(record, "json")) {
    mismatches.push({ field: "json", expected: record.json, actual: json });
  }
  return { mismatches, tier: "core", input: bits };
};

const checkPyjsonString: VectorChecker = (record) => {
  const text = requireString(record, "string");
  const mismatches: FieldMismatch[] = [];
  const plain = dumpsString(text);
  const ascii = dumpsString(text, true);
  if (plain !== requireString(record, "dumps")) {
    mismatches.push({ field: "dumps", expected: record.dumps, actual: plain });
  }
  if (ascii !== requireString(record, "dumps_ascii")) {
    mismatches.push({ field: "dumps_ascii", expected: record.dumps_ascii, actual: ascii });
  }
  return { mismatches, tier: "core", input: summarize(text) };
};

function differences(expected: unknown, actual: unknown): FieldMismatch[] {
  const found: FieldMismatch[] = [];
  collectDifferences(expected, actual, "", (difference) => found.push(difference));
  return found;
}

const checkGrader: VectorChecker = (record) => {
  const prediction = requireString(record, "prediction");
  const reference = requireString(record, "reference");
  const expected = {
    expected: requireField(record, "expected"),
    normalized_prediction: requireField(record, "normalized_prediction"),
    normalized_reference: requireField(record, "normalized_reference"),
  };
  let verdict: unknown;
  try {
    verdict = gradeAnswer(prediction, reference);
  } catch (error) {
    verdict = { error: (error as Error).message };
  }
  const actual = {
    expected: verdict,
    normalized_prediction: normalizeAnswer(prediction),
    normalized_reference: normalizeAnswer(reference),
  };
  return {
    mismatches: differences(expected, actual),
    tier: "core",
    input: `${summarize(prediction, 30)} vs ${summarize(reference, 30)}`,
  };
};

const checkMt19937: VectorChecker = (record) => {
  const seed = BigInt(requireString(record, "seed"));
  const words = requireField(record, "getrandbits32") as unknown[];
  const draws = requireField(record, "randrange") as Record<string, unknown[]>;
  const wordStream = new PythonRandom(seed);
  const drawStream = new PythonRandom(seed);
  const actualDraws: Record<string, number[]> = {};
  // One generator for the draws, bounds in ascending order, as the reference vectors were produced.
  for (const bound of Object.keys(draws).sort((a, b) => Number(a) - Number(b))) {
    actualDraws[bound] = draws[bound].map(() => drawStream.randrange(Number(bound)));
  }
  const actual = { getrandbits32: words.map(() => wordStream.getrandbits(32)), randrange: actualDraws };
  return {
    mismatches: differences({ getrandbits32: words, randrange: draws }, actual),
    tier: "core",
    input: `seed ${seed}`,
  };
};

const checkStats: VectorChecker = (record) => {
  const pairs = requireField(record, "pairs") as Pair[];
  const seed = BigInt(requireString(record, "seed"));
  const iterations = requireField(record, "iterations") as number;
  const alpha = requireField(record, "alpha") as number;
  const mcnemar = exactMcnemar(pairs);
  const bootstrap = pairedBootstrapDifference(pairs, { seed, iterations, alpha });
  const actual = {
    bootstrap: {
      lower: doubleToHex(bootstrap.lower),
      mean_difference: doubleToHex(bootstrap.mean_difference),
      upper: doubleToHex(bootstrap.upper),
    },
    mcnemar: { ...mcnemar, p_value: doubleToHex(mcnemar.p_value) },
  };
  const expected = { bootstrap: requireField(record, "bootstrap"), mcnemar: requireField(record, "mcnemar") };
  return {
    mismatches: differences(expected, actual),
    tier: "core",
    input: `${pairs.length} pairs, seed ${seed}, ${iterations} iterations, alpha ${alpha}`,
  };
};

const checkEvidence: VectorChecker = (record) => {
  const row = requireField(record, "row") as Record<string, unknown>;
  const expected = requireField(record, "expected");
  let actual: unknown;
  try {
    const content = renderEvidence(row);
    actual = { answer: answerText(row.answer ?? null), content, length: codePointLength(content) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    actual = { error: error.detail };
  }
  return {
    mismatches: differences(expected, actual),
    tier: "core",
    input: `question ${String(row.question_id)}`,
  };
};

const checkOffset: VectorChecker = (record) => {
  const namespace = requireString(record, "namespace");
  const caseId = requireString(record, "case_id");
  const bankSize = requireField(record, "bank_size") as number;
  const expected = requireField(record, "offset");
  const actual = distractorOffset(namespace, caseId, bankSize);
  return {
    mismatches: actual === expected ? [] : [{ field: "offset", expected, actual }],
    tier: "core",
    input: `${namespace}:${caseId} mod ${bankSize}`,
  };
};

const answerTemplate = parsePromptTemplate(EMBEDDED_ARTIFACTS["prompts/answer-v1.txt"]);

const checkPrompt: VectorChecker = (record) => {
  const facts = requireField(record, "facts") as [string, string][];
  const qa = requireField(record, "qa") as Record<string, unknown>;
  const question = requireString(record, "question");
  const questionDate = requireField(record, "question_date") as string | null;
  const settings = {
    model: qa.model as string,
    temperature: requireHexDouble(qa.temperature_bits, "qa.temperature_bits"),
    maxTokens: qa.max_tokens as number,
    stream: qa.stream as boolean,
  };
  const messages = renderMessages(answerTemplate, {
    question,
    questionDate,
    facts: facts.map(([id, content]) => ({ id, content })),
  });
  const expected = {
    fingerprint: requireString(record, "fingerprint"),
    messages: requireField(record, "messages"),
    payload_json: requireString(record, "payload_json"),
  };
  const actual = {
    fingerprint: requestFingerprint(settings, messages),
    messages: messages.map((message) => ({ content: message.content, role: message.role })),
    payload_json: fingerprintPayload(settings, messages),
  };
  return {
    mismatches: differences(expected, actual),
    tier: "core",
    input: `${facts.length} facts, ${summarize(question, 30)}`,
  };
};

const checkLibm: VectorChecker = (record) => {
  const fn = requireString(record, "fn");
  const x = requireHexDouble(requireField(record, "x"), "x");
  if (fn === "log1p") {
    const expected = requireString(record, "y");
    const actual = doubleToHex(log1p(x));
    return {
      mismatches: actual === expected ? [] : [{ field: "y", expected, actual }],
      tier: "core",
      input: `log1p(${doubleToHex(x)})`,
    };
  }
  if (fn === "pow") {
    const y = requireHexDouble(requireField(record, "y"), "y");
    const expected = requireString(record, "z");
    const actual = doubleToHex(pow(x, y));
    return {
      mismatches: actual === expected ? [] : [{ field: "z", expected, actual }],
      tier: "core",
      input: `pow(${doubleToHex(x)}, ${doubleToHex(y)})`,
    };
  }
  throw new VectorFormatError(`must be "log1p" or "pow"`, { field: "fn" });
};

/** Files whose inputs must keep Python's float/int distinction (a `2.0` answer renders as "2.0"). */
const PYTHON_FLOAT_FILES = new Set(["evidence.jsonl"]);

/** Every vector file this build knows, with its checker. */
export const VECTOR_CHECKERS: Readonly<Record<string, VectorChecker>> = {
  "eviction.jsonl": checkEviction("core"),
  "eviction-exotic.jsonl": checkEviction("exotic"),
  "datetime.jsonl": checkDatetime,
  "bounded-number.jsonl": checkBoundedNumber,
  "pyjson-floats.jsonl": checkPyjsonFloat,
  "pyjson-strings.jsonl": checkPyjsonString,
  "grader.jsonl": checkGrader,
  "mt19937.jsonl": checkMt19937,
  "stats.jsonl": checkStats,
  "evidence.jsonl": checkEvidence,
  "offsets.jsonl": checkOffset,
  "prompts.jsonl": checkPrompt,
  "libm.jsonl": checkLibm,
};

const HEX_DOUBLE = /^[0-9a-f]{16}$/;

/** The ulp distance when both sides are 16-hex-digit doubles, else undefined. */
function ulpsApart(mismatch: FieldMismatch): number | undefined {
  const { expected, actual } = mismatch;
  if (typeof expected !== "string" || typeof actual !== "string") return undefined;
  if (!HEX_DOUBLE.test(expected) || !HEX_DOUBLE.test(actual)) return undefined;
  return ulpDistance(hexToDouble(expected), hexToDouble(actual));
}

/**
 * Runs every line of one vector file's text through its checker. Every double is compared exactly unless
 * `tolerateUlps` is given, and then a line whose only differences are doubles at most that many ulps apart
 * passes as tolerated: counted, and each difference listed.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkVectorText } from "./conformance.ts";
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
  const tolerateUlps = options.tolerateUlps ?? 0;
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
    const line = lines[index];
    if (line.trim() === "") continue;
    const lineNumber = index + 1;
    let record: Record<string, unknown>;
    try {
      record = (PYTHON_FLOAT_FILES.has(file) ? parsePyJson(line) : JSON.parse(line)) as Record<
        string,
        unknown
      >;
    } catch (error) {
      throw new VectorFormatError(`line ${lineNumber}: not valid JSON`, { path: file, cause: error });
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      throw new VectorFormatError(`line ${lineNumber}: not a JSON object`, { path: file });
    }
    let verdict: LineVerdict;
    try {
      verdict = await checker(record);
    } catch (error) {
      if (error instanceof VectorFormatError) {
        throw new VectorFormatError(`line ${lineNumber}: ${error.field ?? ""}: ${error.detail}`, {
          path: file,
        });
      }
      throw error;
    }
    report.total++;
    if (verdict.mismatches.length === 0) {
      report.passed++;
      continue;
    }
    const where = { line: lineNumber, input: verdict.input, tier: verdict.tier };
    const distances = verdict.mismatches.map(ulpsApart);
    if (tolerateUlps > 0 && distances.every((ulps) => ulps !== undefined && ulps <= tolerateUlps)) {
      report.passed++;
      report.tolerated++;
      verdict.mismatches.forEach((mismatch, at) =>
        report.toleratedLines.push({ ...where, ...mismatch, ulps: distances[at]! })
      );
      continue;
    }
    if (verdict.tier === "core") report.coreFailures++;
    else report.exoticFailures++;
    if (report.mismatches.length < 3) report.mismatches.push({ ...where, ...verdict.mismatches[0] });
  }
  return report;
}

/** The largest vector file read (a guard against reading an unbounded file into memory). */
export const VECTOR_FILE_CAP_BYTES = 256 * 1024 * 1024;

/**
 * Reads a vector file of at most `capBytes` (reading one byte more tells a larger file); a larger or unreadable
 * file is an {@linkcode InputError} naming the path and the reason.
 *
 * @example
 * ```ts
 * import { rejects, strictEqual } from "node:assert/strict";
 * import { readVectorFile } from "./conformance.ts";
 * import { InputError } from "../base/errors.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "{}\n");
 * strictEqual((await readVectorFile(path)).length, 3);
 * await rejects(readVectorFile(path, 2), InputError); // over the cap
 * await Deno.remove(path);
 * ```
 */
export async function readVectorFile(path: string, capBytes = VECTOR_FILE_CAP_BYTES): Promise<Uint8Array> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path);
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (size <= capBytes) {
      const chunk = new Uint8Array(Math.min(1 << 20, capBytes + 1 - size));
      const read = await file.read(chunk);
      if (read === null) break;
      chunks.push(chunk.subarray(0, read));
      size += read;
    }
    if (size > capBytes) {
      const cap = capBytes % (1 << 20) === 0 ? `${capBytes / (1 << 20)} MiB` : `${capBytes}-byte`;
      throw new VectorFormatError(`larger than the ${cap} cap on a vector file`, { path });
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return bytes;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const reason = error instanceof Deno.errors.NotFound ? "not found" : (error as Error).message;
    throw new InputError(`cannot read vector file: ${reason}`, { path, cause: error });
  } finally {
    file?.close();
  }
}

/**
 * A vector file's bytes as text; a byte sequence that is not UTF-8 is a {@linkcode VectorFormatError} naming
 * the file and the line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { decodeVectorFile } from "./conformance.ts";
 * deepStrictEqual(decodeVectorFile("libm.jsonl", new TextEncoder().encode("{}\n")), "{}\n");
 * ```
 */
export function decodeVectorFile(file: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    let start = 0;
    for (let line = 1;; line++) {
      const end = bytes.indexOf(0x0a, start);
      const slice = bytes.subarray(start, end === -1 ? bytes.length : end);
      try {
        new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(slice);
      } catch {
        throw new VectorFormatError(`line ${line}: not valid UTF-8`, { path: file });
      }
      if (end === -1) throw new VectorFormatError(`not valid UTF-8`, { path: file });
      start = end + 1;
    }
  }
}

/** The names of the regular files in a directory, symlinks followed (a dangling one is an error naming it). */
async function listFiles(directory: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(directory)) {
      if (entry.isFile) names.push(entry.name);
      else if (entry.isSymlink) {
        const path = `${directory}/${entry.name}`;
        let target: Deno.FileInfo;
        try {
          target = await Deno.stat(path);
        } catch (error) {
          const reason = error instanceof Deno.errors.NotFound
            ? "a dangling symlink"
            : (error as Error).message;
          throw new InputError(`cannot read vector file: ${reason}`, { path, cause: error });
        }
        if (target.isFile) names.push(entry.name);
      }
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    const reason = error instanceof Deno.errors.NotFound ? "not found" : (error as Error).message;
    throw new InputError(`cannot read the vector directory: ${reason}`, { path: directory, cause: error });
  }
  return names.sort();
}

/**
 * Checks the known vector files in a directory. Every known file must be present and hold at least one line
 * (or, with `only`, exactly the files named), and the directory must hold a vector file at all; otherwise the
 * report fails and `problems` says why. Unknown files are listed as skipped, never passed; symlinks are
 * followed; each file is read up to a 256 MiB cap and must be UTF-8.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { runConformance } from "./conformance.ts";
 * const directory = await Deno.makeTempDir();
 * await Deno.writeTextFile(
 *   `${directory}/bounded-number.jsonl`,
 *   '{"expected": "3fe6666666666666", "input": 0.7}\n{"expected": "3fe0000000000000", "input": "nan"}\n',
 * );
 * const report = await runConformance(directory, { only: ["bounded-number.jsonl"] });
 * strictEqual(report.ok, true); // 0.7 is kept, "nan" falls back to 0.5
 * deepStrictEqual(report.problems, []);
 * strictEqual((await runConformance(directory)).ok, false); // every known file must be present
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function runConformance(
  directory: string,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const strict = options.strict ?? false;
  const tolerateUlps = options.tolerateUlps ?? 0;
  if (!Number.isInteger(tolerateUlps) || tolerateUlps < 0) {
    throw new InputError(`must be a whole number ≥ 0, got ${tolerateUlps}`, { field: "--tolerate-ulps" });
  }
  const known = Object.keys(VECTOR_CHECKERS);
  if (options.only !== undefined && options.only.length === 0) {
    throw new InputError(`names no vector file`, { field: "--only" });
  }
  for (const name of options.only ?? []) {
    if (!known.includes(name)) {
      throw new InputError(`not a known vector file: ${JSON.stringify(name)} (known: ${known.join(", ")})`, {
        field: "--only",
      });
    }
  }
  const expected = options.only === undefined ? known : [...new Set(options.only)];
  const present = await listFiles(directory);
  const files: FileReport[] = [];
  const problems: string[] = [];
  for (const name of present.filter((name) => expected.includes(name))) {
    const path = `${directory}/${name}`;
    const text = decodeVectorFile(name, await readVectorFile(path));
    const report = await checkVectorText(name, text, { tolerateUlps });
    if (report.total === 0) problems.push(`${name}: empty (no vector lines)`);
    files.push(report);
  }
  const missing = expected.filter((name) => !present.includes(name));
  for (const name of missing) problems.push(`${name}: missing from ${directory}`);
  if (!present.some((name) => known.includes(name))) problems.unshift(`${directory}: holds no vector file`);
  const ok = problems.length === 0 &&
    files.every((file) => file.coreFailures === 0 && (!strict || file.exoticFailures === 0));
  return {
    files,
    skipped: present.filter((name) => !known.includes(name)),
    notSelected: present.filter((name) => known.includes(name) && !expected.includes(name)),
    missing,
    problems,
    ok,
    strict,
    tolerateUlps,
  };
}

/**
 * The text report: one line per file, the problems, the tolerated differences (all of them), then the first
 * mismatches of each failing file.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { formatConformance, runConformance } from "./conformance.ts";
 * const directory = await Deno.makeTempDir();
 * await Deno.writeTextFile(
 *   `${directory}/bounded-number.jsonl`,
 *   '{"expected": "3fe6666666666666", "input": 0.7}\n{"expected": "3fe0000000000000", "input": "nan"}\n',
 * );
 * const text = formatConformance(await runConformance(directory, { only: ["bounded-number.jsonl"] }));
 * strictEqual(text.includes("bounded-number.jsonl"), true);
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export function formatConformance(report: ConformanceReport): string {
  const lines: string[] = [];
  for (const file of report.files) {
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
    lines.push(line);
  }
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
  const tolerated = report.files.reduce((sum, file) => sum + file.tolerated, 0);
  if (!report.ok) lines.push("conformance: FAILED");
  else if (tolerated > 0) {
    lines.push(
      `conformance: all checked files agree, ${tolerated} line${
        tolerated === 1 ? "" : "s"
      } only within --tolerate-ulps ${report.tolerateUlps}`,
    );
  } else lines.push("conformance: all checked files agree exactly");
  return lines.join("\n");
}
