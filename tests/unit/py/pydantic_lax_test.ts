/**
 * Pydantic 2.13's lax conversions for int, float and bool fields. Expected values: pydantic 2.13.4 under CPython
 * 3.11.7 (`repr` of the validated value, or null where it raises).
 */
import { laxBoolValue, laxFloatValue, laxIntValue } from "../../../lib/py/pydantic_lax.ts";
import { floatRepr, PyFloat } from "../../../lib/py/json.ts";
import { assertEquals } from "../../helpers/assert.ts";

const INT: [unknown, string | null][] = [
  ["7", "7"],
  [" 7 ", "7"],
  ["7.0", "7"],
  ["7.0000", "7"],
  ["1_0", "10"],
  ["+7", "7"],
  ["-7", "-7"],
  ["0007", "7"],
  ["-0", "0"],
  ["\t7\n", "7"],
  ["\u30007", "7"],
  ["0x10", null],
  ["1e3", null],
  ["７", null],
  ["7.5", null],
  ["7.", null],
  [".0", null],
  ["1__0", null],
  ["_1", null],
  ["", null],
  ["nan", null],
  [true, "1"],
  [false, "0"],
  [new PyFloat(7), "7"],
  [7.5, null],
  [18446744073709551621n, "18446744073709551621"],
  // pydantic-core's str_as_int refuses a stripped string over 4,300 bytes (int_parsing_size), as int() would.
  [`1${"0".repeat(4299)}`, `1${"0".repeat(4299)}`],
  [` 1${"0".repeat(4299)} `, `1${"0".repeat(4299)}`],
  [`1${"0".repeat(4300)}`, null],
  [`1${"0".repeat(4296)}.000`, null],
];

const FLOAT: [unknown, string | null][] = [
  ["0.05", "0.05"],
  [" 0.05 ", "0.05"],
  ["1_0.5", "10.5"],
  ["inf", "inf"],
  ["-Infinity", "-inf"],
  ["1e400", "inf"],
  ["1E+5", "100000.0"],
  [".5", "0.5"],
  ["5.", "5.0"],
  ["+.5", "0.5"],
  ["0x1", null],
  ["１", null],
  ["1__0", null],
  ["_1", null],
  ["\u3000.5", "0.5"],
  [true, "1.0"],
  [false, "0.0"],
  [3n, "3.0"],
];

const BOOL: [unknown, boolean | null][] = [
  [1n, true],
  [0n, false],
  [2n, null],
  [new PyFloat(1), true],
  [new PyFloat(0), false],
  [1.5, null],
  ["off", false],
  ["on", true],
  ["yes", true],
  ["no", false],
  ["t", true],
  ["f", false],
  ["y", true],
  ["n", false],
  ["TRUE", true],
  ["Off", false],
  ["1", true],
  ["0", false],
  [" true", null],
  ["true ", null],
  ["", null],
  ["of", null],
];

Deno.test("lax int: pydantic's conversion table", () => {
  const actual = INT.map(([input]) => {
    const value = laxIntValue(input);
    return typeof value === "string" ? null : value.toString();
  });
  assertEquals(actual, INT.map(([, expected]) => expected));
});

Deno.test("lax float: pydantic's conversion table", () => {
  const actual = FLOAT.map(([input]) => {
    const value = laxFloatValue(input);
    return typeof value === "string" ? null : floatRepr(value);
  });
  assertEquals(actual, FLOAT.map(([, expected]) => expected));
});

Deno.test("lax bool: pydantic's conversion table", () => {
  const actual = BOOL.map(([input]) => {
    const value = laxBoolValue(input);
    return typeof value === "string" ? null : value;
  });
  assertEquals(actual, BOOL.map(([, expected]) => expected));
});
