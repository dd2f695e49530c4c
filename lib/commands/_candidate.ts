/**
 * A candidate policy in the QA stages: the `--policy-module` and `--baseline` flags, the module loaded only
 * through `customPolicyRun` (as run-policy loads it) and its decisions at the QA capacity through the policy
 * layer's evaluation, so the QA stages never call a policy themselves.
 *
 * @module
 */

import { InputError, type RunFiles, runFilesOf } from "../base/mod.ts";
import { recordedCandidate, recordedPolicyModule } from "../verify/mod.ts";
import { checkCandidateName, evaluatePolicy, type PolicyResult } from "../policy/mod.ts";
import type { Contracts, PreparedProtocol } from "../protocol/mod.ts";
import {
  type ExpectedCandidate,
  MARKER_FILE,
  type QaCandidate,
  readMarker,
  type RunCandidate,
} from "../qa/mod.ts";
import { POLICY_TIME_LIMIT_FLAG, policyTimeLimit } from "./_flags.ts";
import type { FlagValues } from "./_command.ts";
import { type CustomPolicyRun, customPolicyRun } from "./_policy_module.ts";
import { recogniseRun } from "./_run_kinds.ts";

/** `--policy-module FILE`, shared by run-qa, grade-qa, verify, report and explain. */
export const POLICY_MODULE_FLAG = {
  "policy-module": {
    type: "string",
    value: "FILE.ts",
    help: "a candidate policy module: the run compares it with its baseline (as run-qa made it)",
  },
  ...POLICY_TIME_LIMIT_FLAG,
} as const;

/** A `--policy-module` and the time it has per case (`--policy-time-limit`). */
export interface ModuleRequest {
  path: string;
  timeLimitSeconds: number;
}

/** The module flags as given: none without `--policy-module` (a `--policy-time-limit` alone is refused). */
export function moduleRequest(flags: FlagValues<typeof POLICY_MODULE_FLAG>): ModuleRequest | undefined {
  const path = flags["policy-module"];
  const timeLimitSeconds = policyTimeLimit(flags);
  if (path === undefined && flags["policy-time-limit"] !== undefined) {
    throw new InputError("--policy-time-limit is for --policy-module");
  }
  return path === undefined ? undefined : { path, timeLimitSeconds };
}

/** A loaded candidate module and what identifies it. */
export interface LoadedCandidate {
  custom: CustomPolicyRun;
  identity: ExpectedCandidate;
}

/** Loads a `--policy-module` (hashing its bytes) and refuses a name unfit for the QA rows. */
export async function loadCandidate(request: ModuleRequest): Promise<LoadedCandidate> {
  const { path, timeLimitSeconds } = request;
  const custom = await customPolicyRun(path, { timeLimitSeconds });
  const name = custom.policy.name;
  checkCandidateName(name, path);
  return {
    custom,
    identity: {
      policy: name,
      policy_module: String(custom.fields.policy_module),
      policy_module_sha256: String(custom.fields.policy_module_sha256),
    },
  };
}

/** The candidate's decisions on every case at the QA capacity, checked as run-policy checks them. */
export async function candidateDecisions(
  loaded: LoadedCandidate,
  baseline: RunCandidate["baseline"],
  prepared: PreparedProtocol,
): Promise<QaCandidate> {
  const { config } = prepared.contracts;
  // Only the QA capacity is asked: the same cases, clock and checks as run-policy, one capacity.
  const atQa = { ...config, pool: { ...config.pool, capacities: [config.pool.qa_capacity] } };
  const results = await evaluatePolicy(loaded.custom.policy, {
    contracts: { config: atQa },
    cases: prepared.cases,
  }, {
    origin: loaded.custom.origin,
    rowFields: loaded.custom.fields,
  });
  return { ...loaded.identity, baseline, results };
}

/** The candidate's results on one case at every capacity, checked as run-policy checks them. */
export async function candidateOnCase(
  loaded: LoadedCandidate,
  prepared: PreparedProtocol,
  caseId: string,
): Promise<PolicyResult[]> {
  const cases = prepared.cases.filter((item) => item.caseId === caseId);
  return await evaluatePolicy(loaded.custom.policy, { contracts: prepared.contracts, cases }, {
    origin: loaded.custom.origin,
    rowFields: loaded.custom.fields,
  });
}

/** Refuses `--policy-module` where no run directory is named: the published run compares the published pair. */
export function refuseModuleWithoutRun(module: string | undefined): void {
  if (module === undefined) return;
  throw new InputError(
    "the published run compares the published policies: --policy-module needs the directory of a run made " +
      "with it",
  );
}

