/**
 * The generated Unicode 14.0.0 lookups, one code point at a time. Expected values: CPython 3.11.7
 * (`isprintable`, `unicodedata.decimal`, `upper`, `lower` of one character).
 */
import {
  decimalValue,
  isPrintableCode,
  lowerOf,
  UNICODE_VERSION,
  upperOf,
} from "../../../lib/py/unicode/data.ts";
import { assertEquals } from "../../helpers/assert.ts";

const POINTS: [number, boolean, number, number[], number[]][] = [
  [0x41, true, -1, [0x41], [0x61]],
  [0xdf, true, -1, [0x53, 0x53], [0xdf]],
  [0x1c8a, false, -1, [0x1c8a], [0x1c8a]],
  [0x264, true, -1, [0x264], [0x264]],
  [0x10d0, true, -1, [0x1c90], [0x10d0]],
  [0x130, true, -1, [0x130], [0x69, 0x307]],
  [0xff17, true, 7, [0xff17], [0xff17]],
  [0x1e4f1, false, -1, [0x1e4f1], [0x1e4f1]],
  [0x1d7ce, true, 0, [0x1d7ce], [0x1d7ce]],
  [0x1d7d8, true, 0, [0x1d7d8], [0x1d7d8]],
  [0xa0, false, -1, [0xa0], [0xa0]],
  [0x20, true, -1, [0x20], [0x20]],
];

Deno.test("Unicode 14.0.0 lookups: printable, decimal value, full upper and lower mappings", () => {
  assertEquals(UNICODE_VERSION, "14.0.0");
  const points = (text: string) => Array.from(text, (char) => char.codePointAt(0)!);
  for (const [code, printable, decimal, upper, lower] of POINTS) {
    assertEquals(
      [isPrintableCode(code), decimalValue(code), points(upperOf(code)), points(lowerOf(code))],
      [printable, decimal, upper, lower],
      `U+${code.toString(16)}`,
    );
  }
});
