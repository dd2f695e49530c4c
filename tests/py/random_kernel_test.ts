/** The WebAssembly kernel behind PythonRandom.sumDraws: a valid module, compiled once, drawing from given state. */
import { drawKernel, kernelBytes, STATE_BYTES } from "../../lib/py/_random_kernel.ts";
import { assert, assertEquals } from "../helpers/assert.ts";

Deno.test("the kernel is a valid module exporting its memory and draw", () => {
  assert(WebAssembly.validate(kernelBytes()));
  const exports = WebAssembly.Module.exports(new WebAssembly.Module(kernelBytes()));
  assertEquals(exports.map(({ name, kind }) => `${kind} ${name}`).sort(), ["function draw", "memory memory"]);
  assertEquals(drawKernel(), drawKernel());
});

Deno.test("draw lays out the first totals, then the second, and takes one word per accepted draw", () => {
  // An all-zero state twists to zeros and tempers to 0: every draw is accepted and picks codes[0].
  const { memory, draw } = drawKernel();
  new Uint32Array(memory.buffer, 0, 624).fill(0);
  const codes = STATE_BYTES;
  new Uint8Array(memory.buffer, codes, 5).set([1, 0, 0, 0, 0]);
  const totals = codes + 8;
  const index = draw(5, Math.clz32(5), 3, 624, codes, totals); // 624: twist before the first word
  assertEquals(index, 15); // 3 resamples × 5 draws
  assertEquals(Array.from(new Int32Array(memory.buffer, totals, 6)), [5, 5, 5, 0, 0, 0]); // firsts, then seconds
  new Uint8Array(memory.buffer, codes, 1).set([2]);
  assertEquals(draw(5, Math.clz32(5), 1, 620, codes, totals), 1); // four words, a twist, one more
  assertEquals(Array.from(new Int32Array(memory.buffer, totals, 2)), [0, 5]);
});
