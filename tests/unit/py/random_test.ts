/**
 * Seeds of any size: CPython seeds its Mersenne Twister from all the 32-bit words of |seed|. Expected values from
 * CPython 3.11.7's `random.Random(seed)`.
 */
import { PythonRandom } from "../../../lib/py/random.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";
import { random } from "../../helpers/generate.ts";

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

Deno.test("sumDraws sums exactly the draws randrange makes, and the stream continues alike", () => {
  const next = random(20260513);
  // Resample counts from 1 to past 1,024; n across bit widths (1 to 3,001) and past twists (624 words).
  for (const [n, resamples] of [[1, 3], [2, 700], [5, 512], [40, 1025], [45, 2000], [257, 9], [3001, 5]]) {
    const codes = Uint8Array.from({ length: n }, () => Math.floor(next() * 4));
    const [firsts, seconds] = [new Int32Array(resamples), new Int32Array(resamples)];
    const summed = new PythonRandom(4789n);
    summed.nextUint32(); // start mid-block
    summed.sumDraws(codes, firsts, seconds);
    const single = new PythonRandom(4789n);
    single.nextUint32();
    const expected: number[][] = [[], []];
    for (let resample = 0; resample < resamples; resample++) {
      let [first, second] = [0, 0];
      for (let draw = 0; draw < n; draw++) {
        const code = codes[single.randrange(n)];
        first += code & 1;
        second += code >> 1;
      }
      expected[0].push(first);
      expected[1].push(second);
    }
    assertEquals([Array.from(firsts), Array.from(seconds)], expected, `n ${n}, ${resamples} resamples`);
    assertEquals(
      summed.nextUint32(),
      single.nextUint32(),
      `n ${n}: the generator continues where randrange would`,
    );
  }
});

Deno.test("sumDraws refuses no codes and outputs of different lengths", () => {
  const random = new PythonRandom(1n);
  assertThrows(() => random.sumDraws(new Uint8Array(0), new Int32Array(1), new Int32Array(1)), RangeError);
  assertThrows(() => random.sumDraws(Uint8Array.of(1), new Int32Array(2), new Int32Array(1)), RangeError);
});
