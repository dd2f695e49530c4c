import { RADIX_THRESHOLD, rankOrder } from "../../../lib/policy/_radix.ts";
import { assertEquals } from "../../helpers/assert.ts";

/** A seeded generator, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Indices by descending score, ties by position: the comparison sort rankOrder must equal. */
function comparisonOrder(scores: Float64Array): number[] {
  return Array.from({ length: scores.length }, (_, index) => index)
    .sort((a, b) => scores[b] - scores[a] || a - b);
}

Deno.test("rankOrder: the radix path orders exactly as the comparison sort (ties by position, -0 equal to +0)", () => {
  for (
    const [seed, size, distinct] of [[1, 10, 3], [2, 300, 7], [3, 5000, 11], [4, 70_000, 1000], [
      5,
      20_000,
      0,
    ]]
  ) {
    const next = random(seed);
    const scores = Float64Array.from({ length: size }, () => {
      if (distinct === 0) return next() * 4 - 2; // all distinct, negative values included
      const value = Math.floor(next() * distinct) / distinct;
      return value === 0 && next() < 0.5 ? -0 : value;
    });
    const expected = Array.from({ length: size }, (_, index) => index)
      .sort((a, b) => scores[b] - scores[a] || a - b);
    assertEquals([...rankOrder(scores)], expected, `seed ${seed}`);
  }
});
Deno.test("rankOrder below and above the threshold: ties by position, -0 equal to +0, hand-checked", () => {
  assertEquals([...rankOrder(Float64Array.of(0.5, -0, 1, 0, 0.5))], [2, 0, 4, 1, 3]);
  assertEquals([...rankOrder(new Float64Array(0))], []);
  const size = RADIX_THRESHOLD + 1;
  const scores = Float64Array.from({ length: size }, (_, index) => index % 3 === 0 ? -0 : index % 3);
  const order = [...rankOrder(scores)];
  assertEquals(order, comparisonOrder(scores));
  assertEquals(order.slice(0, 2), [2, 5]);
  assertEquals(order.at(-1), size - 1 - ((size - 1) % 3));
});

Deno.test("rankOrder with NaN scores: all NaN ranks by position, mixed gives a permutation, at any size", () => {
  for (const size of [10, RADIX_THRESHOLD * 2]) {
    const identity = Array.from({ length: size }, (_, index) => index);
    assertEquals([...rankOrder(new Float64Array(size).fill(NaN))], identity);
    // NaN makes the comparison inconsistent, so only the permutation is defined.
    const scores = Float64Array.from({ length: size }, (_, index) => index % 7 === 3 ? NaN : index % 5);
    assertEquals([...rankOrder(scores)].sort((a, b) => a - b), identity);
  }
});
