/**
 * Stage 3, `run-policy`: evaluates both published policies (or a policy module's) on every case at every
 * capacity and writes the 270 metadata-only rows, the summary and the run record, all together or not at all.
 *
 * @module
 */

import { ensureDir, InputError, type PublishOptions, writeAllOrNothing } from "../base/mod.ts";
import {
  evaluateAll,
  evaluatePolicy,
  POLICIES,
  POLICY_MEMORY_BOUND,
  policyRawJsonl,
  type PolicyResult,
  policySummary,
  retentionTable,
  runRecord,
} from "../policy/mod.ts";
import type { PreparedProtocol, SourceState } from "../protocol/mod.ts";
import { defineCommand, publishOptions } from "./_command.ts";
import { RUN_KIND_FILE, runKindRecord } from "./_run_kinds.ts";
import { type CustomPolicyRun, customPolicyRun } from "./_policy_module.ts";
import { refuseExistingOutputs } from "./_outputs.ts";
import {
  DATASET_FLAG,
  POLICY_TIME_LIMIT_FLAG,
  policyTimeLimit,
  PROTOCOL_FLAGS,
  requiredDirectory,
  wroteLine,
} from "./_flags.ts";
import { protocolArgs } from "./_protocol_source.ts";
import { loadProtocol } from "./_protocol.ts";
import { SOURCE_STATE } from "./_version.ts";

/** The three files `run-policy` writes. */
export const POLICY_OUTPUTS = ["policy.raw.jsonl", "summary.json", "run.json"] as const;

/**
 * Stage 3: evaluates every case and writes `policy.raw.jsonl`, `summary.json` and `run.json` into
 * `outputDir`, refusing if any of them exists. The three appear together or not at all. With `custom`, its
 * policy is run (checked case by case) beside the two published ones: their rows first, byte for byte a plain
 * run's, then the module's in the same case × capacity order.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "../protocol/mod.ts";
 * import { POLICY_OUTPUTS, runPolicy } from "./run_policy.ts";
 * const prepared = await prepareDemoProtocol(await buildDemoProtocol());
 * const dir = await Deno.makeTempDir();
 * const results = await runPolicy(prepared, dir, new Date(0), { dirty: null, head: null });
 * strictEqual(results.length, 45 * 3 * 2); // cases × capacities × policies
 * deepStrictEqual([...Deno.readDirSync(dir)].map((entry) => entry.name).sort(), [...POLICY_OUTPUTS, "run_kind.json"].sort());
 * ```
 */
export async function runPolicy(
  prepared: PreparedProtocol,
  outputDir: string,
  createdAt: Date,
  source: SourceState,
  custom?: CustomPolicyRun,
  publish: PublishOptions = {},
): Promise<PolicyResult[]> {
  const { contracts, dataset, cases } = prepared;
  const published = evaluateAll(cases, contracts.config);
  const results = custom === undefined ? published : [
    ...published,
    ...await evaluatePolicy(custom.policy, prepared, { origin: custom.origin, rowFields: custom.fields }),
  ];
  const files: Record<(typeof POLICY_OUTPUTS)[number] | typeof RUN_KIND_FILE, string> = {
    "policy.raw.jsonl": policyRawJsonl(results),
    "summary.json": policySummary(results, contracts.config.protocol_id, custom?.record),
    "run.json": runRecord(contracts, dataset.sha256, createdAt, source, custom?.record),
    [RUN_KIND_FILE]: runKindRecord(custom === undefined ? "policy" : "module-policy"),
  };
  await ensureDir(outputDir, publish);
  await writeAllOrNothing(outputDir, files, publish);
  return results;
}

/** The `run-policy` command. */
export const command = defineCommand({
  name: "run-policy",
  summary: "run both policies at every capacity: 270 metadata-only rows, a summary and a run record",
  description:
    `Validates as \`validate\` does, then runs both policies at every capacity with no model and writes into DIR:
  policy.raw.jsonl  one metadata-only row per case × capacity × policy (IDs, scores; never content)
  summary.json      support retention by source, scenario, capacity and policy
  run.json          dataset identity, artifact hashes, evaluation clock, policies, capacities
Refuses a DIR that already holds any of them; the three appear together or not at all. No network.
With --policy-module, the module's default export (a policy: { name, select }, see the README) runs beside
the two published policies, under the same cases, capacities and row format: their rows first (byte for byte
a plain run's), then the module's, each also carrying policy_module (the file name) and policy_module_sha256
(of its source); summary.json and run.json record the module (policy_module: file, name, sha256). The module
(one self-contained file; only type imports) runs in a child deno with no permission at all,
${POLICY_MEMORY_BOUND} of memory and --policy-time-limit per case; it needs Linux and
--allow-run=/usr/bin/prlimit. A module that throws, returns unknown ids, keeps more than the capacity, decides a
case differently when asked twice or exceeds a limit is refused, naming the module and the case.`,
  flags: {
    ...DATASET_FLAG,
    "output-dir": { type: "string", value: "DIR", help: "where to write", required: true },
    "policy-module": {
      type: "string",
      value: "FILE.ts",
      help: "a policy module to judge instead of the published policies",
    },
    ...POLICY_TIME_LIMIT_FLAG,
    ...PROTOCOL_FLAGS,
  },
  async run({ flags, io, seams }) {
    const directory = requiredDirectory(flags["output-dir"]);
    const module = flags["policy-module"];
    const timeLimitSeconds = policyTimeLimit(flags);
    if (module === undefined && flags["policy-time-limit"] !== undefined) {
      throw new InputError("--policy-time-limit is for --policy-module");
    }
    // An existing output refuses the run before anything is read (the publish refuses again if one appears).
    await refuseExistingOutputs(directory, [...POLICY_OUTPUTS, RUN_KIND_FILE], publishOptions(io, seams));
    const { prepared } = await loadProtocol(...await protocolArgs(flags, io));
    const custom = module === undefined ? undefined : await customPolicyRun(module, { timeLimitSeconds });
    const results = await runPolicy(
      prepared,
      directory,
      new Date(),
      SOURCE_STATE,
      custom,
      publishOptions(io, seams),
    );
    io.out(retentionTable(results, custom && [...POLICIES, custom.policy.name]));
    io.out(wroteLine(directory, POLICY_OUTPUTS));
  },
});
