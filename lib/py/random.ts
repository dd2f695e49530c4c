/**
 * Python's `random.Random`, draw for draw: MT19937 seeded from an integer exactly as CPython seeds it
 * (`init_by_array` over the 32-bit words of |seed|), `getrandbits(k)` and `randrange(n)` by rejection.
 *
 * Follows CPython 3.11.7's `Modules/_randommodule.c` (`init_genrand`, `init_by_array`, `random_seed` for
 * int seeds, `genrand_uint32`, `_random_Random_getrandbits_impl`) and `Lib/random.py`'s `_randbelow_with_getrandbits`.
 *
 * @module
 */

const N = 624;
const M = 397;

/**
 * A Mersenne Twister that reproduces CPython's `random.Random(seed)` stream.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { PythonRandom } from "./random.ts";
 * const random = new PythonRandom(0n);
 * strictEqual(random.getrandbits(32), 3626764237); // Python: random.Random(0).getrandbits(32)
 * const again = new PythonRandom(0);
 * strictEqual(again.getrandbits(32), 3626764237); // the same seed, the same stream
 * ```
 */
export class PythonRandom {
  #state = new Uint32Array(N);
  #index = N + 1;

  /**
   * Seeds the generator as Python's `random.Random(seed)` does (the seed's absolute value, as 32-bit words).
   *
   * @param seed Any integer.
   */
  constructor(seed: bigint | number) {
    let magnitude = BigInt(seed);
    if (magnitude < 0n) magnitude = -magnitude;
    const key: number[] = [];
    while (magnitude > 0n) {
      key.push(Number(magnitude & 0xffffffffn));
      magnitude >>= 32n;
    }
    if (key.length === 0) key.push(0);
    this.#initByArray(key);
  }

