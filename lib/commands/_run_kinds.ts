/**
 * The run-kind registry: every kind of run this program reads, each declaring how a directory is recognised
 * as it, how it is verified, explained and reported. Commands ask {@linkcode recogniseRun}; nothing else
 * sniffs a directory's files. A run this program writes records its kind in `run_kind.json`; a directory the
 * reference made has no record and is recognised by its files.
 *
 * @module
 */

import { exists, InputError, type RunFiles, runFilesOf } from "../base/mod.ts";
import { EPOCHS_FILE } from "../qa/mod.ts";
import { jsonObjectOf } from "../py/mod.ts";
import { recordedCandidate, recordedPolicyModule } from "../verify/mod.ts";
import { verifyPolicyKind, verifyQaKind, type VerifyRun, verifySweepKind } from "./_verify_kinds.ts";
import { runDirectories } from "./_epochs.ts";

/** The file a run this program writes records its kind in. */
export const RUN_KIND_FILE = "run_kind.json";

/** The name of each kind of run, as `run_kind.json` records it. */
export type RunKindName =
  | "policy"
  | "module-policy"
  | "qa"
  | "candidate-qa"
  | "partial"
  | "epochs"
  | "sweep"
  | "demo"
  | "published";

/** The model a kind is read into: its checks and its report are those of a QA run, a policy run or a sweep. */
export type RunShape = "qa" | "policy" | "sweep";

/** One kind of run and what the commands do with it. */
export interface RunKind {
  readonly name: RunKindName;
  /** How the kind is named to a person. */
  readonly label: string;
  /** The model it is read into (once, through `RunFiles`): its checks and its report. */
  readonly shape: RunShape;
  /** The files that mark it in a directory without `run_kind.json`. */
  readonly marks: readonly string[];
  /** Whether the directory's files (without a record) hold this kind; tried in registry order. */
  readonly recognise: (files: RunFiles) => Promise<boolean>;
  /** Whether `recognise` reads a file's content (a record the run holds), not only which files there are. */
  readonly reads: boolean;
  /** Whether `run_kind.json` may name it (the published run has no directory; a K-run's records its run 1's). */
  readonly record: boolean;
  /** Its run directories, run 1 (the directory itself) first: K for a K-run directory, else one. */
  readonly runs: (files: RunFiles) => Promise<string[]>;
  /** `verify`'s checks and lines for it. */
  readonly verify: VerifyRun;
  /** Where a `--policy-module` is held to the run: its `run.json` (a policy run) or its QA marker. */
  readonly module: "run.json" | "qa_run.json" | undefined;
  /** Whether its checks re-derive answers (and so need the tasks), or only the cases' decisions. */
  readonly answers: boolean;
  /** What `explain --output-dir` reads of it: a QA run's answers, or nothing (refused in one line). */
  readonly explain: "answers" | "refused";
  /** What `report` renders: one run's report, a sweep's, or a partial run's with its notice. */
  readonly report: "run" | "sweep" | "partial";
}

const POLICY_MARKS = ["policy.raw.jsonl", "summary.json", "run.json"] as const;
const QA_MARKS = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"] as const;

const has = (files: RunFiles, name: string) => exists(files.path(name));
const oneRun = (files: RunFiles) => Promise.resolve([files.directory]);
const policyFiles = async (files: RunFiles) =>
  await has(files, "policy.raw.jsonl") && !await has(files, "qa.rows.jsonl");
const qaFiles = async (files: RunFiles) =>
  await has(files, "qa.rows.jsonl") || await has(files, "qa_run.json");

/**
 * Every kind, in the order a directory without a record is tried: the first that recognises it is its kind.
 * The published run is the one embedded in this program, named by no directory.
 */
export const RUN_KINDS: readonly RunKind[] = [
  {
    name: "sweep",
    label: "a sweep",
    shape: "sweep",
    marks: ["sweep.jsonl", "sweep.json"],
    recognise: async (files) =>
      await has(files, "sweep.jsonl") && !await has(files, "qa.rows.jsonl") &&
      !await has(files, "policy.raw.jsonl"),
    reads: false,
    record: true,
    runs: oneRun,
    verify: verifySweepKind,
    // Read as a QA directory, whose checks name what a sweep lacks.
    module: undefined,
    answers: false,
    explain: "answers",
    report: "sweep",
  },
  {
    name: "module-policy",
    label: "a policy run of a module",
    shape: "policy",
    marks: POLICY_MARKS,
    recognise: async (files) => await policyFiles(files) && await recordedPolicyModule(files) !== undefined,
    reads: true,
    record: true,
    runs: oneRun,
    verify: verifyPolicyKind,
    module: "run.json",
    answers: false,
    explain: "refused",
    report: "run",
  },
  {
    name: "policy",
    label: "a policy run",
    shape: "policy",
    marks: POLICY_MARKS,
    recognise: policyFiles,
    reads: false,
    record: true,
    runs: oneRun,
    verify: verifyPolicyKind,
    module: "run.json",
    answers: false,
    explain: "refused",
    report: "run",
  },
  {
    name: "epochs",
    label: "a K-run directory",
    shape: "qa",
    marks: [EPOCHS_FILE, ...QA_MARKS],
    // Run 1 is the directory itself and records its own kind; `epochs.json` records K (run-qa --epochs K).
    recognise: async (files) => await has(files, EPOCHS_FILE) && await qaFiles(files),
    reads: false,
    record: false,
    runs: runDirectories,
    verify: verifyQaKind,
    module: "qa_run.json",
    answers: true,
    explain: "answers",
    report: "run",
  },
  {
    name: "partial",
    label: "a partial run",
    shape: "qa",
    marks: ["partial/partial.json"],
    // A run with no full outputs and a grading in `partial/`, or that folder itself (read when verified).
    recognise: async (files) =>
      await has(files, "partial.json") ||
      !await has(files, "qa.rows.jsonl") && await has(files, "partial/partial.json"),
    reads: false,
    record: true,
    runs: oneRun,
    verify: verifyQaKind,
    module: "qa_run.json",
    answers: true,
    explain: "answers",
    report: "partial",
  },
  {
    name: "demo",
    label: "a demo directory",
    shape: "qa",
    marks: [...QA_MARKS, "protocol/", "policy/"],
    recognise: async (files) =>
      await qaFiles(files) && await has(files, "protocol/configs") &&
      await has(files, "policy/policy.raw.jsonl"),
    reads: false,
    record: true,
    runs: oneRun,
    verify: verifyQaKind,
    module: "qa_run.json",
    answers: true,
    explain: "answers",
    report: "run",
  },
  {
    name: "candidate-qa",
    label: "a candidate QA run",
    shape: "qa",
    marks: QA_MARKS,
    recognise: async (files) => await qaFiles(files) && await recordedCandidate(files) !== undefined,
    reads: true,
    record: true,
    runs: oneRun,
    verify: verifyQaKind,
    module: "qa_run.json",
    answers: true,
    explain: "answers",
    report: "run",
  },
  {
    name: "qa",
    label: "a QA run",
    shape: "qa",
    marks: QA_MARKS,
    recognise: qaFiles,
    reads: false,
    record: true,
    runs: oneRun,
    verify: verifyQaKind,
    module: "qa_run.json",
    answers: true,
    explain: "answers",
    report: "run",
  },
  {
    name: "published",
    label: "the published run",
    shape: "qa",
    marks: [],
    recognise: () => Promise.resolve(false),
    reads: false,
    record: false,
    runs: oneRun,
    verify: verifyQaKind,
    module: "qa_run.json",
    answers: true,
    explain: "answers",
    report: "run",
  },
];

