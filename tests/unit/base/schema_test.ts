/** parseWith: zod failures as one-line contract errors naming the file and the field path. */
import * as z from "../../../lib/base/zod.ts";
import { ContractError, RowIntegrityError } from "../../../lib/base/errors.ts";
import { parseJsonLines, parseWith, type SameType } from "../../../lib/base/schema.ts";
import { assert, assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";

const Point = z.strictObject({
  x: z.number(),
  tags: z.array(z.string().check(z.minLength(1, "must be non-empty"))),
});

Deno.test("a valid value is returned as parsed", () => {
  assertEquals(parseWith(Point, { x: 1, tags: ["a"] }, "p.json"), { x: 1, tags: ["a"] });
});

Deno.test("the first issue becomes a ContractError: path, dotted field with indexes, message", () => {
  const error = assertThrows(() => parseWith(Point, { x: 1, tags: ["a", ""] }, "p.json"), ContractError);
  assertEquals(error.message, "p.json: tags.1: must be non-empty");
  assertEquals([error.path, error.field, error.detail], ["p.json", "tags.1", "must be non-empty"]);
});

Deno.test("unknown keys are listed; a root failure names (root)", () => {
  const unknown = assertThrows(
    () => parseWith(Point, { x: 1, tags: [], y: 2, z: 3 }, "p.json"),
    ContractError,
  );
  assertEquals(unknown.message, "p.json: (root): unknown key(s): y, z");
  const root = assertThrows(() => parseWith(z.number(), "1", "n.json"), ContractError);
  assertEquals(root.field, "(root)");
});

Deno.test("options: another error class and a prefix", () => {
  const error = assertThrows(
    () =>
      parseWith(Point, { x: "1", tags: [] }, "rows.jsonl", { error: RowIntegrityError, prefix: "line 3: " }),
    RowIntegrityError,
  );
  assertEquals(error.message.startsWith("rows.jsonl: x: line 3: "), true);
});

Deno.test("SameType tells equal types from near ones (checked when the file type-checks)", () => {
  const same: SameType<{ a: number }, { a: number }> = true;
  const optional: SameType<{ a: number }, { a: number; b?: string }> = false;
  const readonly: SameType<{ a: number }, { readonly a: number }> = false;
  const literal: SameType<1, number> = false;
  assertEquals([same, optional, readonly, literal], [true, false, false, false]);
});

Deno.test("parseJsonLines: blank lines skipped, line numbers kept, a bad line named with its number and field", () => {
  const schema = z.strictObject({ a: z.number() });
  assertEquals(parseJsonLines('{"a": 1}\n\n{"a": 2}\n', "x.jsonl", schema), [
    { value: { a: 1 }, line: 1 },
    { value: { a: 2 }, line: 3 },
  ]);
  const notJson = assertThrows(() =>
    parseJsonLines('{"a": 1}\n{', "x.jsonl", schema, { error: RowIntegrityError })
  );
  assert(notJson instanceof RowIntegrityError);
  assertEquals(notJson.message, "x.jsonl: line 2: not valid JSON");
  const wrong = assertThrows(() => parseJsonLines('\n{"a": "one"}\n', "x.jsonl", schema));
  assert(wrong instanceof ContractError);
  assertMatch(wrong.message, /^x\.jsonl: a: line 2: /);
});
