// The demo's stages timed: `runDemo` (what `deno task demo` runs, after start-up) in this process, RUNS times in
// fresh directories, printing each stage's median and the total; then the whole `deno task demo` process as a
// user runs it (wall time, median of RUNS). Target: the whole demo well under 10 s on a 2-core machine.
// Run: deno task bench:demo
import denoConfig from "../deno.json" with { type: "json" };
import { runDemo, type StageTime } from "../lib/commands/demo.ts";

const RUNS = 3;
const ROOT = new URL("../", import.meta.url).pathname;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const runs: StageTime[][] = [];
for (let run = 0; run < RUNS; run++) {
  const directory = await Deno.makeTempDir({ prefix: "deermem-eval-bench-demo-" });
  try {
    runs.push(await runDemo(directory, { dirty: null, head: null }, () => {}));
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
}
console.log(`demo stages, median of ${RUNS} runs in one process (ms):`);
for (const [index, { stage }] of runs[0].entries()) {
  console.log(`  ${stage.padEnd(20)} ${median(runs.map((times) => times[index].ms)).toFixed(0).padStart(6)}`);
}
const totals = runs.map((times) => times.reduce((sum, time) => sum + time.ms, 0));
console.log(`  ${"all stages".padEnd(20)} ${median(totals).toFixed(0).padStart(6)}`);

const words = denoConfig.tasks.demo.split(/\s+/);
const flags = words.slice(words.indexOf("run") + 1, words.indexOf("cli.ts"));
const walls: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const directory = await Deno.makeTempDir({ prefix: "deermem-eval-bench-demo-" });
  try {
    const start = performance.now();
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, `${ROOT}cli.ts`, "demo", "--output-dir", `${directory}/demo`],
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    walls.push(performance.now() - start);
    if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
}
console.log(`deno task demo, whole process: ${median(walls).toFixed(0)} ms (median of ${RUNS})`);
