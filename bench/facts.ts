/** Realistic facts for the benches: ISO timestamps, a quarter confirmed, a third with usage. */
export function realisticFacts(count: number) {
  const facts = [];
  const usage: Record<string, unknown> = {};
  const base = Date.UTC(2025, 0, 1);
  for (let index = 0; index < count; index++) {
    const id = `fact_${index.toString().padStart(7, "0")}`;
    const created = new Date(base + ((index * 7919) % 500) * 86_400_000 + (index % 86_400) * 1000)
      .toISOString();
    const fact: Record<string, unknown> = {
      id,
      content: "x",
      category: index % 10 === 0 ? "correction" : index % 3 === 0 ? "preference" : "context",
      confidence: ((index * 37) % 100) / 100,
      createdAt: created,
    };
    if (index % 4 === 0) {
      fact.lastConfirmedAt = new Date(base + ((index * 31) % 580) * 86_400_000).toISOString();
    }
    facts.push(fact);
    if (index % 3 === 0) {
      usage[id] = {
        accessHeat: (index % 20) + 1,
        lastAccessedAt: new Date(base + ((index * 13) % 590) * 86_400_000).toISOString(),
      };
    }
  }
  return { facts, usage };
}
