import { selectFactsForCapacity } from "../../../lib/policy/selector.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { random } from "../../helpers/generate.ts";

const NOW = "2026-08-13T00:00:00Z";

Deno.test("hybrid-v1: a confirmation seven days ago beats 0.9 confidence unconfirmed for 180 days", () => {
  const facts = [
    { id: "old", confidence: 0.9, createdAt: "2026-02-14T00:00:00Z" },
    {
      id: "confirmed",
      confidence: 0.7,
      createdAt: "2026-02-14T00:00:00Z",
      lastConfirmedAt: "2026-08-06T00:00:00Z",
    },
  ];
  const hybrid = selectFactsForCapacity(facts, { maxFacts: 1, policy: "hybrid-v1", now: NOW });
  assertEquals(hybrid.kept.map((fact) => fact.id), ["confirmed"]);
  assertEquals(hybrid.scores.get("old")!.components.confirmationFreshness, 0.125);
  const confidence = selectFactsForCapacity(facts, { maxFacts: 1, policy: "confidence", now: NOW });
  assertEquals(confidence.kept.map((fact) => fact.id), ["old"]);
});

Deno.test("hybrid-v1 reserves correction slots; confidence lets ten preferences crowd a correction out", () => {
  const facts = [
    { id: "fix", confidence: 0.7, category: "correction", createdAt: NOW },
    ...Array.from(
      { length: 10 },
      (_, index) => ({ id: `pref${index}`, confidence: 0.9, category: "preference", createdAt: NOW }),
    ),
  ];
  const hybrid = selectFactsForCapacity(facts, { maxFacts: 10, policy: "hybrid-v1", now: NOW });
  assertEquals(hybrid.kept.some((fact) => fact.id === "fix"), true);
  assertEquals(hybrid.reservedCorrectionSlots, 1);
  const confidence = selectFactsForCapacity(facts, { maxFacts: 10, policy: "confidence", now: NOW });
  assertEquals(confidence.evicted.map((fact) => fact.factId), ["fix"]);
});

Deno.test("a snapshot that fits is kept whole, in input order", () => {
  const facts = [{ id: "b", confidence: 0.1 }, { id: "a", confidence: 0.9 }];
  const result = selectFactsForCapacity(facts, { maxFacts: 2, policy: "hybrid-v1", now: NOW });
  assertEquals(result.keptIndex, [0, 1]);
  assertEquals(result.evicted, []);
});

Deno.test("ties rank by input position; evicted facts are listed lowest first with category defaulting to context", () => {
  const facts = [{ id: "x", confidence: 0.5 }, { id: "y", confidence: 0.5 }, {
    id: "z",
    confidence: 0.2,
    category: "",
  }];
  const result = selectFactsForCapacity(facts, { maxFacts: 1, policy: "confidence", now: NOW });
  assertEquals(result.kept.map((fact) => fact.id), ["x"]);
  assertEquals(result.evicted.map((fact) => [fact.factId, fact.category]), [["z", "context"], [
    "y",
    "context",
  ]]);
});

Deno.test("dirty values score like Python: missing ids", () => {
  const result = selectFactsForCapacity([{ confidence: 0.3 }], {
    maxFacts: 5,
    policy: "confidence",
    now: NOW,
  });
  assertEquals([...result.scores.keys()], ["__missing_0"]);
});

Deno.test("invalid arguments are RangeErrors", () => {
  assertThrows(
    () => selectFactsForCapacity([], { maxFacts: -1, policy: "confidence", now: NOW }),
    RangeError,
  );
  assertThrows(
    () => selectFactsForCapacity([], { maxFacts: 1, policy: "recency" as "confidence", now: NOW }),
    RangeError,
  );
  assertThrows(
    () => selectFactsForCapacity([], { maxFacts: 1, policy: "confidence", now: "yesterday" }),
    RangeError,
  );
});

/** The selection as the reference states it, with a plain sort and the result's own scores. */
function referenceSelection(
  facts: { id: string; category?: string }[],
  maxFacts: number,
  scores: Map<string, { value: number }>,
) {
  const order = facts.map((_, index) => index)
    .sort((a, b) => scores.get(facts[b].id)!.value - scores.get(facts[a].id)!.value || a - b);
  const reserved = Math.min(10, Math.ceil(maxFacts * 0.1));
  const kept = new Set<number>();
  for (const index of order) {
    if (kept.size < reserved && facts[index].category === "correction") kept.add(index);
  }
  for (const index of order) if (kept.size < maxFacts) kept.add(index);
  return {
    kept: order.filter((index) => kept.has(index)),
    evicted: order.filter((index) => !kept.has(index)).reverse().map((index) => facts[index].id),
  };
}

