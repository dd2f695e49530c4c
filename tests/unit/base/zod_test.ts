/**
 * lib/base/zod.ts: zod/mini set up with zod's English messages, which parseWith hands on to users. Expected values:
 * zod 4.6.7 classic's messages for the same schemas and inputs.
 */
import * as z from "../../../lib/base/zod.ts";
import { parseWith } from "../../../lib/base/schema.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

function firstMessage(schema: z.ZodMiniType, data: unknown): string | undefined {
  const result = schema.safeParse(data);
  return result.success ? undefined : result.error.issues[0].message;
}

Deno.test("zod's own messages are its English ones (zod/mini alone says only `Invalid input`)", () => {
  const cases: [z.ZodMiniType, unknown, string][] = [
    [z.number(), "1", "Invalid input: expected number, received string"],
    [z.number().check(z.int()), 1.5, "Invalid input: expected int, received number"],
    [z.strictObject({}), { a: 1 }, 'Unrecognized key: "a"'],
    [z.array(z.string()).check(z.minLength(1)), [], "Too small: expected array to have >=1 items"],
    [z.enum(["a", "b"]), "c", 'Invalid option: expected one of "a"|"b"'],
    [z.literal(1), 2, "Invalid input: expected 1"],
    [z.string().check(z.regex(/^a$/)), "b", "Invalid string: must match pattern /^a$/"],
  ];
  assertEquals(
    cases.map(([schema, data]) => firstMessage(schema, data)),
    cases.map(([, , message]) => message),
  );
});

Deno.test("a message given with a check replaces the locale's", () => {
  assertEquals(
    firstMessage(z.string().check(z.minLength(1, "must be a non-empty string")), ""),
    "must be a non-empty string",
  );
});

Deno.test("parseWith reports the English message with the file and the field", () => {
  const error = assertThrows(() => parseWith(z.strictObject({ n: z.number() }), { n: "1" }, "x.json"));
  assertEquals(error.message, "x.json: n: Invalid input: expected number, received string");
});

Deno.test("no internal type name in a message: a Python float or a big integer is named as the file holds it", () => {
  class PyFloat { // as lib/py's: a number held as a float
    constructor(readonly value: number) {}
    valueOf(): number {
      return this.value;
    }
  }
  assertEquals(firstMessage(z.string(), new PyFloat(1.5)), "Invalid input: expected string, received float");
  assertEquals(
    firstMessage(z.number(), 10n ** 30n),
    "Invalid input: expected number, received integer beyond 2^53",
  );
  assertEquals(firstMessage(z.string(), new Map()), "Invalid input: expected string, received object");
  assertEquals(firstMessage(z.string(), 1), "Invalid input: expected string, received number"); // the locale's
});
