// End-to-end bench of the offline commands, on the shipped bundle and on cli.ts. Builds the bundle (as `deno task
// bundle` does), generates a LongMemEval-shaped file of the real file's size (~15 MB, 530 rows, synthetic text;
// half the rows hold non-ASCII text, as the real file's rows do) with a protocol pinned to it, and prints per
// program and command:
// - work: the time of `main` after start-up in a fresh process (cold: what one invocation costs, median of COLD
//   processes) and again in the same process (warm), with the process's peak memory (bench/pipeline_stage.ts);
// - wall: the whole process as a user runs it (`./deermem-eval.js …` through its shebang, or `deno run … cli.ts`
//   with the cli task's flags), median of PAIRS runs; for the commands without a dataset, also the ratio to an
//   empty `deno run` (Deno's own start-up) measured side by side, which the machine's load affects alike;
// - when python3 is on PATH, the ratio to Python's floor — read, SHA-256 and `json.loads` of the same file, the
//   least the reference harness does — measured side by side: runs alternate, the figure is the median of the
//   pairwise ratios.
// `--version` shows the start-up alone. Targets: run-policy ≤ 1.3× and validate ≤ 1.1× the Python floor, peak
// ≤ 150 MB, validate-contracts and verify under 100 ms of wall time. Run: deno task bench:pipeline
import denoConfig from "../deno.json" with { type: "json" };
import { buildDemoProtocol } from "../lib/protocol/demo.ts";
import { sha256Hex } from "../lib/base/hash.ts";
import { buildBundle } from "../.ci/bundle.ts";

const COLD = 5;
const WARM_REPEAT = 6;
const PAIRS = 11;
const ROOT = new URL("../", import.meta.url).pathname;
const PYTHON_FLOOR = "import hashlib, json, sys\n" +
  "data = open(sys.argv[1], 'rb').read()\n" +
  "hashlib.sha256(data).hexdigest()\n" +
  "json.loads(data.decode('utf-8'))";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const decoder = new TextDecoder();

