// Prints facts/s for selectFactsForCapacity at 1e3, 1e5 and 1e6 facts, both policies: the best of several runs
// after warm-up (the usual throughput measure: the run least disturbed by the rest of the machine), with the
// median beside it. Target: ≥ 2 million facts/s for hybrid-v1 at 1e6 facts on one core.
// Run: deno task bench:throughput
import { selectFactsForCapacity, selectionOptions } from "../lib/policy/mod.ts";
import { realisticFacts } from "./facts.ts";

for (const size of [1e3, 1e5, 1e6]) {
  const { facts, usage } = realisticFacts(size);
  for (const policy of ["confidence", "hybrid-v1"] as const) {
    const run = () => {
      const start = performance.now();
      selectFactsForCapacity(
        facts,
        selectionOptions(policy, { capacity: Math.floor(size * 0.9), clock: "2026-08-13T00:00:00Z", usage }),
      );
      return performance.now() - start;
    };
    for (let warm = 0; warm < (size >= 1e6 ? 1 : 20); warm++) run();
    const times = Array.from({ length: size >= 1e6 ? 7 : 30 }, run).sort((a, b) => a - b);
    const [best, median] = [times[0], times[Math.floor(times.length / 2)]];
    const rate = (ms: number) => `${(size / (ms / 1000) / 1e6).toFixed(2)} M facts/s`;
    console.log(
      `${policy.padEnd(10)} ${size.toExponential().padStart(5)} facts: ${rate(best)} best (${
        best.toFixed(1)
      } ms), ` +
        `${rate(median)} median`,
    );
  }
}
