/**
 * `author-protocol`: a new protocol directory made from another by its own selection rule, over a whole dataset.
 *
 * @module
 */

import {
  CONTRACT_CAP,
  DATASET_CAP,
  ensureDir,
  InputError,
  publishFiles,
  readBytes,
  readText,
  readTextIfExists,
  sha256Hex,
} from "../base/mod.ts";
import {
  authorProtocol,
  EMBEDDED_ARTIFACTS,
  loadDataset,
  readContracts,
  readProtocolDirectory,
} from "../protocol/mod.ts";
import { defineCommand, publishOptions } from "./_command.ts";
import { datasetPath as datasetPathOf, requiredDirectory, wroteLine } from "./_flags.ts";

const PROMPT = "prompts/answer-v1.txt";
/** The pinned protocol's config, official and synthetic manifest, as the program embeds them. */
const EMBEDDED_SOURCE_PATHS = {
  config: "configs/pr4789-reproduction-v1.yaml",
  official: "manifests/longmemeval-pr4789-v1.json",
  synthetic: "manifests/synthetic-corrections-pr4789-v1.json",
} as const;
const PROTOCOL_FOLDERS = ["configs", "manifests", "prompts", "dataset"];

/** The `author-protocol` command. */
export const command = defineCommand({
  name: "author-protocol",
  summary: "author a new protocol from another's selection rule over a whole dataset",
  description:
    `Reads the protocol directory --from (without it, the pinned protocol embedded in this program) and the
dataset --dataset (default $LONGMEMEVAL_ORACLE_PATH), applies the official manifest's selection rule to every row, and writes a protocol directory into --output-dir (which must not exist):
configs/ (the source's config with the new protocol id, a line authored_from naming the source protocol, and
the dataset's file name and SHA-256), manifests/ (the official manifest: each eligible type gives the same
number of cases, a multiple of the scenario count, the first ones by question_id, scenario i taking each
type's [k·i, k·i + k) in turn as scenario_order assigns them; the synthetic manifest as the source's),
prompts/ and dataset/ (a copy). --cases all takes the largest such number every type has; --cases N the
largest that keeps the total at most N. With --seed S (only with --cases N), each type's cases are drawn
instead: the first by the SHA-256 of "S:question_id" (hex, ascending), assigned to scenarios in question_id
order; the manifest records seed and draw_order. validate recomputes exactly this selection. Never writes into
the source protocol; no network.`,
  flags: {
    from: {
      type: "string",
      value: "PROTOCOL_DIR",
      help: "the protocol directory to author from (default: the pinned protocol embedded in this program)",
    },
    dataset: {
      type: "string",
      value: "PATH",
      help: "the dataset to select from (default: $LONGMEMEVAL_ORACLE_PATH)",
    },
    cases: {
      type: "integer",
      of: "official cases",
      min: 1,
      or: "all",
      value: "all|N",
      required: true,
      help: "every eligible case the rule's balance holds, or at most N",
    },
    seed: {
      type: "integer",
      of: "",
      min: 0,
      value: "S",
      help: "draw each type's N cases by SHA-256 of S:question_id (needs --cases N)",
    },
    "protocol-id": {
      type: "string",
      value: "ID",
      help: "the new protocol's id (default: SOURCE-authored-N, N the official cases taken, or all)",
    },
    "output-dir": { type: "string", value: "DIR", required: true, help: "the new protocol directory" },
  },
  async run({ flags, io, seams }) {
    const output = requiredDirectory(flags["output-dir"]);
    const from = flags.from === undefined ? undefined : requiredDirectory(flags.from, "--from");
    const datasetPath = datasetPathOf(flags, io);
    if (datasetPath === undefined || datasetPath === "") {
      throw new InputError("needs --dataset PATH (or $LONGMEMEVAL_ORACLE_PATH)");
    }
    if (flags.cases === undefined) throw new InputError("needs --cases all|N");
    const seed = flags.seed as number | undefined;
    if (seed !== undefined && flags.cases === "all") {
      throw new InputError(
        "expected --cases N to draw from, got all (every eligible case: nothing to draw)",
        {
          field: "--seed",
        },
      );
    }
    if (from !== undefined && isInside(output, from)) {
      throw new InputError("the new protocol cannot be written into the source protocol", {
        field: "--output-dir",
      });
    }
    const { contracts, texts } = await sourceProtocol(from);
    const bytes = await readBytes(datasetPath, "dataset", DATASET_CAP);
    const dataset = await loadDataset(bytes, datasetPath, await sha256Hex(bytes));
    const given = flags["protocol-id"];
    if (given !== undefined) checkProtocolId(given);
    // The default id names what is taken: --cases 81 takes 80 where 80 is the largest balanced number.
    const protocolIdOf = (cases: number) =>
      given ?? `${contracts.config.protocol_id}-authored-${flags.cases === "all" ? "all" : cases}` +
          (seed === undefined ? "" : `-seed-${seed}`);
    const authored = await authorProtocol({
      configText: texts.config,
      officialText: texts.official,
      syntheticText: texts.synthetic,
      protocolId: contracts.config.protocol_id,
      official: contracts.official,
      dataset,
      datasetName: basename(datasetPath),
    }, { cases: flags.cases === "all" ? "all" : flags.cases as number, seed, protocolId: protocolIdOf });
    const protocolId = authored.protocolId;
    const prompt = texts.prompt;
    const publish = publishOptions(io, seams);
    for (const folder of PROTOCOL_FOLDERS) {
      await ensureDir(`${output}/${folder}`, publish);
    }
    const files: [string, string | Uint8Array][] = [
      [`configs/${protocolId}.yaml`, authored.config],
      [`manifests/${protocolId}.json`, authored.official],
      [`manifests/synthetic-${protocolId}.json`, authored.synthetic],
      [PROMPT, prompt],
      [`dataset/${basename(datasetPath)}`, bytes],
    ];
    await publishFiles(files.map(([name, content]) => [`${output}/${name}`, content]), publish);
    io.out(
      `authored ${protocolId} from ${contracts.config.protocol_id}: ${authored.cases} official cases ` +
        `(${authored.perType} per eligible type${seed === undefined ? "" : `, drawn by seed ${seed}`}) and ` +
        `${contracts.synthetic.cases.length} synthetic`,
    );
    io.out(wroteLine(output, files.map(([name]) => name)));
  },
});

