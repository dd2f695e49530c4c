/**
 * The flag sets several commands share, declared once, and the rules that read them: the protocol files, the
 * dataset (with its environment fallback), the output directory, report files.
 *
 * @module
 */

import { InputError, visible } from "../base/mod.ts";
import { SANDBOX_LIMITS } from "../policy/mod.ts";
import { type ContractPaths, DATASET_ENV } from "../protocol/mod.ts";
import type { FlagValues, Io } from "./_command.ts";

const PROTOCOL = "Protocol (embedded pr4789-reproduction-v1 unless given)";

/**
 * `--protocol DIR` (a protocol directory: configs/, manifests/, optionally dataset/), or `--config`,
 * `--official-manifest`, `--synthetic-manifest`: other protocol files instead of the embedded.
 */
export const PROTOCOL_FLAGS = {
  protocol: {
    type: "string",
    value: "DIR",
    help: "a protocol directory: configs/*.yaml, manifests/*.json (the synthetic one synthetic-*.json),\n" +
      "optionally dataset/*.json (used when no --dataset is given); instead of the three files",
    group: PROTOCOL,
  },
  config: { type: "string", value: "PATH", help: "protocol config YAML", group: PROTOCOL },
  "official-manifest": {
    type: "string",
    value: "PATH",
    help: "official case manifest JSON",
    group: PROTOCOL,
  },
  "synthetic-manifest": {
    type: "string",
    value: "PATH",
    help: "synthetic correction manifest JSON",
    group: PROTOCOL,
  },
} as const;

/** `--dataset PATH`, defaulting to `$LONGMEMEVAL_ORACLE_PATH`. */
export const DATASET_FLAG = {
  dataset: {
    type: "string",
    value: "PATH",
    help: `the pinned longmemeval_oracle.json (default: $${DATASET_ENV})`,
  },
} as const;

/** The protocol files a command was given, as the protocol loader takes them. */
export function contractPaths(flags: FlagValues<typeof PROTOCOL_FLAGS>): ContractPaths {
  return {
    config: flags.config,
    officialManifest: flags["official-manifest"],
    syntheticManifest: flags["synthetic-manifest"],
  };
}

/** The dataset path: `--dataset`, else `$LONGMEMEVAL_ORACLE_PATH`, else `undefined`. */
export function datasetPath(flags: FlagValues<typeof DATASET_FLAG>, io: Io): string | undefined {
  if (flags.dataset !== undefined) return flags.dataset;
  const fromEnv = io.env(DATASET_ENV);
  return fromEnv === "" ? undefined : fromEnv;
}

/** A required directory flag's value, refused when absent or empty. */
export function requiredDirectory(value: string | undefined, flag = "--output-dir"): string {
  if (value === undefined || value === "") throw new InputError(`needs ${flag} DIR`);
  return value;
}

/** `"wrote a, b"` for the files a command published into `directory`. */
export function wroteLine(directory: string, names: readonly string[]): string {
  return `wrote ${names.map((name) => visible(`${directory}/${name}`)).join(", ")}`;
}

/** `--policy-time-limit SECONDS`: the per-case time limit of a policy module's sandbox, in (0, the limit]. */
export const POLICY_TIME_LIMIT_FLAG = {
  "policy-time-limit": {
    type: "number",
    of: "seconds",
    min: 0,
    minExclusive: true,
    max: SANDBOX_LIMITS.maxSecondsPerCase,
    value: "SECONDS",
    help: `a policy module's time per case (default ${SANDBOX_LIMITS.defaultSecondsPerCase})`,
  },
} as const;

/** The `--policy-time-limit` seconds, or the default when not given. */
export function policyTimeLimit(flags: FlagValues<typeof POLICY_TIME_LIMIT_FLAG>): number {
  return flags["policy-time-limit"] ?? SANDBOX_LIMITS.defaultSecondsPerCase;
}

/** A non-negative amount of USD per million tokens. */
const PRICE = { type: "number", of: "USD per million tokens", min: 0, value: "USD" } as const;

/** `--price-input USD`, `--price-output USD`: USD per million prompt and completion tokens (`report`, `run-qa`). */
export const PRICE_FLAGS = {
  "price-input": { ...PRICE, help: "USD per million prompt tokens (with --price-output)" },
  "price-output": { ...PRICE, help: "USD per million completion tokens" },
} as const;

/** The two prices, both or neither. */
export function pricePair(
  flags: FlagValues<typeof PRICE_FLAGS>,
): { input: number; output: number } | undefined {
  const input = flags["price-input"];
  const output = flags["price-output"];
  if (input === undefined && output === undefined) return undefined;
  if (input === undefined || output === undefined) {
    throw new InputError("--price-input and --price-output go together (USD per million tokens)");
  }
  return { input, output };
}
