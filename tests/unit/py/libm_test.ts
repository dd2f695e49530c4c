import { doubleToHex, hexToDouble } from "../../../lib/conformance/float_bits.ts";
import { selectFactsForCapacity } from "../../../lib/policy/mod.ts";
import { fma, log1p, pow } from "../../../lib/py/libm.ts";
import { PythonRandom } from "../../../lib/py/random.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { GOLDEN, ROOT } from "../../helpers/cli.ts";

interface LibmLine {
  fn: "log1p" | "pow";
  x: string;
  y: string;
  z?: string;
}

const LINES: LibmLine[] = (await Deno.readTextFile(`${GOLDEN}/vectors/libm.jsonl`))
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));

Deno.test("log1p agrees with CPython (glibc __log1p_fma) on every log1p line of libm.jsonl", () => {
  const lines = LINES.filter((line) => line.fn === "log1p");
  assertEquals(lines.length, 4080);
  const disagreements = lines.filter((line) => doubleToHex(log1p(hexToDouble(line.x))) !== line.y);
  assertEquals(disagreements.map((line) => `${line.x} → ${line.y}`), []);
  // The file is a real test of the port: V8's own log1p misses many of these lines.
  const v8 = lines.filter((line) => doubleToHex(Math.log1p(hexToDouble(line.x))) !== line.y).length;
  assert(v8 > 1000, `Math.log1p disagrees on ${v8} lines`);
});

Deno.test("pow agrees with CPython's x ** y on every pow line of libm.jsonl", () => {
  const lines = LINES.filter((line) => line.fn === "pow");
  assertEquals(lines.length, 1500);
  const disagreements = lines.filter((line) =>
    doubleToHex(pow(hexToDouble(line.x), hexToDouble(line.y))) !== line.z
  );
  assertEquals(disagreements.map((line) => `${line.x} ** ${line.y} → ${line.z}`), []);
});

Deno.test("log1p: special values and the heat the issue names", () => {
  assertEquals(log1p(-1), -Infinity);
  assert(Number.isNaN(log1p(-2)));
  assert(Number.isNaN(log1p(-Infinity)));
  assert(Number.isNaN(log1p(NaN)));
  assertEquals(log1p(Infinity), Infinity);
  assert(Object.is(log1p(0), 0));
  assert(Object.is(log1p(-0), -0));
  assertEquals(log1p(2 ** -60), 2 ** -60);
  assertEquals(log1p(Number.MAX_VALUE), 709.782712893384);
  // glibc gives 3ff086db29bc3ed2 here, V8's correctly rounded Math.log1p one ulp less (issue #11).
  assertEquals(doubleToHex(log1p(1.809267726692137)), "3ff086db29bc3ed2");
  assertEquals(doubleToHex(Math.log1p(1.809267726692137)), "3ff086db29bc3ed1");
});

Deno.test("the selector's accessHeat is glibc's: log1p(heat) / log(9) with this log1p", () => {
  const now = "2026-08-13T00:00:00Z";
  const result = selectFactsForCapacity([{ id: "a", confidence: 0.5 }], {
    maxFacts: 1,
    policy: "hybrid-v1",
    now,
    usage: { a: { accessHeat: 1.809267726692137, lastAccessedAt: now } },
  });
  // The value: CPython gives 3fde162eb0645190; Math.log1p would give 3fde162eb064518e.
  assertEquals(doubleToHex(result.scores.get("a")!.components.accessHeat!), "3fde162eb0645190");
});

// ---------------------------------------------------------------------------------------------------------
// An independent reference for fma: exact rational arithmetic on BigInt, rounded to nearest, ties to even.

/** A finite double as an exact integer times a power of two. */
function decompose(value: number): { mantissa: bigint; exponent: number } {
  const bits = BigInt(`0x${doubleToHex(value)}`);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const magnitude = biased === 0 ? fraction : fraction | (1n << 52n);
  return {
    mantissa: bits >> 63n === 1n ? -magnitude : magnitude,
    exponent: (biased === 0 ? 1 : biased) - 1075,
  };
}

/** mantissa · 2^exponent rounded to the nearest double (ties to even); normal results only. */
function roundToDouble(mantissa: bigint, exponent: number): number {
  if (mantissa === 0n) return 0;
  const negative = mantissa < 0n;
  let magnitude = negative ? -mantissa : mantissa;
  let shift = magnitude.toString(2).length - 53;
  if (shift > 0) {
    const remainder = magnitude & ((1n << BigInt(shift)) - 1n);
    const half = 1n << BigInt(shift - 1);
    magnitude >>= BigInt(shift);
    if (remainder > half || (remainder === half && (magnitude & 1n) === 1n)) magnitude += 1n;
    if (magnitude === 1n << 53n) {
      magnitude >>= 1n;
      shift += 1;
    }
  } else {
    shift = 0;
  }
  const scale = exponent + shift;
  // A 53-bit magnitude times 2^scale is a normal double for scale in [−1074, 971].
  assert(scale >= -1074 && scale <= 971, `reference result out of the normal range: 2^${scale}`);
  // Two exact power-of-two scalings keep every intermediate normal.
  const result = Number(magnitude) * 2 ** Math.trunc(scale / 2) * 2 ** (scale - Math.trunc(scale / 2));
  return negative ? -result : result;
}

