// deno bench: selectFactsForCapacity throughput (facts/s is size / the reported time per iteration).
// Target: ≥ 2 million facts/s for hybrid-v1 at 1e6 facts on one core (the reference Python does ~70 thousand).
import { selectFactsForCapacity, selectionOptions } from "../lib/policy/mod.ts";
import { realisticFacts } from "./facts.ts";

for (const size of [1e3, 1e5, 1e6]) {
  const { facts, usage } = realisticFacts(size);
  for (const policy of ["confidence", "hybrid-v1"] as const) {
    Deno.bench({
      name: `${policy} ${size.toExponential()} facts`,
      group: `${size}`,
      n: size >= 1e6 ? 3 : undefined,
      fn: () => {
        selectFactsForCapacity(
          facts,
          selectionOptions(policy, {
            capacity: Math.floor(size * 0.9),
            clock: "2026-08-13T00:00:00Z",
            usage,
          }),
        );
      },
    });
  }
}