/** A loaded candidate module and the baseline it is compared with. */
export interface StageCandidate {
  loaded: LoadedCandidate;
  baseline: RunCandidate["baseline"];
}

/** The preamble's hooks for a stage that reads a run: the module loaded, held to the run, its baseline read. */
export interface CandidateHooks {
  /** Loads the module and holds it to the run's marker (its SHA-256), before the dataset is read. */
  beforeDataset: (contracts: Contracts) => Promise<void>;
  /** The loaded candidate and the run's baseline, once `beforeDataset` has run (none without a module). */
  candidate: () => StageCandidate | undefined;
  /** The candidate as the run records it (none without a module). */
  recorded: () => RunCandidate | undefined;
  /** The module of a run-policy directory made with it (none without a module, or for a QA run). */
  policyRun: () => CustomPolicyRun | undefined;
}

/**
 * The hooks that load `--policy-module` and hold it to the run in `directory`: a run made with another module
 * (by SHA-256), or with none, is refused in one line; the baseline is the one its `qa_run.json` records. A
 * run-policy directory is held to its `run.json` instead.
 */
export function runCandidateHooks(
  module: ModuleRequest | undefined,
  directory: string | RunFiles | undefined,
): CandidateHooks {
  let stage: StageCandidate | undefined;
  let policyRun: CustomPolicyRun | undefined;
  return {
    beforeDataset: async (contracts) => {
      if (module === undefined) return;
      if (directory === undefined) return refuseModuleWithoutRun(module.path);
      if ((await recogniseRun(directory, "list"))?.module === "run.json") {
        policyRun = await policyRunModule(module, directory);
        return;
      }
      // The marker as the run's own checks read it: the held bytes, when the stage holds them.
      const loaded = await loadCandidate(module);
      const marker = await readMarker(directory, contracts, loaded.identity);
      stage = { loaded, baseline: marker.candidate!.baseline };
    },
    candidate: () => stage,
    recorded: () => stage && { ...stage.loaded.identity, baseline: stage.baseline },
    policyRun: () => policyRun,
  };
}

/** Loads `--policy-module` for a run-policy directory and holds it to the module its `run.json` records. */
async function policyRunModule(
  request: ModuleRequest,
  directory: string | RunFiles,
): Promise<CustomPolicyRun> {
  const recorded = await recordedPolicyModule(directory);
  const where = { path: runFilesOf(directory).path("run.json"), field: "policy_module" };
  if (recorded === undefined) {
    throw new InputError(
      "the run records no policy module (run-policy made it without one): leave out --policy-module",
      where,
    );
  }
  const custom = await customPolicyRun(request.path, { timeLimitSeconds: request.timeLimitSeconds });
  if (custom.record.sha256 !== recorded.sha256) {
    throw new InputError(
      `the run was made with ${recorded.file} (sha256 ${recorded.sha256}); --policy-module ${request.path} ` +
        `has sha256 ${custom.record.sha256}`,
      where,
    );
  }
  return custom;
}

/**
 * The dataset a run is re-derived on. A candidate QA run is re-derived only through its module: without
 * `--policy-module`, a dataset the user typed is refused in one line naming the module, and one found beside
 * the run's protocol (or in the environment) is set aside, the run checked as it records its two policies.
 */
export async function datasetForRun(
  directory: string | RunFiles | undefined,
  module: ModuleRequest | undefined,
  typed: string | undefined,
  dataset: string | undefined,
): Promise<string | undefined> {
  if (module !== undefined || directory === undefined || dataset === undefined) return dataset;
  const recorded = await recordedCandidate(directory);
  if (recorded === undefined) return dataset;
  if (typed === undefined) return undefined;
  throw new InputError(
    `the run was made with --policy-module ${recorded.policy_module} (sha256 ${recorded.policy_module_sha256}): ` +
      "pass that module to re-derive it from the dataset, or leave out --dataset",
    { path: runFilesOf(directory).path(MARKER_FILE), field: "candidate" },
  );
}

/** Refuses, in one line, a candidate QA run read without its module where the module's decisions are needed. */
export async function refuseCandidateWithoutModule(
  directory: string | undefined,
  module: ModuleRequest | undefined,
): Promise<void> {
  if (module !== undefined || directory === undefined) return;
  const recorded = await recordedCandidate(directory);
  if (recorded === undefined) return;
  throw new InputError(
    `the run was made with --policy-module ${recorded.policy_module} (sha256 ${recorded.policy_module_sha256}): ` +
      "pass that module",
    { path: `${directory}/${MARKER_FILE}`, field: "candidate" },
  );
}