/** Runs a process to completion; returns its wall time in ms (throws with its stderr if it fails). */
async function wall(command: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const output = await new Deno.Command(command, {
    args,
    env: { DENO_NO_UPDATE_CHECK: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - started;
  if (output.code !== 0) throw new Error(`${command} ${args.join(" ")}: ${decoder.decode(output.stderr)}`);
  return elapsed;
}

/**
 * The Python interpreter itself (`sys.executable`), or undefined when `python3` is not on PATH: a launcher such
 * as a pyenv shim costs more than the floor's own work, and the floor is Python's, not the launcher's.
 */
async function pythonExecutable(): Promise<string | undefined> {
  try {
    const output = await new Deno.Command("python3", {
      args: ["-c", "import sys; print(sys.executable)"],
      stdout: "piped",
      stderr: "null",
    }).output();
    const path = decoder.decode(output.stdout).trim();
    return output.success && path !== "" ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The demo protocol, its filler chat made non-ASCII in every other row (never evidence: no case changes). */
async function writeDataset(
  directory: string,
): Promise<{ megabytes: number; rows: number; nonAscii: number }> {
  const demo = await buildDemoProtocol({ scale: 5, padding: 360 });
  const rows = JSON.parse(decoder.decode(demo.dataset)) as {
    haystack_sessions: Record<string, unknown>[][];
  }[];
  rows.forEach((row, index) => {
    if (index % 2 === 1) return;
    for (const session of row.haystack_sessions) {
      const filler = session.at(-1)!;
      if (filler.role === "assistant" && filler.has_answer === undefined) {
        filler.content = `${filler.content} Café naïve — “quoted” in Zürich, 東京 and 😀.`;
      }
    }
  });
  const dataset = new TextEncoder().encode(JSON.stringify(rows, null, 1));
  const config = demo.config.replace(/^ {2}sha256: [0-9a-f]{64}$/m, `  sha256: ${await sha256Hex(dataset)}`);
  await Deno.writeFile(`${directory}/dataset.json`, dataset);
  await Deno.writeTextFile(`${directory}/config.yaml`, config);
  await Deno.writeTextFile(`${directory}/official.json`, demo.official);
  await Deno.writeTextFile(`${directory}/synthetic.json`, demo.synthetic);
  return { megabytes: dataset.length / 1e6, rows: rows.length, nonAscii: Math.ceil(rows.length / 2) };
}

interface Program {
  name: string;
  /** What the stage process imports `main` from. */
  module: string;
  /** The command line a user runs. */
  command: (args: string[]) => [string, string[]];
}

const directory = await Deno.makeTempDir({ prefix: "deermem-eval-bench-" });
try {
  const bundle = `${directory}/deermem-eval.js`;
  const bundleSha256 = await buildBundle(bundle);
  const data = await writeDataset(directory);
  await Deno.writeTextFile(`${directory}/empty.js`, "");
  const python = await pythonExecutable();
  console.log(
    `dataset: ${data.megabytes.toFixed(1)} MB, ${data.rows} rows (${data.nonAscii} with non-ASCII text; ` +
      `synthetic, LongMemEval-shaped); bundle ${bundleSha256.slice(0, 12)}…, ${
        ((await Deno.stat(bundle)).size / 1024).toFixed(0)
      } KB; ${python ? `Python floor (${python}) measured side by side` : "python3 not on PATH: no ratio"}`,
  );
  const cliTask = denoConfig.tasks.cli.split(/\s+/);
  const cliFlags = cliTask.slice(cliTask.indexOf("run") + 1, cliTask.indexOf("cli.ts"));
  const programs: Program[] = [
    { name: "bundle", module: `file://${bundle}`, command: (args) => [bundle, args] },
    {
      name: "cli.ts",
      module: `file://${ROOT}cli.ts`,
      command: (args) => [Deno.execPath(), ["run", ...cliFlags, `${ROOT}cli.ts`, ...args]],
    },
  ];
  const protocol = [
    "--dataset",
    `${directory}/dataset.json`,
    "--config",
    `${directory}/config.yaml`,
    "--official-manifest",
    `${directory}/official.json`,
    "--synthetic-manifest",
    `${directory}/synthetic.json`,
  ];
  let outputs = 0;
  const commands: [string, () => string[], boolean][] = [
    // Start-up alone: loading the program and printing one line.
    ["--version", () => ["--version"], false],
    ["validate-contracts", () => ["validate-contracts"], false],
    ["verify", () => ["verify", `${ROOT}results/pr4789-reproduction-v1`], false],
    ["validate", () => ["validate", ...protocol], true],
    ["run-policy", () => ["run-policy", ...protocol, "--output-dir", `${directory}/out-${outputs++}`], true],
  ];
  const stage = async (program: Program, args: string[], repeat: number) => {
    const output = await new Deno.Command(Deno.execPath(), {
      // All permissions only so the stage can read its own peak memory; `main` then revokes the network.
      args: ["run", "--no-prompt", "--allow-all", `${ROOT}bench/pipeline_stage.ts`, ...args],
      env: { DENO_NO_UPDATE_CHECK: "1", PROGRAM: program.module, REPEAT: String(repeat) },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (output.code !== 0) throw new Error(decoder.decode(output.stderr));
    const lines = decoder.decode(output.stdout).trim().split("\n");
    return JSON.parse(lines[lines.length - 1]) as { workMs: number[]; peakMb: number };
  };
  for (const program of programs) {
    // The first run after a build compiles and caches the program; every figure below is from later runs.
    await wall(...program.command(["validate-contracts"]));
    for (const [name, args, dataset] of commands) {
      const walls: number[] = [];
      const ratios: number[] = [];
      const floors: number[] = [];
      for (let pair = 0; pair < PAIRS; pair++) {
        const ours = await wall(...program.command(args()));
        walls.push(ours);
        if (python && dataset) {
          const floor = await wall(python, ["-c", PYTHON_FLOOR, `${directory}/dataset.json`]);
          floors.push(floor);
          ratios.push(ours / floor);
        } else if (!dataset) {
          const floor = await wall(Deno.execPath(), ["run", "--no-config", `${directory}/empty.js`]);
          floors.push(floor);
          ratios.push(ours / floor);
        }
      }
      let line = `${program.name.padEnd(6)} ${name.padEnd(18)} wall ${median(walls).toFixed(0)} ms`;
      if (!dataset) {
        line += ` (${median(ratios).toFixed(2)}× an empty \`deno run\`: ${median(floors).toFixed(0)} ms)`;
      }
      if (dataset) {
        const cold = [];
        for (let run = 0; run < COLD; run++) cold.push(await stage(program, args(), 1));
        const warm = await stage(program, args(), WARM_REPEAT);
        line += `; work cold ${median(cold.map((s) => s.workMs[0])).toFixed(0)} ms, warm ${
          median(warm.workMs.slice(1)).toFixed(0)
        } ms; peak ${Math.max(...cold.map((s) => s.peakMb)).toFixed(0)} MB`;
        if (ratios.length > 0) {
          line += `; ${median(ratios).toFixed(2)}× the Python floor (${median(floors).toFixed(0)} ms)`;
        }
      }
      console.log(line);
    }
  }
  console.log(`(medians of ${PAIRS} pairs for wall and ratio, of ${COLD} processes for cold work)`);
} finally {
  await Deno.remove(directory, { recursive: true });
}