Deno.test("large snapshots with duplicate ids and tied scores select exactly as the plain algorithm", () => {
  for (const [seed, size] of [[7, 3000], [8, 40_000]]) {
    const next = random(seed);
    const facts = Array.from({ length: size }, (_, index) => ({
      // About one id in five repeats an earlier one, with different data: the last one's score must rank them all.
      id: next() < 0.2 && index > 0 ? `f${Math.floor(next() * index)}` : `f${index}`,
      confidence: Math.floor(next() * 20) / 20,
      category: next() < 0.1 ? "correction" : "context",
      createdAt: `2026-0${1 + Math.floor(next() * 8)}-1${Math.floor(next() * 10)}T0${
        Math.floor(next() * 10)
      }:00:00Z`,
      ...(next() < 0.3 ? { lastConfirmedAt: "2026-08-01T12:00:00.250+02:00" } : {}),
    }));
    const usage = Object.fromEntries(
      facts.filter(() => next() < 0.3).map((
        fact,
      ) => [fact.id, { accessHeat: next() * 10, lastAccessedAt: "2026-07-30T00:00:00Z" }]),
    );
    const maxFacts = Math.floor(size * 0.6);
    const result = selectFactsForCapacity(facts, { maxFacts, policy: "hybrid-v1", now: NOW, usage });
    const expected = referenceSelection(facts, maxFacts, result.scores);
    assertEquals(result.keptIndex, expected.kept, `seed ${seed}`);
    assertEquals(result.evicted.map((fact) => fact.factId), expected.evicted);
    for (const fact of result.evicted) assertEquals(fact.score, result.scores.get(fact.factId)!.value);
  }
});

Deno.test("the usage fast path for plain records scores exactly as the general path, which ignores inherited entries", () => {
  const facts = ["f0", "f1", "f2", "f3", "__proto__", "toString", "constructor"].map((id, index) => ({
    id,
    confidence: 0.5 + index / 100,
    createdAt: "2026-07-01T00:00:00Z",
  }));
  const entries = {
    f1: { accessHeat: 8, lastAccessedAt: "2026-08-12T00:00:00Z" },
    f2: { accessHeat: 3, lastAccessedAt: "2026-08-01T00:00:00Z" },
  };
  // A JSON object literal: a plain record, including an own "__proto__" key as Python's dict would have it.
  const plain = JSON.parse(
    `{${
      JSON.stringify(entries).slice(1, -1)
    }, "__proto__": {"accessHeat": 5, "lastAccessedAt": "2026-08-10T00:00:00Z"}}`,
  );
  assertEquals(Object.hasOwn(plain, "__proto__"), true);
  // The same own entries on a record with a foreign prototype that offers an f3 entry a dict would not have.
  const prototype = Object.create(null);
  prototype.f3 = { accessHeat: 8, lastAccessedAt: "2026-08-12T00:00:00Z" };
  const general = Object.assign(Object.create(prototype), entries);
  Object.defineProperty(general, "__proto__", {
    value: plain["__proto__"],
    enumerable: true,
    writable: true,
    configurable: true,
  });
  for (const policy of ["hybrid-v1", "confidence"] as const) {
    const fast = selectFactsForCapacity(facts, { maxFacts: 4, policy, now: NOW, usage: plain });
    const slow = selectFactsForCapacity(facts, { maxFacts: 4, policy, now: NOW, usage: general });
    assertEquals(slow.keptIndex, fast.keptIndex);
    assertEquals([...slow.scores.entries()], [...fast.scores.entries()]);
  }
  const hybrid = selectFactsForCapacity(facts, {
    maxFacts: 4,
    policy: "hybrid-v1",
    now: NOW,
    usage: general,
  });
  assertEquals(hybrid.scores.get("f3")!.components.accessHeat, 0, "an inherited entry is not a usage record");
  assertEquals((hybrid.scores.get("f1")!.components.accessHeat ?? 0) > 0, true);
  assertEquals(
    (hybrid.scores.get("__proto__")!.components.accessHeat ?? 0) > 0,
    true,
    "an own __proto__ key counts",
  );
  const noOwn = selectFactsForCapacity(facts, {
    maxFacts: 4,
    policy: "hybrid-v1",
    now: NOW,
    usage: { ...entries },
  });
  assertEquals(
    noOwn.scores.get("__proto__")!.components.accessHeat,
    0,
    "Object.prototype is not a usage record",
  );
});

Deno.test("hybrid-v1 reserves min(10, ceil(maxFacts × 10%)) correction slots: rounded up, capped at 10", () => {
  const facts = [
    ...Array.from(
      { length: 12 },
      (_, index) => ({ id: `fix${index}`, confidence: 0.1, category: "correction" }),
    ),
    ...Array.from(
      { length: 120 },
      (_, index) => ({ id: `pref${index}`, confidence: 0.9, category: "preference" }),
    ),
  ].map((fact) => ({ ...fact, createdAt: NOW }));
  // 10 → 1, 11 → 2 (1.1 rounds up), 19 → 2, 20 → 2, 101 → 10 (the cap, not 11).
  for (const [maxFacts, reserved] of [[10, 1], [11, 2], [19, 2], [20, 2], [101, 10]]) {
    const result = selectFactsForCapacity(facts, { maxFacts, policy: "hybrid-v1", now: NOW });
    assertEquals(result.reservedCorrectionSlots, reserved, `maxFacts ${maxFacts}`);
    assertEquals(result.kept.filter((fact) => fact.category === "correction").length, reserved);
  }
});
