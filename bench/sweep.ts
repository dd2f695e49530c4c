// Prints the time of `sweep` on the default grid over a 45-case protocol (the demo's generated dataset, so the
// real file is not needed): the evaluation (runSweep), the placement of the published parameters (sweep.json and
// the printed summary), and the rows streamed into the all-or-nothing write in a fresh temporary directory — best
// and median of several runs after a warm-up. Target: the whole sweep
// under 10 s on this 2-core machine.
// Run: deno task bench:sweep
import { buildDemoProtocol, prepareDemoProtocol } from "../lib/protocol/demo.ts";
import {
  defaultGrid,
  runSweep,
  sweepJsonlChunks,
  sweepJsonlSha256,
  sweepRecord,
  sweepSummaryLines,
  writeSweepFiles,
} from "../lib/sweep/mod.ts";

const prepared = await prepareDemoProtocol(await buildDemoProtocol());
const { contracts } = prepared;
const grid = defaultGrid(contracts.config);

const runs = 5;
const times: { evaluate: number; place: number; write: number }[] = [];
let rows = 0;
let bytes = 0;
for (let run = 0; run <= runs; run++) {
  const directory = await Deno.makeTempDir({ prefix: "deermem-eval-bench-sweep-" });
  try {
    const start = performance.now();
    const result = runSweep(prepared, grid);
    const evaluated = performance.now();
    const record = sweepRecord(
      result,
      contracts,
      prepared.dataset.sha256,
      "bench",
      await sweepJsonlSha256(result),
    );
    sweepSummaryLines(result, contracts.config.pool.capacities);
    const placed = performance.now();
    await writeSweepFiles(directory, { "sweep.jsonl": sweepJsonlChunks(result), "sweep.json": record });
    const written = performance.now();
    rows = result.parameterSets * grid.capacities.length * result.groups.length;
    bytes = (await Deno.stat(`${directory}/sweep.jsonl`)).size;
    if (run > 0) {
      times.push({ evaluate: evaluated - start, place: placed - evaluated, write: written - placed });
    }
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
}

const stat = (pick: (time: (typeof times)[number]) => number) => {
  const values = times.map(pick).sort((a, b) => a - b);
  return `${(values[0] / 1000).toFixed(2)} s best, ${
    (values[Math.floor(values.length / 2)] / 1000).toFixed(2)
  } s median`;
};
console.log(
  `default grid: ${grid.weights.length} weights × ${grid.confirmationHalfLifeDays.length}×${grid.accessHalfLifeDays.length} half-lives × ${
    grid.correctionReservedFraction.length * grid.correctionReservedMax.length
  } reserves × ${grid.capacities.length} capacities on ${prepared.cases.length} cases: ${rows} rows, ${
    (bytes / 1e6).toFixed(0)
  } MB`,
);
console.log(`  evaluate (runSweep)                   ${stat((time) => time.evaluate)}`);
console.log(`  placement (sweep.json and summary)    ${stat((time) => time.place)}`);
console.log(`  rows streamed, both files written     ${stat((time) => time.write)}`);
console.log(
  `  total                                 ${stat((time) => time.evaluate + time.place + time.write)}`,
);