/** The registry's entry named `name`. */
export function runKindNamed(name: RunKindName): RunKind {
  return RUN_KINDS.find((kind) => kind.name === name)!;
}

/**
 * The kind of run `directory` holds: the published run for none; the kind its `run_kind.json` records (K runs
 * or a partial grading refine a QA record); else the first entry that recognises its files. `undefined` for
 * anything that is not a directory, or a directory that holds no run (each command says so in its words).
 * With `look` `"list"`, no file of the run is read but the record: a kind told apart only by what a file
 * says (a module's policy run, a candidate QA run) is given as its plain kind, whose shape is the same.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { recogniseRun } from "./_run_kinds.ts";
 * const dir = await Deno.makeTempDir();
 * strictEqual(await recogniseRun(dir), undefined);
 * await Deno.writeTextFile(`${dir}/policy.raw.jsonl`, "");
 * strictEqual((await recogniseRun(dir))?.name, "policy");
 * strictEqual((await recogniseRun(undefined))?.name, "published");
 * ```
 */
export async function recogniseRun(
  directory: string | RunFiles | undefined,
  look: "read" | "list" = "read",
): Promise<RunKind | undefined> {
  if (directory === undefined) return runKindNamed("published");
  const files = runFilesOf(directory);
  const info = await Deno.stat(files.directory).catch(() => undefined);
  if (info?.isDirectory !== true) return undefined;
  const recorded = await recordedKind(files);
  if (recorded !== undefined) return await refined(recorded, files);
  for (const kind of RUN_KINDS) {
    if ((look === "read" || !kind.reads) && await kind.recognise(files)) return kind;
  }
  return undefined;
}

/** The kinds a QA run's record is refined into by what its directory holds besides, in this order. */
const REFINEMENTS: readonly RunKindName[] = ["epochs", "partial"];

/** A QA record refined by the directory: K runs (`epochs.json`), or a partial grading of its one run. */
async function refined(recorded: RunKind, files: RunFiles): Promise<RunKind> {
  if (recorded.shape !== "qa") return recorded;
  for (const name of REFINEMENTS) {
    const kind = runKindNamed(name);
    if (await kind.recognise(files)) return kind;
  }
  return recorded;
}

/** The record a run this program writes holds: `run_kind.json`'s text. */
export function runKindRecord(name: RunKindName): string {
  return `${JSON.stringify({ kind: name })}\n`;
}

/** The kind `run_kind.json` records, held to the directory's files; none without the file. */
async function recordedKind(files: RunFiles): Promise<RunKind | undefined> {
  const text = await files.text(RUN_KIND_FILE, "run kind record");
  if (text === undefined) return undefined;
  const where = { path: files.path(RUN_KIND_FILE), field: "kind" };
  const name = jsonObjectOf(text)?.kind;
  const kind = RUN_KINDS.find((entry) => entry.name === name && entry.record);
  if (kind === undefined) {
    const known = RUN_KINDS.filter((entry) => entry.record).map((entry) => entry.name);
    throw new InputError(`expected one of ${known.join(", ")}, got ${JSON.stringify(name ?? null)}`, where);
  }
  const marked = kind.marks.filter((mark) => !mark.endsWith("/"))[0];
  if (marked !== undefined && kind.name !== "partial" && !await recognisedAs(kind, files)) {
    throw new InputError(`records ${kind.name}, but the directory holds no ${marked}`, where);
  }
  return kind;
}

/** Whether the directory's files fit `kind`'s shape (a module or candidate record is the run's own). */
async function recognisedAs(kind: RunKind, files: RunFiles): Promise<boolean> {
  return kind.shape === "policy"
    ? await policyFiles(files)
    : kind.shape === "sweep"
    ? await runKindNamed("sweep").recognise(files)
    : await qaFiles(files);
}
