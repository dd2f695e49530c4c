/**
 * The C math library the reference runs on, reproduced bit for bit. CPython 3.11's `math.log1p` is glibc's
 * `log1p`, which on an x86_64 CPU with FMA is `__log1p_fma`: fdlibm's `s_log1p.c` compiled with fused
 * multiply-adds. V8's built-in log1p is a different (correctly rounded) algorithm that disagrees in the last bit
 * on a few percent of inputs, so the selector uses {@linkcode log1p} from here. `x ** y` needs no port: V8 calls
 * the system's `pow`, which on the reference platform is the same glibc routine CPython calls.
 *
 * Follows Debian glibc 2.36 (`sysdeps/ieee754/dbl-64/s_log1p.c`, built as `__log1p_fma` by
 * `sysdeps/x86_64/fpu/multiarch/s_log1p-fma.c`), the reference platform's libm.
 *
 * @module
 */

// One 8-byte scratch buffer reads a double's high and low 32-bit words, as fdlibm's GET_HIGH_WORD does.
const scratch = new Float64Array(1);
const words = new Int32Array(scratch.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const LOW = LITTLE_ENDIAN ? 0 : 1;
const HIGH = LITTLE_ENDIAN ? 1 : 0;

/** Veltkamp's constant 2^27 + 1: splits a double into two halves of at most 26 significant bits each. */
const SPLITTER = 134217729;
/** 2^48 + 1: its Veltkamp split keeps 5 significant bits, so it leaves a double unchanged iff it has ≤ 5. */
const SPLITTER_5 = 281474976710657;
/** 2^-53 · (1 + 2^-52): x − φ·|x| rounds to the double below x (Rump, Zimmermann, Boldo, Melquiond 2009). */
const PHI = 2 ** -53 + 2 ** -105;
/** 2^-52: twice the bound on a product's rounding error relative to the product. */
const EPSILON = 2 ** -52;
const abs = Math.abs;

/** The high half of Veltkamp's split: at most 26 significant bits, and `b − splitHigh(b)` is exact. */
function splitHigh(b: number): number {
  const t = SPLITTER * b;
  return t - (t - b);
}

/**
 * `low` rounded to odd, where the exact value is `low + lowError` with `lowError` nonzero and below half an ulp
 * of `low`: `low` when its last significand bit is 1, otherwise its neighbour on the side of `lowError`. Adding
 * it to the high part then rounds once, as if the whole sum were rounded (Boldo and Melquiond, "Emulation of FMA
 * and correctly rounded sums: proved algorithms using rounding to odd", 2008).
 */
function roundedToOdd(low: number, lowError: number): number {
  scratch[0] = low;
  const lowWord = words[LOW];
  if ((lowWord & 1) === 1) return low;
  if ((lowError > 0) === (low > 0)) {
    words[LOW] = lowWord + 1; // one ulp away from zero; the last bit is 0, so nothing carries
  } else {
    if (lowWord === 0) words[HIGH] -= 1; // one ulp toward zero borrows from the high word
    words[LOW] = lowWord - 1;
  }
  return scratch[0];
}

/**
 * `a × b + c` rounded once, with `b` already split into `bHigh + bLow`: an exact Dekker product, an exact
 * TwoSum with `c`, and the low part rounded to odd before the final rounding.
 */
function fmaSplit(a: number, b: number, bHigh: number, bLow: number, c: number): number {
  // Dekker: product + productError = a × b exactly.
  const product = a * b;
  const t = SPLITTER * a;
  const aHigh = t - (t - a);
  const aLow = a - aHigh;
  const productError = ((aHigh * bHigh - product) + aHigh * bLow + aLow * bHigh) + aLow * bLow;
  // Knuth's TwoSum: sum + sumError = product + c exactly.
  const sum = product + c;
  const sumPart = sum - product;
  const sumError = (product - (sum - sumPart)) + (c - sumPart);
  const low = sumError + productError;
  const lowPart = low - sumError;
  const lowError = (sumError - (low - lowPart)) + (productError - lowPart);
  const rounded = sum + low;
  // Rounding `low` to odd changes the result only when `low` is inexact and sum + low is a midpoint. An inexact
  // `low` means no cancellation (when product + c cancels, `sum` is exact and low = productError), so
  // |low| ≤ ulp(sum)/2 + ulp(product)/2 ≤ 1.5·ulp(sum), and a midpoint's offset from `sum` then has at most 3
  // significant bits: a `low` with more than 5 rules it out, and the rare rest takes the bit-level path.
  const split = low * SPLITTER_5;
  if (lowError === 0 || split - (split - low) !== low) return rounded;
  return sum + roundedToOdd(low, lowError);
}

/** `a × b + c` in one rounding, for operands in {@linkcode fma}'s exact range. */
function fmaInRange(a: number, b: number, c: number): number {
  const bHigh = splitHigh(b);
  return fmaSplit(a, b, bHigh, b - bHigh, c);
}

/** Below this the product's error term could underflow. */
const FMA_MIN_PRODUCT = 2 ** -969;
/** Above this a factor's Veltkamp split overflows. */
const FMA_MAX_FACTOR = 2 ** 995;
/** Above this the product or the sum could overflow. */
const FMA_MAX = 2 ** 1022;

/**
 * The fused multiply-add `a × b + c` with a single rounding (to nearest, ties to even), in software: an exact
 * Dekker/Veltkamp product, an exact TwoSum with `c`, and the low part rounded to odd before the final rounding.
 *
 * Exact when |a|, |b| < 2^995, |c| < 2^1022 and 2^-969 ≤ |a × b| < 2^1022, so that neither the split nor the
 * error terms overflow or underflow; every operand `log1p` passes lies far inside that. Otherwise — a zero
 * product, infinities, NaN, extreme magnitudes — it returns `a × b + c` rounded twice, which is exact whenever
 * the product is.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { fma } from "./libm.ts";
 * const a = 1 + 2 ** -30;
 * deepStrictEqual([fma(a, a, -1) === 2 ** -29 + 2 ** -60, a * a - 1 === 2 ** -29], [true, true]);
 * ```
 */
export function fma(a: number, b: number, c: number): number {
  const product = a * b;
  const size = abs(product);
  const inRange = size >= FMA_MIN_PRODUCT && size < FMA_MAX && abs(a) < FMA_MAX_FACTOR &&
    abs(b) < FMA_MAX_FACTOR && abs(c) < FMA_MAX;
  if (!inRange) return product + c;
  // The product no larger than the addend, with the same sign: the fast path most of log1p's steps take.
  if (product > 0 && product <= c) return fmaSmallProduct(a, b, c);
  if (product < 0 && product >= c) return -fmaSmallProduct(-a, b, -c);
  return fmaInRange(a, b, c);
}

/**
 * {@linkcode fma} for 0 ≤ a × b ≤ c, fast in the usual case. The exact value is sum + sumError + productError
 * with |productError| ≤ 2^-53·(a × b); while that lies nearer to `sum` than half the gap below it (never wider
 * than the gap above), the answer is `sum` itself, and only the rest (about one call in two hundred in log1p)
 * computes the exact product.
 */
function fmaSmallProduct(a: number, b: number, c: number): number {
  const product = a * b;
  const sum = c + product;
  const sumError = product - (sum - c); // exact (Dekker's FastTwoSum), since c ≥ product
  const gapBelow = sum - (sum - sum * PHI);
  if (2 * abs(sumError) + product * EPSILON < gapBelow) return sum;
  // The unary plus (an identity on numbers) types the result as a number, so `sum` stays unboxed.
  return +fmaInRange(a, b, c);
}

/*
 * The port of glibc's log1p follows sysdeps/ieee754/dbl-64/s_log1p.c as read in the bminor/glibc mirror at
 * commit 76dfd91275c57fa09412436671572337226a90a2; its arithmetic is the same in older copies, so in glibc
 * 2.36. The x86_64 multiarch build compiles that same file with FMA enabled as __log1p_fma
 * (sysdeps/x86_64/fpu/multiarch/s_log1p-fma.c; Debian 12 backported it in glibc 2.36-9+deb12u10). Its notice:
 *
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunPro, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 *
 * glibc's copy adds: "Modified by Naohiko Shimizu/Tokai University, Japan 1997/08/25, for performance
 * improvement on pipelined processors."
 *
 * Method: 1 + x = 2^k × (1 + f) with √2/2 < 1 + f < √2, plus c, the rounding error of u = 1 + x, over u;
 * log(1 + f) = 2s + s·R(s²) with s = f / (2 + f) and R a degree-14 polynomial; log1p(x) = k·ln2_hi +
 * (f − (hfsq − (s·(hfsq + R) + (k·ln2_lo + c)))) with hfsq = f²/2.
 *
 * Where GCC contracted an expression into one fused multiply-add in __log1p_fma (read from the disassembly of
 * Debian's libm.so.6), the port calls an fma at the same place; every other operation rounds as in C.
 */

const LN2_HI = 6.93147180369123816490e-01; // 3fe62e42 fee00000
const LN2_LO = 1.90821492927058770002e-10; // 3dea39ef 35793c76
const LP1 = 6.666666666666735130e-01; // 3fe55555 55555593
const LP2 = 3.999999999940941908e-01; // 3fd99999 9997fa04
const LP3 = 2.857142874366239149e-01; // 3fd24924 94229359
const LP4 = 2.222219843214978396e-01; // 3fcc71c5 1d8e78af
const LP5 = 1.818357216161805012e-01; // 3fc74664 96cb03de
const LP6 = 1.531383769920937332e-01; // 3fc39a09 d078c69f
const LP7 = 1.479819860511658591e-01; // 3fc2f112 df3e5244
/** The C source's 0.66666666666666666, which is the double nearest 2/3. */
const TWO_THIRDS = 0.66666666666666666;

// The constant factors of the two fused steps whose product dominates, split once.
const LP1_HIGH = splitHigh(LP1);
const LP1_LOW = LP1 - LP1_HIGH;
const LN2_LO_HIGH = splitHigh(LN2_LO);
const LN2_LO_LOW = LN2_LO - LN2_LO_HIGH;

/** 2^-k at index k + 53, for the exponents k ∈ [−53, 1024] that u = 1 + x reaches. */
const POW2_NEGATED = Float64Array.from({ length: 1078 }, (_, index) => 2 ** (53 - index));

/**
 * `log(1 + x)` exactly as glibc's `__log1p_fma` computes it (CPython's `math.log1p` on x86_64 Linux with FMA),
 * bit for bit for every double: a port of fdlibm's `s_log1p.c` with GCC's fused multiply-adds in the same
 * places. −1 gives −∞, below −1 and NaN give NaN, ±0 and +∞ give themselves.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { log1p } from "./libm.ts";
 * deepStrictEqual(log1p(1.809267726692137), 1.0329238539015262); // (glibc; V8's built-in log1p is one ulp lower)
 * ```
 */
export function log1p(x: number): number {
  // One function, over 60 lines: fdlibm's s_log1p.c step for step, so that it can be read against the C.
  scratch[0] = x;
  const hx = words[HIGH]; // the signed high word, as fdlibm's int32_t
  const ax = hx & 0x7fffffff;
  let k = 1;
  let f = 0;
  let c = 0;
  let hu = 0;
  if (hx < 0x3fda827a) { // x < 0.41422
    if (ax >= 0x3ff00000) return x === -1 ? -Infinity : NaN; // x ≤ −1 (and negative NaN)
    if (ax < 0x3e200000) return ax < 0x3c900000 ? x : x - x * x * 0.5; // |x| < 2^-29
    if (hx > 0 || hx <= (0xbfd2bec3 | 0)) { // −0.2929 < x < 0.41422: f = x exactly
      k = 0;
      f = x;
      hu = 1;
    }
  } else if (hx >= 0x7ff00000) {
    return x + x; // +∞ or NaN
  }
  if (k !== 0) {
    let u: number;
    if (hx < 0x43400000) {
      u = 1 + x;
      scratch[0] = u;
      hu = words[HIGH];
      k = (hu >> 20) - 1023;
      c = k > 0 ? 1 - (u - x) : x - (u - 1); // the rounding error of 1 + x
      c /= u;
    } else {
      u = x; // 1 + x rounds to x
      hu = hx;
      k = (hu >> 20) - 1023;
      c = 0;
    }
    hu &= 0x000fffff;
    if (hu >= 0x6a09e) {
      k += 1; // normalize u/2 to [√2/2, 1) rather than u to [1, √2)
      hu = (0x00100000 - hu) >> 2;
    }
    // C rewrites u's exponent field; scaling by 2^-k is the same exact operation without a store and reload.
    f = u * POW2_NEGATED[k + 53] - 1;
  }
  const hfsq = 0.5 * f * f;
  if (hu === 0) { // |f| < 2^-20
    if (f === 0) return k === 0 ? 0 : k * LN2_HI + fmaSplit(k, LN2_LO, LN2_LO_HIGH, LN2_LO_LOW, c);
    const R = hfsq * fmaInRange(-f, TWO_THIRDS, 1);
    if (k === 0) return f - R;
    return k * LN2_HI - ((R - fmaSplit(k, LN2_LO, LN2_LO_HIGH, LN2_LO_LOW, c)) - f);
  }
  const s = f / (2 + f);
  const z = s * s; // z < 0.0295: each product below is far smaller than the term added to it, but z·Lp1
  const z2 = z * z;
  const R2 = fmaSmallProduct(z, LP3, LP2);
  const z4 = z2 * z2;
  const R3 = fmaSmallProduct(z, LP5, LP4);
  const z6 = z4 * z2;
  const R4 = fmaSmallProduct(z, LP7, LP6);
  // C's `R1 + z2*R2 + z4*R3 + z6*R4` with R1 = z*Lp1: GCC fused every product, z*Lp1 with the rounded z2*R2.
  const R = fmaSmallProduct(z6, R4, fmaSmallProduct(z4, R3, fmaSplit(z, LP1, LP1_HIGH, LP1_LOW, z2 * R2)));
  if (k === 0) return f - (hfsq - s * (hfsq + R));
  return k * LN2_HI - ((hfsq - (s * (hfsq + R) + fmaSplit(k, LN2_LO, LN2_LO_HIGH, LN2_LO_LOW, c))) - f);
}

/**
 * `x ** y` as CPython computes it: V8's `**` calls the platform's `pow`, which on the reference platform
 * (x86_64 glibc) is the routine CPython calls, so the two agree bit for bit there; on another libm (macOS,
 * musl) they may not, which `conformance` shows on the `pow` lines of `libm.jsonl`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pow } from "./libm.ts";
 * deepStrictEqual(pow(0.5, 2), 0.25);
 * ```
 */
export function pow(x: number, y: number): number {
  return x ** y;
}
