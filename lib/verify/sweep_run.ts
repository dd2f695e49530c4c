/**
 * The `verify` checks for a `sweep` directory (`sweep.json`, `sweep.jsonl`): `sweep.json` names the protocol in
 * use; `sweep.jsonl` is the file whose SHA-256 `sweep.json` records; every row stands where the grid puts it and
 * the rows are their canonical serialisation byte for byte; `sweep.json` is re-derived from the rows byte for
 * byte (grid, groups, the published parameters' placement); and — with the prepared cases — every row's counts
 * are recomputed by running the sweep again. A missing or invalid file is a failed check; a file that is not valid
 * UTF-8, over its cap or not a regular file (an `UnreadableFileError`) and an OS failure are thrown.
 *
 * @module
 */

import {
  decodeUtf8,
  InputError,
  parseWith,
  type RunFiles,
  runFilesOf,
  sha256Hex,
  SWEEP_OUTPUT_CAP,
  UnreadableFileError,
} from "../base/mod.ts";
import { artifactHashes, type Contracts, type PreparedCase } from "../protocol/mod.ts";
import type { PyJson } from "../py/mod.ts";
import { parseJsonText } from "../py/mod.ts";
import {
  runSweep,
  SWEEP_RECORD_VERSION,
  sweepJsonlChunks,
  SweepRecordFields,
  sweepRecordOf,
  type SweepResult,
  sweepResultOf,
} from "../sweep/mod.ts";
import { type Check, firstByteDifference } from "./checks.ts";
import { figureDetail } from "./figures.ts";

/** The checks, what they prove, and the sweep rebuilt from its rows when they hold. */
export interface SweepVerification {
  checks: Check[];
  ok: boolean;
  /** What the passing checks prove, and what they leave unproved. */
  proved: string;
  /** The sweep as its rows give it, when every check holds. */
  result?: SweepResult;
  /** `sweep.json`'s text, when every check holds (what the report reads its head from). */
  files?: { record: string };
}

/** A file read for the checks: its bytes and text, or why not. */
interface Read {
  bytes?: Uint8Array;
  text?: string;
  problem?: string;
}

async function readFile(files: RunFiles, name: string): Promise<Read> {
  try {
    const bytes = await files.bytes(name, "sweep output", SWEEP_OUTPUT_CAP);
    return bytes === undefined
      ? { problem: "missing" }
      : { bytes, text: decodeUtf8(bytes, files.path(name)) };
  } catch (error) {
    // Invalid UTF-8, a file over its cap or not a regular file is refused (thrown), as every text read refuses it.
    if (error instanceof InputError && !(error instanceof UnreadableFileError)) {
      return { problem: error.message };
    }
    throw error;
  }
}

/** The check names, in order. */
export const SWEEP_CHECKS = {
  record:
    "sweep.json: the fields that rebuild the sweep (grid, groups, published parameters, protocol capacities, SHA-256 of sweep.jsonl)",
  hash: "sweep.jsonl: its SHA-256 is the one sweep.json records",
  rows:
    "sweep.jsonl: every row stands where sweep.json's grid puts it (parameter set, capacity, scenario, cases), confidence's count the same at every parameter set",
  canonical: "sweep.jsonl: byte for byte the canonical serialisation of its rows",
  derived:
    "sweep.json: re-derived from the rows byte for byte (grid, groups, the published parameters' placement)",
  protocol: "sweep.json: protocol id, artifact hashes and dataset pin of the protocol in use",
  recomputed:
    "sweep.jsonl: every row's counts recomputed from the dataset (the sweep run again over its grid)",
} as const;

/**
 * Runs every check on a sweep directory. `cases` (prepared from the pinned dataset) enables the recomputation of
 * every row.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/demo.ts";
 * import { parseGrid, runSweep, sweepJsonl, sweepJsonlSha256, sweepRecord } from "../sweep/mod.ts";
 * import { verifySweep } from "./sweep_run.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol()), { contracts } = prepared;
 * const result = runSweep(prepared, parseGrid("weights_step: 0.5\ncapacities: [7]\n", "g.yaml", contracts.config));
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/sweep.jsonl`, sweepJsonl(result));
 * await Deno.writeTextFile(`${dir}/sweep.json`, sweepRecord(result, contracts, prepared.dataset.sha256, "t", await sweepJsonlSha256(result)));
 * const { checks } = await verifySweep(dir, contracts, prepared.cases); // every row recomputed
 * deepStrictEqual(checks.map((check) => check.verdict), Array(7).fill("pass")); // five offline, two with the cases
 * ```
 */