  #initGenrand(seed: number): void {
    const state = this.#state;
    state[0] = seed >>> 0;
    for (let index = 1; index < N; index++) {
      const previous = state[index - 1] ^ (state[index - 1] >>> 30);
      state[index] = (Math.imul(1812433253, previous) + index) >>> 0;
    }
    this.#index = N;
  }

  #initByArray(key: readonly number[]): void {
    this.#initGenrand(19650218);
    const state = this.#state;
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const previous = state[i - 1] ^ (state[i - 1] >>> 30);
      state[i] = ((state[i] ^ Math.imul(previous, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        state[0] = state[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const previous = state[i - 1] ^ (state[i - 1] >>> 30);
      state[i] = ((state[i] ^ Math.imul(previous, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        state[0] = state[N - 1];
        i = 1;
      }
    }
    state[0] = 0x80000000;
  }

  /**
   * Regenerates the 624 words of state (CPython's `genrand_uint32` refill) and rewinds the index. The matrix is
   * applied by mask, not by a branch on a random bit.
   */
  #twist(): void {
    const state = this.#state;
    let k = 0;
    for (; k < N - M; k++) {
      const y = (state[k] & 0x80000000) | (state[k + 1] & 0x7fffffff);
      state[k] = state[k + M] ^ (y >>> 1) ^ (-(y & 1) & 0x9908b0df);
    }
    for (; k < N - 1; k++) {
      const y = (state[k] & 0x80000000) | (state[k + 1] & 0x7fffffff);
      state[k] = state[k + (M - N)] ^ (y >>> 1) ^ (-(y & 1) & 0x9908b0df);
    }
    const y = (state[N - 1] & 0x80000000) | (state[0] & 0x7fffffff);
    state[N - 1] = state[M - 1] ^ (y >>> 1) ^ (-(y & 1) & 0x9908b0df);
    this.#index = 0;
  }

  /** The next 32-bit output (CPython's `genrand_uint32`). */
  nextUint32(): number {
    const state = this.#state;
    if (this.#index >= N) this.#twist();
    let y = state[this.#index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /**
   * Python's `getrandbits(k)` for 1 ≤ k ≤ 32, as a number.
   *
   * @param k How many bits, 1 to 32.
   * @returns The next `k` random bits (the top bits of the next 32-bit output).
   * @throws {RangeError} When `k` is not a whole number in [1, 32].
   *
   * @example
   * ```ts
   * import { strictEqual, throws } from "node:assert/strict";
   * import { PythonRandom } from "./random.ts";
   * strictEqual(new PythonRandom(0n).getrandbits(32), 3626764237); // Python: random.Random(0).getrandbits(32)
   * strictEqual(new PythonRandom(-5n).getrandbits(32), 2675342405); // seeds by |seed|, as Python does
   * throws(() => new PythonRandom(0n).getrandbits(33), RangeError);
   * ```
   */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 1 || k > 32) throw new RangeError("k must be in [1, 32]");
    return this.nextUint32() >>> (32 - k);
  }

  /**
   * Python's `getrandbits(k)` for any k ≥ 1: low 32-bit words first, the last word's top bits.
   *
   * @param k How many bits, at least 1.
   * @returns The next `k` random bits.
   * @throws {RangeError} When `k` is not a whole number ≥ 1.
   *
   * @example
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { PythonRandom } from "./random.ts";
   * // Python: random.Random(1).getrandbits(70)
   * strictEqual(new PythonRandom(1n).getrandbitsBig(70), 1006624138111981302261n);
   * ```
   */
  getrandbitsBig(k: number): bigint {
    if (!Number.isInteger(k) || k < 1) throw new RangeError("k must be ≥ 1");
    let result = 0n;
    let shift = 0n;
    for (let remaining = k; remaining > 0; remaining -= 32) {
      let word = this.nextUint32();
      if (remaining < 32) word >>>= 32 - remaining;
      result |= BigInt(word) << shift;
      shift += 32n;
    }
    return result;
  }

  /**
   * Fills `out` with successive `randrange(n)` draws (for 1 ≤ n < 2^32): the same numbers as calling
   * {@linkcode PythonRandom.randrange} once per slot, in one loop a cold process compiles quickly.
   *
   * @example
   * ```ts
   * import { deepStrictEqual } from "node:assert/strict";
   * import { PythonRandom } from "./random.ts";
   * const draws = new Uint32Array(3);
   * new PythonRandom(0n).fillRandrange(1000, draws);
   * const one = new PythonRandom(0n);
   * deepStrictEqual([...draws], [one.randrange(1000), one.randrange(1000), one.randrange(1000)]);
   * ```
   */
  fillRandrange(n: number, out: Uint32Array): void {
    if (!Number.isInteger(n) || n < 1 || n > 0xffffffff) {
      throw new RangeError("n must be a whole number in [1, 2^32)");
    }
    const shift = Math.clz32(n);
    const state = this.#state;
    let index = this.#index;
    for (let slot = 0; slot < out.length;) {
      if (index >= N) {
        this.#twist();
        index = 0;
      }
      // Tempering inlined: the same words as nextUint32(), without a call per draw.
      let y = state[index++];
      y ^= y >>> 11;
      y ^= (y << 7) & 0x9d2c5680;
      y ^= (y << 15) & 0xefc60000;
      y ^= y >>> 18;
      const value = (y >>> 0) >>> shift;
      if (value < n) out[slot++] = value;
    }
    this.#index = index;
  }

  /**
   * The bootstrap's draws, summed: for each resample `r`, draws `codes.length` values as `randrange(codes.length)`
   * would (the same words as {@linkcode PythonRandom.fillRandrange}) and sets `firsts[r]` to how many drawn codes
   * have bit 0 set and `seconds[r]` to how many have bit 1 set. The generator continues after the last word used,
   * as if the draws had been made one by one.
   *
   * @param codes One code per item (bit 0: first, bit 1: second); at least one.
   * @param firsts Receives the first totals, one per resample.
   * @param seconds Receives the second totals; as long as `firsts`.
   * @throws {RangeError} When `codes` is empty or the two outputs differ in length.
   *
   * @example
   * ```ts
   * import { deepStrictEqual } from "node:assert/strict";
   * import { PythonRandom } from "./random.ts";
   * const codes = Uint8Array.of(0, 1, 2, 3); // neither, first only, second only, both
   * const [firsts, seconds] = [new Int32Array(2), new Int32Array(2)];
   * new PythonRandom(7n).sumDraws(codes, firsts, seconds);
   * const draws = new Uint32Array(8);
   * new PythonRandom(7n).fillRandrange(4, draws); // the same eight draws, one by one
   * const count = (from: number, bit: number) => [...draws.slice(from, from + 4)].filter((v) => codes[v] & bit).length;
   * deepStrictEqual([...firsts, ...seconds], [count(0, 1), count(4, 1), count(0, 2), count(4, 2)]);
   * ```
   */
  sumDraws(codes: Uint8Array, firsts: Int32Array, seconds: Int32Array): void {
    const n = codes.length;
    if (n < 1) throw new RangeError("sumDraws needs at least one code");
    if (firsts.length !== seconds.length) throw new RangeError("firsts and seconds differ in length");
    const shift = Math.clz32(n);
    // One entry per value the draw's bits can take: code | 4 below n, 0 at or above (a rejected word), so the
    // loop has no branch on a rejection, which is random and so mispredicted a third of the time.
    const entries = new Uint8Array(2 ** (32 - shift));
    for (let value = 0; value < n; value++) entries[value] = (codes[value] & 3) | 4;
    const state = this.#state;
    let index = this.#index;
    for (let resample = 0; resample < firsts.length; resample++) {
      let first = 0;
      let second = 0;
      for (let drawn = 0; drawn < n;) {
        if (index >= N) {
          this.#twist();
          index = 0;
        }
        // Tempering inlined, as in fillRandrange: no call and no allocation per draw.
        let y = state[index++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        const entry = entries[y >>> shift];
        first += entry & 1;
        second += (entry >> 1) & 1;
        drawn += entry >> 2;
      }
      firsts[resample] = first;
      seconds[resample] = second;
    }
    this.#index = index;
  }

  /**
   * Python's `randrange(n)`: rejection sampling on `n.bit_length()` bits.
   *
   * @param n The exclusive upper bound, a whole number ≥ 1.
   * @returns A number in [0, n).
   * @throws {RangeError} When `n` is not a safe whole number ≥ 1.
   *
   * @example
   * ```ts
   * import { strictEqual, throws } from "node:assert/strict";
   * import { PythonRandom } from "./random.ts";
   * strictEqual(new PythonRandom(0n).randrange(1000), 864); // Python: random.Random(0).randrange(1000)
   * throws(() => new PythonRandom(0n).randrange(0), RangeError);
   * ```
   */
  randrange(n: number): number {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError("n must be a whole number ≥ 1");
    if (n <= 0xffffffff) {
      // n.bit_length() without a string per draw: the bootstrap draws about a million times.
      const shift = Math.clz32(n);
      let value = this.nextUint32() >>> shift;
      while (value >= n) value = this.nextUint32() >>> shift;
      return value;
    }
    const bits = n.toString(2).length;
    const limit = BigInt(n);
    let value = this.getrandbitsBig(bits);
    while (value >= limit) value = this.getrandbitsBig(bits);
    return Number(value);
  }
}
