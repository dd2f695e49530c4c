/** A double's bits as hex, and the distance in units in the last place that the conformance runner reports. */
import { doubleToHex, hexToDouble, ulpDistance } from "../../../lib/conformance/float_bits.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

Deno.test("doubleToHex and hexToDouble: IEEE 754 big-endian bits, round-tripping, signed zeros and NaN kept", () => {
  assertEquals(doubleToHex(1), "3ff0000000000000");
  assertEquals(doubleToHex(-2), "c000000000000000");
  assertEquals(doubleToHex(0), "0000000000000000");
  assertEquals(doubleToHex(-0), "8000000000000000");
  assertEquals(doubleToHex(Number.MIN_VALUE), "0000000000000001");
  assertEquals(doubleToHex(Infinity), "7ff0000000000000");
  for (const value of [0.1, -0, 1e308, Number.MIN_VALUE, -Infinity, Math.PI]) {
    assertEquals(Object.is(hexToDouble(doubleToHex(value)), value), true, String(value));
  }
  assertEquals(Number.isNaN(hexToDouble("7ff8000000000000")), true);
});

Deno.test("hexToDouble refuses anything but 16 lowercase hex digits", () => {
  for (const bad of ["3FF0000000000000", "3ff", "3ff00000000000000", "0x3ff0000000000000"]) {
    assertThrows(() => hexToDouble(bad), SyntaxError, "not a 16-hex-digit double");
  }
});

Deno.test("ulpDistance: 0 for the same double, 1 for neighbours, Infinity across signs", () => {
  assertEquals(ulpDistance(1, 1), 0);
  assertEquals(ulpDistance(0.1 + 0.2, 0.3), 1);
  assertEquals(ulpDistance(1, 1 + Number.EPSILON), 1);
  assertEquals(ulpDistance(1 + 2 * Number.EPSILON, 1), 2);
  assertEquals(ulpDistance(0, Number.MIN_VALUE), 1);
  assertEquals(ulpDistance(0, -0), Infinity); // different signs, though equal
  assertEquals(ulpDistance(-1, 1), Infinity);
});