export async function verifySweep(
  directory: string | RunFiles,
  contracts: Contracts,
  cases?: readonly PreparedCase[],
): Promise<SweepVerification> {
  const files = runFilesOf(directory);
  const checks: Check[] = [];
  const pass = (name: string) => checks.push({ name, verdict: "pass" });
  const fail = (name: string, detail: string) => checks.push({ name, verdict: "fail", detail });
  const recordPath = files.path("sweep.json");
  const rowsPath = files.path("sweep.jsonl");
  const recordFile = await readFile(files, "sweep.json");
  const rowsFile = await readFile(files, "sweep.jsonl");
  const read = checkRecord(recordFile, recordPath, pass, fail);
  const record = read?.record;
  await checkHash(record, rowsFile, pass, fail);
  let result: SweepResult | undefined;
  if (record === undefined || rowsFile.text === undefined) {
    fail(SWEEP_CHECKS.rows, rowsFile.problem ?? "not checked: sweep.json is not readable");
  } else {
    try {
      result = sweepResultOf(record, rowsFile.text, rowsPath);
      pass(SWEEP_CHECKS.rows);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      fail(SWEEP_CHECKS.rows, error.message);
    }
  }
  checkRederived(result, read, recordFile, rowsFile, pass, fail);
  if (cases !== undefined) {
    const differing = checkProtocol(read, contracts);
    if (differing === undefined) fail(SWEEP_CHECKS.protocol, "not checked: sweep.json is not readable");
    else if (differing.length > 0) fail(SWEEP_CHECKS.protocol, `differ: ${differing.join(", ")}`);
    else pass(SWEEP_CHECKS.protocol);
    if (result === undefined || differing === undefined || differing.length > 0) {
      fail(SWEEP_CHECKS.recomputed, "not checked: the checks above fail");
    } else {
      const problem = recomputedProblem(result, runSweep({ contracts, cases }, result.grid));
      if (problem === undefined) pass(SWEEP_CHECKS.recomputed);
      else fail(SWEEP_CHECKS.recomputed, `${rowsPath}: ${problem}`);
    }
  }
  const ok = checks.every((check) => check.verdict !== "fail");
  const proved = cases === undefined
    ? "sweep.jsonl is the file sweep.json records, its rows stand where the grid puts them and re-derive sweep.json; each row's counts, and the protocol sweep.json names, need --dataset to be checked"
    : "every row of sweep.jsonl recomputed from the pinned dataset under the protocol sweep.json names; sweep.json re-derived from the rows and records their SHA-256";
  if (!ok) return { checks, ok, proved };
  return { checks, ok, proved, result, files: { record: recordFile.text! } };
}

type Verdict = (name: string, detail: string) => void;

/** `sweep.json` parsed: its fields, and the raw blocks re-derivation copies as written. */
interface RecordRead {
  record: SweepRecordFields;
  raw: Record<string, unknown>;
}

function checkRecord(
  file: Read,
  path: string,
  pass: (name: string) => void,
  fail: Verdict,
): RecordRead | undefined {
  if (file.text === undefined) return void fail(SWEEP_CHECKS.record, file.problem!);
  let raw: Record<string, unknown>;
  try {
    raw = parseJsonText(file.text, path) as Record<string, unknown>;
  } catch (error) {
    return void fail(SWEEP_CHECKS.record, (error as Error).message);
  }
  if (raw === null || typeof raw !== "object" || raw.schema_version !== SWEEP_RECORD_VERSION) {
    const version = JSON.stringify((raw as Record<string, unknown> | null)?.schema_version);
    return void fail(
      SWEEP_CHECKS.record,
      `${path}: schema_version ${version}, expected ${SWEEP_RECORD_VERSION} (an earlier version's sweep records no SHA-256 of its rows): run sweep again`,
    );
  }
  try {
    const record = parseWith(SweepRecordFields, raw, path, { error: InputError });
    pass(SWEEP_CHECKS.record);
    return { record, raw };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return void fail(SWEEP_CHECKS.record, error.message);
  }
}

/** With the dataset: the protocol sweep.json names is the one in use (its rows are recomputed under it). */
function checkProtocol(read: RecordRead | undefined, contracts: Contracts): string[] | undefined {
  if (read === undefined) return undefined;
  const differing: string[] = [];
  if (read.record.protocol_id !== contracts.config.protocol_id) differing.push("protocol_id");
  const artifacts = (read.raw.artifacts ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(artifactHashes(contracts))) {
    if (artifacts[key] !== value) differing.push(`artifacts.${key}`);
  }
  if (read.record.dataset.sha256 !== contracts.config.dataset.sha256) differing.push("dataset.sha256");
  return differing;
}

