/**
 * The bootstrap's inner loop — MT19937 draws by rejection, summed per resample — as a small WebAssembly module.
 * `verify`, `grade-qa` and `conformance` re-derive three 10,000-resample bootstraps (about 1.4 million Mersenne
 * Twister words) in a fresh process, where JavaScript runs interpreted until V8 has optimised it; WebAssembly is
 * compiled before its first call, so the same loop costs a fraction from the start.
 *
 * The module is assembled here from the listing below (no build step, no binary in the repository); what it
 * computes is exactly {@linkcode PythonRandom.fillRandrange}'s draws, which the tests check word for word.
 *
 * ```wat
 * (memory (export "memory") 1)            ;; [0, 2496): the 624 state words; then the codes; then the totals
 * (func $twist (local $k i32) (local $y i32) (local $next i32) (local $far i32)
 *   ;; for k in 0..623: y = upper(mt[k]) | lower(mt[k+1 mod 624]);
 *   ;;                  mt[k] = mt[k+397 mod 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)
 * )
 * (func (export "draw") (param $n $shift $resamples $index $codes $totals i32) (result i32)
 *   ;; per resample: draw n values v = temper(next word) >>> shift, skipping v >= n (Python's randrange)
 *   ;; without a branch: a rejected word adds nothing;
 *   ;; add bit 0 of codes[v] to the first total and bit 1 to the second; store the first totals as i32s
 *   ;; at $totals, the second totals right after them.
 *   ;; returns the state index after the last word used.
 * )
 * ```
 *
 * @module
 */

const STATE_WORDS = 624;
/** Bytes the state occupies at the start of the module's memory. */
export const STATE_BYTES: number = STATE_WORDS * 4;

// The few WebAssembly opcodes the listing needs (https://webassembly.github.io/spec/core/binary/instructions.html).
const I32 = 0x7f;
const OP = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: 0x0c,
  brIf: 0x0d,
  call: 0x10,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  load: [0x28, 2, 0],
  load8: [0x2d, 0, 0],
  store: [0x36, 2, 0],
  const: 0x41,
  eq: [0x46],
  ltU: [0x49],
  geU: [0x4f],
  add: [0x6a],
  sub: [0x6b],
  and: [0x71],
  or: [0x72],
  xor: [0x73],
  shl: [0x74],
  shrU: [0x76],
  select: [0x1b],
} as const;

function unsignedLeb(value: number): number[] {
  const bytes = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

function signedLeb(value: number): number[] {
  const bytes = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      return [...bytes, byte];
    }
    bytes.push(byte | 0x80);
  }
}

const get = (local: number) => [OP.localGet, local];
const set = (local: number) => [OP.localSet, local];
const tee = (local: number) => [OP.localTee, local];
const i32 = (value: number) => [OP.const, ...signedLeb(value | 0)];
const br = (depth: number) => [OP.br, depth];
const brIf = (depth: number) => [OP.brIf, depth];
/** `local = local OP value`, the listing's most common line. */
const update = (local: number, ...operation: (readonly number[])[]) => [
  ...get(local),
  ...operation.flat(),
  ...set(local),
];

// $twist's locals: k, y, next, far.
const [K, Y, NEXT, FAR] = [0, 1, 2, 3];
const TWIST = [
  ...i32(0),
  ...set(K),
  ...OP.loop,
  // next = k + 1, wrapping to 0; far = k + 397, wrapping past 624
  ...get(K),
  ...i32(1),
  ...OP.add,
  ...set(NEXT),
  ...get(NEXT),
  ...i32(STATE_WORDS),
  ...OP.eq,
  ...OP.if,
  ...i32(0),
  ...set(NEXT),
  ...OP.end,
  ...get(K),
  ...i32(397),
  ...OP.add,
  ...set(FAR),
  ...get(FAR),
  ...i32(STATE_WORDS),
  ...OP.geU,
  ...OP.if,
  ...update(FAR, i32(STATE_WORDS), OP.sub),
  ...OP.end,
  // y = (mt[k] & 0x80000000) | (mt[next] & 0x7fffffff)
  ...get(K),
  ...i32(2),
  ...OP.shl,
  ...OP.load,
  ...i32(0x80000000),
  ...OP.and,
  ...get(NEXT),
  ...i32(2),
  ...OP.shl,
  ...OP.load,
  ...i32(0x7fffffff),
  ...OP.and,
  ...OP.or,
  ...set(Y),
  // mt[k] = mt[far] ^ (y >>> 1) ^ ((0 - (y & 1)) & 0x9908b0df)
  ...get(K),
  ...i32(2),
  ...OP.shl,
  ...get(FAR),
  ...i32(2),
  ...OP.shl,
  ...OP.load,
  ...get(Y),
  ...i32(1),
  ...OP.shrU,
  ...OP.xor,
  ...i32(0),
  ...get(Y),
  ...i32(1),
  ...OP.and,
  ...OP.sub,
  ...i32(0x9908b0df),
  ...OP.and,
  ...OP.xor,
  ...OP.store,
  ...get(K),
  ...i32(1),
  ...OP.add,
  ...tee(K),
  ...i32(STATE_WORDS),
  ...OP.ltU,
  ...brIf(0),
  ...OP.end,
];

