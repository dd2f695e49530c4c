// Prints facts/s for selectFactsForCapacity at 1e3, 1e5 and 1e6 facts, both policies (best of 3 runs).
// Target: ≥ 2 million facts/s for hybrid-v1 at 1e6 facts on one core. Run: deno task bench:throughput
import { selectFactsForCapacity } from "../lib/eviction.ts";
import { realisticFacts } from "./facts.ts";

for (const size of [1e3, 1e5, 1e6]) {
  const { facts, usage } = realisticFacts(size);
  for (const policy of ["confidence", "hybrid-v1"] as const) {
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      selectFactsForCapacity(facts, {
        maxFacts: Math.floor(size * 0.9),
        policy,
        now: "2026-08-13T00:00:00Z",
        usage,
      });
      best = Math.min(best, performance.now() - start);
    }
    const rate = size / (best / 1000);
    console.log(
      `${policy.padEnd(10)} ${size.toExponential().padStart(5)} facts: ${
        (rate / 1e6).toFixed(2)
      } M facts/s (${best.toFixed(1)} ms)`,
    );
  }
}
