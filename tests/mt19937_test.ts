/**
 * Seeds of any size: CPython seeds its Mersenne Twister from all the 32-bit words of |seed|. Expected values from
 * CPython 3.11.7's `random.Random(seed)`.
 */
import { PythonRandom } from "../lib/mt19937.ts";
import { assertEquals } from "./helpers/assert.ts";

Deno.test("seeds beyond 2^53 use every 32-bit word, as CPython's init_by_array does", () => {
  const first = (seed: bigint) => new PythonRandom(seed).getrandbits(32);
  assertEquals(first(2n ** 53n + 1n), 1512486810);
  assertEquals(first(2n ** 53n), 2975893306); // what a seed rounded to a double would give instead
  assertEquals(first(2n ** 64n + 5n), 2192917427);
  assertEquals(first(-(2n ** 64n + 5n)), 2192917427); // the sign is dropped
  assertEquals(first(2n ** 100n + 3n), 1532279558);
  assertEquals(new PythonRandom(2n ** 64n + 5n).randrange(1000), 522);
});

Deno.test("fillRandrange draws exactly what randrange draws, across twists and for every width of n", () => {
  for (const n of [1, 2, 45, 1000, 2 ** 31 + 1, 0xffffffff]) {
    const batch = new PythonRandom(4789n);
    const single = new PythonRandom(4789n);
    const draws = new Uint32Array(1500); // more than the 624 words of one twist
    batch.fillRandrange(n, draws);
    const expected = Array.from({ length: draws.length }, () => single.randrange(n));
    assertEquals(Array.from(draws), expected);
    assertEquals(batch.nextUint32(), single.nextUint32());
  }
});