/** The source protocol and its artifacts' texts: the directory `from`, or the pinned one this program embeds. */
async function sourceProtocol(from: string | undefined) {
  if (from === undefined) {
    const [config, official, synthetic] = Object.values(EMBEDDED_SOURCE_PATHS).map((path) =>
      EMBEDDED_ARTIFACTS[path]
    );
    return {
      contracts: await readContracts(),
      texts: { config, official, synthetic, prompt: EMBEDDED_ARTIFACTS[PROMPT] },
    };
  }
  const found = await readProtocolDirectory(from);
  const text = (path: string) => readText(path, "protocol file", CONTRACT_CAP);
  const texts = {
    config: await text(found.contracts.config),
    official: await text(found.contracts.officialManifest),
    synthetic: await text(found.contracts.syntheticManifest),
    prompt: await readTextIfExists(`${from}/${PROMPT}`, "prompt") ?? EMBEDDED_ARTIFACTS[PROMPT],
  };
  return { contracts: await readContracts(found.contracts), texts };
}

/** Whether `path` is the protocol directory `directory` or inside one of its folders. */
function isInside(path: string, directory: string): boolean {
  const absolute = (name: string) => name.startsWith("/") ? name : `${Deno.cwd()}/${name}`;
  const normal = (name: string) => absolute(name).split("/").filter((part) => part !== "" && part !== ".");
  const [inner, outer] = [normal(path), normal(directory)];
  if (!outer.every((part, index) => inner[index] === part)) return false;
  return inner.length === outer.length || PROTOCOL_FOLDERS.includes(inner[outer.length]);
}

/** The last part of a path. */
function basename(path: string): string {
  return path.split("/").filter((part) => part !== "").at(-1) ?? path;
}

/** A protocol id as file names and the reference take it, refused in one line otherwise. */
function checkProtocolId(protocolId: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(protocolId)) {
    throw new InputError(`expected letters, digits, ".", "_" or "-", got ${JSON.stringify(protocolId)}`, {
      field: "--protocol-id",
    });
  }
}