async function checkHash(
  record: SweepRecordFields | undefined,
  rows: Read,
  pass: (name: string) => void,
  fail: Verdict,
): Promise<void> {
  if (rows.bytes === undefined) return fail(SWEEP_CHECKS.hash, rows.problem!);
  if (record === undefined) return fail(SWEEP_CHECKS.hash, "not checked: sweep.json is not readable");
  const recorded = record.sweep_jsonl_sha256;
  if (recorded === undefined) {
    return fail(
      SWEEP_CHECKS.hash,
      "sweep.json records none (written by an earlier version): run sweep again",
    );
  }
  const actual = await sha256Hex(rows.bytes);
  if (actual === recorded) return pass(SWEEP_CHECKS.hash);
  fail(
    SWEEP_CHECKS.hash,
    `the file's is ${actual}, sweep.json records ${recorded}: the rows changed after sweep wrote them (with --dataset every row is recomputed and a changed one named)`,
  );
}

function checkRederived(
  result: SweepResult | undefined,
  read: RecordRead | undefined,
  recordFile: Read,
  rowsFile: Read,
  pass: (name: string) => void,
  fail: Verdict,
): void {
  if (result === undefined || read === undefined) {
    fail(SWEEP_CHECKS.canonical, "not checked: the rows fail the checks above");
    fail(SWEEP_CHECKS.derived, "not derived: the rows fail the checks above");
    return;
  }
  const line = canonicalLineDifference(rowsFile.bytes!, result);
  if (line === undefined) pass(SWEEP_CHECKS.canonical);
  else {
    fail(
      SWEEP_CHECKS.canonical,
      `line ${line} is not in canonical form (sorted keys, Python spacing and number forms)`,
    );
  }
  // The protocol's blocks as the file holds them; everything else follows from the rows.
  const { record, raw } = read;
  const derived = sweepRecordOf(
    result,
    {
      artifacts: raw.artifacts as PyJson,
      dataset: raw.dataset as PyJson,
      evaluationTime: record.evaluation_time,
      protocolId: record.protocol_id,
      protocolCapacities: record.placement.protocol_capacities,
    },
    record.tool,
    record.sweep_jsonl_sha256,
  );
  const difference = figureDetail(recordFile.bytes!, derived);
  if (difference === undefined) pass(SWEEP_CHECKS.derived);
  else fail(SWEEP_CHECKS.derived, difference);
}

/** The first line (1-based) where the file departs from the rows' canonical serialisation, compared a chunk at a time. */
function canonicalLineDifference(bytes: Uint8Array, result: SweepResult): number | undefined {
  const encoder = new TextEncoder();
  let offset = 0;
  let at: number | undefined;
  for (const chunk of sweepJsonlChunks(result)) {
    const expected = encoder.encode(chunk);
    const difference = firstByteDifference(bytes.subarray(offset, offset + expected.length), expected);
    if (difference !== undefined) {
      at = offset + difference;
      break;
    }
    offset += expected.length;
  }
  if (at === undefined && offset !== bytes.length) at = offset;
  if (at === undefined) return undefined;
  let line = 1;
  for (let index = 0; index < at; index++) if (bytes[index] === 0x0a) line++;
  return line;
}

/** The first row whose recomputed counts differ from the file's, named by line, or `undefined`. */
function recomputedProblem(file: SweepResult, again: SweepResult): string | undefined {
  const groups = file.groups.length;
  const capacities = file.grid.capacities.length;
  for (let index = 0; index < file.hybrid.length; index++) {
    const confidenceAt = Math.floor(index / groups) % capacities * groups + index % groups;
    const hybrid = [file.hybrid[index], again.hybrid[index]];
    const confidence = [file.confidence[confidenceAt], again.confidence[confidenceAt]];
    if (hybrid[0] === hybrid[1] && confidence[0] === confidence[1]) continue;
    const field = hybrid[0] !== hybrid[1] ? "hybrid_v1_retained" : "confidence_retained";
    const [mine, theirs] = hybrid[0] !== hybrid[1] ? hybrid : confidence;
    return `line ${index + 1}: ${field}: file ${mine}, recomputed ${theirs}`;
  }
  return undefined;
}
