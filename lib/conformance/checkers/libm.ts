/** `libm.jsonl`: glibc's `log1p` and `pow` on doubles given by their bits. */

import { VectorFormatError } from "../errors.ts";
import { log1p, pow } from "../../py/mod.ts";
import type { VectorChecker } from "../compare.ts";
import { doubleToHex } from "../float_bits.ts";
import { requireField, requireHexDouble, requireString } from "../_record.ts";

/**
 * Checks one libm line: `log1p(x)` against `y`, or `pow(x, y)` against `z`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { checkLibm } from "./libm.ts";
 * const [two, three, eight] = ["4000000000000000", "4008000000000000", "4020000000000000"];
 * deepStrictEqual(checkLibm({ fn: "pow", x: two, y: three, z: eight }).mismatches, []);
 * ```
 */
export const checkLibm: VectorChecker = (record) => {
  const fn = requireString(record, "fn");
  const x = requireHexDouble(requireField(record, "x"), "x");
  if (fn === "log1p") {
    const expected = requireString(record, "y");
    const actual = doubleToHex(log1p(x));
    return {
      mismatches: actual === expected ? [] : [{ field: "y", expected, actual }],
      tier: "core",
      input: `log1p(${doubleToHex(x)})`,
    };
  }
  if (fn === "pow") {
    const y = requireHexDouble(requireField(record, "y"), "y");
    const expected = requireString(record, "z");
    const actual = doubleToHex(pow(x, y));
    return {
      mismatches: actual === expected ? [] : [{ field: "z", expected, actual }],
      tier: "core",
      input: `pow(${doubleToHex(x)}, ${doubleToHex(y)})`,
    };
  }
  throw new VectorFormatError(`must be "log1p" or "pow"`, { field: "fn" });
};
