// End-to-end bench of the offline stages: generates a LongMemEval-shaped file of the real file's size (~15 MB,
// 530 rows; synthetic text) with a protocol pinned to it, then runs `validate` and `run-policy` through the CLI's
// own entry point, each in fresh processes, and prints per stage: the work time after start-up of a single cold
// run (what one invocation of the binary costs), the same work warm (runs 2..N in one process), the whole
// process's wall time and its peak memory. Target: under 0.1 s of work and under 150 MB peak (the reference
// Python takes about 0.33 s and 108 MB). Run: deno task bench:pipeline
import { buildDemoProtocol } from "../lib/demo.ts";

const RUNS = 5;
const WARM_REPEAT = 6;
const directory = await Deno.makeTempDir({ prefix: "deermem-eval-bench-" });
try {
  const demo = await buildDemoProtocol({ scale: 5, padding: 360 });
  await Deno.writeFile(`${directory}/dataset.json`, demo.dataset);
  await Deno.writeTextFile(`${directory}/config.yaml`, demo.config);
  await Deno.writeTextFile(`${directory}/official.json`, demo.official);
  await Deno.writeTextFile(`${directory}/synthetic.json`, demo.synthetic);
  const rows = (JSON.parse(new TextDecoder().decode(demo.dataset)) as unknown[]).length;
  console.log(
    `dataset: ${(demo.dataset.length / 1e6).toFixed(1)} MB, ${rows} rows (synthetic, LongMemEval-shaped)`,
  );
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
  const stages: [string, (run: number) => string[]][] = [
    ["validate", () => ["validate", ...protocol]],
    ["run-policy", (run) => ["run-policy", ...protocol, "--output-dir", `${directory}/policy-${run}`]],
  ];
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const stage = async (args: string[], repeat: number) => {
    const started = performance.now();
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        // All permissions only so the stage can read its own peak memory; `main` then revokes the network.
        "--allow-all",
        new URL("./pipeline_stage.ts", import.meta.url).pathname,
        ...args,
      ],
      env: { REPEAT: String(repeat) },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const wall = performance.now() - started;
    if (output.code !== 0) throw new Error(new TextDecoder().decode(output.stderr));
    const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
    return { wall, ...JSON.parse(lines[lines.length - 1]) as { workMs: number[]; peakMb: number } };
  };
  for (const [name, args] of stages) {
    const cold = [];
    for (let run = 0; run < RUNS; run++) cold.push(await stage(args(run), 1));
    const warm = await stage(args(RUNS), WARM_REPEAT);
    console.log(
      `${name.padEnd(10)} work: cold ${
        median(cold.map((s) => s.workMs[0])).toFixed(1)
      } ms (median of ${RUNS}), ` +
        `warm ${median(warm.workMs.slice(1)).toFixed(1)} ms; process wall ${
          median(cold.map((s) => s.wall)).toFixed(0)
        } ms; peak memory ${Math.max(...cold.map((s) => s.peakMb)).toFixed(0)} MB`,
    );
  }
} finally {
  await Deno.remove(directory, { recursive: true });
}