function exactFma(a: number, b: number, c: number): number {
  const left = decompose(a);
  const right = decompose(b);
  const addend = decompose(c);
  const productExponent = left.exponent + right.exponent;
  const exponent = Math.min(productExponent, addend.exponent);
  const product = (left.mantissa * right.mantissa) << BigInt(productExponent - exponent);
  return roundToDouble(product + (addend.mantissa << BigInt(addend.exponent - exponent)), exponent);
}

function check(a: number, b: number, c: number): void {
  const want = exactFma(a, b, c);
  assertEquals(doubleToHex(fma(a, b, c)), doubleToHex(want), `fma(${a}, ${b}, ${c})`);
}

Deno.test("the BigInt reference itself rounds to nearest, ties to even", () => {
  assertEquals(roundToDouble(3n, -1), 1.5);
  assertEquals(roundToDouble((1n << 53n) + 1n, 0), 2 ** 53); // a tie goes to the even neighbour
  assertEquals(roundToDouble((1n << 53n) + 3n, 0), 2 ** 53 + 4); // and the other way
  assertEquals(roundToDouble((1n << 54n) + 3n, -1), 2 ** 53 + 2); // not a tie: rounds up
  assertEquals(exactFma(0.1, 10, -1), 2 ** -54); // 0.1 is 0x1.999999999999ap-4, so 10·0.1 − 1 = 2^-54
});

Deno.test("fma: products and sums whose double rounding would go wrong", () => {
  const a = 1 + 2 ** -30;
  assertEquals(fma(a, a, -1), 2 ** -29 + 2 ** -60);
  assertEquals(fma(0.1, 10, -1), 2 ** -54);
  // (1 + 2^-26)(1 + 2^-27) = 1 + 3·2^-27 + 2^-53: exactly a midpoint. A c below 2^-106 decides the side,
  // which a low part rounded to nearest (2^-53 + c → 2^-53) would lose; rounded to odd it keeps the side.
  const [p, q] = [1 + 2 ** -26, 1 + 2 ** -27];
  assertEquals(fma(p, q, 2 ** -120), 1 + 3 * 2 ** -27 + 2 ** -52);
  assertEquals(fma(p, q, -(2 ** -120)), 1 + 3 * 2 ** -27);
  assertEquals(fma(p, q, 0), 1 + 3 * 2 ** -27); // the plain tie goes to even
  // The same with an odd neighbour below, so that ties to even would go up; and negated.
  const odd = 1 + 2 ** -26 + 2 ** -52;
  for (const [x, y] of [[p, q], [odd, q], [-p, q], [-odd, q]]) {
    for (const z of [2 ** -120, -(2 ** -120), 2 ** -1000, -(2 ** -1000)]) check(x, y, z);
  }
  // Cancellation: c is minus the rounded product, so the answer is the product's rounding error.
  for (const [x, y] of [[p, q], [Math.PI, Math.E], [1 / 3, 3], [0.7, 0.1]]) check(x, y, -(x * y));
  // Signs, zeros and values fma passes through with one plain rounding.
  assert(Object.is(fma(-0, 1, -0), -0));
  assert(Object.is(fma(0, 1, -0), 0));
  assertEquals(fma(Infinity, 1, 1), Infinity);
  assert(Number.isNaN(fma(Infinity, 0, 1)));
  assertEquals(fma(3, 4, 5), 17);
});

Deno.test("fma: random operands over the ranges log1p reaches, and beyond, against the BigInt reference", () => {
  const random = new PythonRandom(11n);
  const uniform = () => random.getrandbits(32) / 2 ** 32 + random.getrandbits(21) / 2 ** 53;
  const LP = [0.6666666666666735, 0.3999999999940941, 0.2857142874366239, 0.2222219843214978];
  let count = 0;
  for (let index = 0; index < 3000; index++) {
    // z·Lp + Lp', the polynomial steps: z in (2^-62, 0.03].
    const z = 0.03 * uniform() * 2 ** -(random.getrandbits(6));
    check(z, LP[index % 4], LP[(index + 1) % 4]);
    // z^n·R + S: a small product added to a larger term.
    check(z ** 3, LP[index % 4], z * LP[0]);
    // k·ln2_lo + c with an integer k and |c| < 2^-53.
    const k = (random.getrandbits(11) - 60) || 1;
    check(k, 1.9082149292705877e-10, (uniform() - 0.5) * 2 ** -53);
    // (−f)·(2/3) + 1 for |f| < 2^-20.
    check(-(uniform() - 0.5) * 2 ** -19, 0.6666666666666666, 1);
    // Generic magnitudes, with and without cancellation.
    const x = (uniform() - 0.5) * 2 ** (random.getrandbits(8) - 128);
    const y = (uniform() - 0.5) * 2 ** (random.getrandbits(8) - 128);
    check(x, y, (uniform() - 0.5) * 2 ** (random.getrandbits(8) - 128));
    check(x, y, -(x * y) * (1 + (uniform() - 0.5) * 2 ** -40));
    count += 6;
  }
  assertEquals(count, 18000);
});

Deno.test("program code calls no Math.log1p, and Math.log only on constants", async () => {
  const files = ["cli.ts", "mod.ts"];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`);
      else if (entry.name.endsWith(".ts")) files.push(`${dir}/${entry.name}`);
    }
  };
  await walk("lib");
  const offenders: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    for (const match of text.matchAll(/Math\.log1p\s*\(|Math\.log\s*\(\s*(?![\d.]+\s*\))/g)) {
      offenders.push(`${file}: ${text.slice(match.index, match.index + 30)}`);
    }
  }
  assertEquals(offenders, []);
});
