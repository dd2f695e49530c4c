/** The reference's fixture protocol and run, loaded through the library (tests/golden). */

import { type Contracts, loadContracts } from "../../lib/protocol/contracts.ts";
import { prepareProtocol } from "../../lib/protocol/prepare.ts";
import { type AnswerTask, buildAnswerTasks } from "../../lib/qa/mod.ts";
import { fixtureProtocolFlags, GOLDEN, runCli, withFlags } from "./cli.ts";

export const FIXTURE_PROTOCOL = `${GOLDEN}/fixture/protocol`;
export const FIXTURE_DATASET = `${GOLDEN}/fixture/longmemeval-fixture.json`;

/** Runs `deermem-eval COMMAND` on the fixture dataset and protocol, writing into `directory`. */
export function runOnFixture(
  command: string,
  directory: string,
  extra: string[] = [],
): ReturnType<typeof runCli> {
  return runCli([
    command,
    ...withFlags(["--dataset", FIXTURE_DATASET, "--output-dir", directory, ...fixtureProtocolFlags()], extra),
  ]);
}
/** The reference's run-qa and grade-qa output on the fixture. */
export const REFERENCE_QA = `${GOLDEN}/fixture-run/qa`;

/** Loads the fixture protocol from files; `replace` substitutes the bytes of one of them. */
export async function fixtureContracts(
  replace: { config?: string; official?: string; synthetic?: string } = {},
): Promise<Contracts> {
  const encoder = new TextEncoder();
  const artifact = async (name: "config" | "official" | "synthetic", file: string) => ({
    source: `${FIXTURE_PROTOCOL}/${file}`,
    bytes: replace[name] !== undefined
      ? encoder.encode(replace[name])
      : await Deno.readFile(`${FIXTURE_PROTOCOL}/${file}`),
  });
  return await loadContracts({
    config: await artifact("config", "config.yaml"),
    official: await artifact("official", "official.json"),
    synthetic: await artifact("synthetic", "synthetic.json"),
  });
}

/** The 90 fixture tasks. */
export async function fixtureTasks(contracts?: Contracts): Promise<AnswerTask[]> {
  contracts ??= await fixtureContracts();
  const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);
  return await buildAnswerTasks(contracts, prepared.cases);
}

/** Copies the reference's qa_run.json and responses/ (not its graded outputs) into `directory`. */
export async function copyReferenceRun(directory: string): Promise<void> {
  await Deno.copyFile(`${REFERENCE_QA}/qa_run.json`, `${directory}/qa_run.json`);
  await Deno.mkdir(`${directory}/responses`);
  for await (const entry of Deno.readDir(`${REFERENCE_QA}/responses`)) {
    await Deno.copyFile(`${REFERENCE_QA}/responses/${entry.name}`, `${directory}/responses/${entry.name}`);
  }
}

/** The first case of a demo directory's kept protocol (its official manifest's first scenario). */
export async function demoCaseId(demo: string): Promise<string> {
  const manifests = [...Deno.readDirSync(`${demo}/protocol/manifests`)].map((entry) => entry.name);
  const official = manifests.find((name) => !name.startsWith("synthetic-"))!;
  const manifest = JSON.parse(await Deno.readTextFile(`${demo}/protocol/manifests/${official}`));
  return manifest.scenarios[manifest.scenario_order[0]][0];
}
