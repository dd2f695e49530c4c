import { boundedNumber, parseTimestamp, selectFactsForCapacity } from "../lib/eviction.ts";
import { assertEquals, assertThrows } from "./helpers/assert.ts";

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

Deno.test("dirty values score like Python: float() spellings, booleans and missing ids", () => {
  assertEquals(boundedNumber(" 1_0 "), 1);
  assertEquals(boundedNumber("١"), 1);
  assertEquals(boundedNumber(true), 0.5);
  assertEquals(boundedNumber("-0"), 0);
  assertEquals(Object.is(boundedNumber("-0"), 0), true);
  const result = selectFactsForCapacity([{ confidence: 0.3 }], {
    maxFacts: 5,
    policy: "confidence",
    now: NOW,
  });
  assertEquals([...result.scores.keys()], ["__missing_0"]);
  assertEquals(parseTimestamp("2026-08-06T24:00:00"), undefined);
  assertEquals(parseTimestamp("  2026-08-06T00:00:00Z  "), { day: 20671, microsecond: 0 });
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