// draw's parameters, then its locals.
const [N, SHIFT, RESAMPLES, INDEX, CODES, TOTALS] = [0, 1, 2, 3, 4, 5];
const [RESAMPLE, DRAWN, FIRST, SECOND, WORD, VALUE, CODE, ACCEPTED] = [6, 7, 8, 9, 10, 11, 12, 13];
const DRAW = [
  ...i32(0),
  ...set(RESAMPLE),
  ...OP.block,
  ...OP.loop,
  ...get(RESAMPLE),
  ...get(RESAMPLES),
  ...OP.geU,
  ...brIf(1),
  ...i32(0),
  ...set(FIRST),
  ...i32(0),
  ...set(SECOND),
  ...i32(0),
  ...set(DRAWN),
  // One word per pass; a word at or above n is rejected (Python's randrange(n)) without a branch, since about
  // a third are and a mispredicted jump costs more than the arithmetic: `accepted` masks what it adds.
  ...OP.loop,
  ...get(INDEX),
  ...i32(STATE_WORDS),
  ...OP.geU,
  ...OP.if,
  OP.call,
  0,
  ...i32(0),
  ...set(INDEX),
  ...OP.end,
  ...get(INDEX),
  ...i32(2),
  ...OP.shl,
  ...OP.load,
  ...set(WORD),
  ...update(INDEX, i32(1), OP.add),
  // Tempering, as genrand_uint32 does it.
  ...update(WORD, get(WORD), i32(11), OP.shrU, OP.xor),
  ...update(WORD, get(WORD), i32(7), OP.shl, i32(0x9d2c5680), OP.and, OP.xor),
  ...update(WORD, get(WORD), i32(15), OP.shl, i32(0xefc60000), OP.and, OP.xor),
  ...update(WORD, get(WORD), i32(18), OP.shrU, OP.xor),
  ...get(WORD),
  ...get(SHIFT),
  ...OP.shrU,
  ...tee(VALUE),
  ...get(N),
  ...OP.ltU,
  ...set(ACCEPTED),
  // code = codes[accepted ? value : 0]
  ...get(CODES),
  ...get(VALUE),
  ...i32(0),
  ...get(ACCEPTED),
  ...OP.select,
  ...OP.add,
  ...OP.load8,
  ...set(CODE),
  ...update(FIRST, get(CODE), get(ACCEPTED), OP.and, OP.add),
  ...update(SECOND, get(CODE), i32(1), OP.shrU, get(ACCEPTED), OP.and, OP.add),
  ...update(DRAWN, get(ACCEPTED), OP.add),
  ...get(DRAWN),
  ...get(N),
  ...OP.ltU,
  ...brIf(0),
  ...OP.end,
  // The first totals, then the second: totals[resample] = first; totals[resamples + resample] = second
  ...get(TOTALS),
  ...get(RESAMPLE),
  ...i32(2),
  ...OP.shl,
  ...OP.add,
  ...get(FIRST),
  ...OP.store,
  ...get(TOTALS),
  ...get(RESAMPLES),
  ...get(RESAMPLE),
  ...OP.add,
  ...i32(2),
  ...OP.shl,
  ...OP.add,
  ...get(SECOND),
  ...OP.store,
  ...update(RESAMPLE, i32(1), OP.add),
  ...br(0),
  ...OP.end,
  ...OP.end,
  ...get(INDEX),
];

function vector(items: (readonly number[])[]): number[] {
  return [...unsignedLeb(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
  return [id, ...unsignedLeb(body.length), ...body];
}

function functionBody(locals: number, code: number[]): number[] {
  const body = [...vector(locals > 0 ? [[...unsignedLeb(locals), I32]] : []), ...code, ...OP.end];
  return [...unsignedLeb(body.length), ...body];
}

function name(text: string): number[] {
  return [...unsignedLeb(text.length), ...new TextEncoder().encode(text)];
}

/**
 * The module's bytes: types, functions ($twist = 0, draw = 1), one page of memory, exports `memory` and `draw`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { kernelBytes } from "./_random_kernel.ts";
 * strictEqual(WebAssembly.validate(kernelBytes()), true);
 * ```
 */
export function kernelBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, 0, 0], [0x60, ...vector(Array(6).fill([I32])), ...vector([[I32]])]])),
    ...section(3, vector([[0], [1]])),
    ...section(5, vector([[0x00, 1]])),
    ...section(7, vector([[...name("memory"), 2, 0], [...name("draw"), 0, 1]])),
    ...section(10, vector([functionBody(4, TWIST), functionBody(8, DRAW)])),
  ]);
}

/** The instantiated kernel. */
export interface DrawKernel {
  /** State words at 0, then whatever the caller lays out; grown by the caller as needed. */
  memory: WebAssembly.Memory;
  /** Sums `resamples` resamples of `n` draws (see the module listing); returns the new state index. */
  draw: (n: number, shift: number, resamples: number, index: number, codes: number, totals: number) => number;
}

let instance: DrawKernel | undefined;

/**
 * The kernel, compiled on first use and kept for the process.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { drawKernel } from "./_random_kernel.ts";
 * strictEqual(drawKernel(), drawKernel()); // compiled once
 * ```
 */
export function drawKernel(): DrawKernel {
  if (instance === undefined) {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(kernelBytes()));
    instance = { memory: exports.memory as WebAssembly.Memory, draw: exports.draw as DrawKernel["draw"] };
  }
  return instance;
}
