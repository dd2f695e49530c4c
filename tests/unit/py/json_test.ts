/** parsePyJson reads what CPython 3.11.7's `json.loads` reads, with the same values (expected values from it). */
import {
  checkJsonLimits,
  dumps,
  JSON_LIMITS,
  parsePyJson,
  parsePyJsonBytes,
  PY_KEY_ORDER,
  PyFloat,
} from "../../../lib/py/json.ts";
import { pyStr } from "../../../lib/py/builtins.ts";
import { assert, assertEquals, assertThrows } from "../../helpers/assert.ts";

Deno.test("NaN, Infinity, -Infinity, out-of-range floats and integers of any size are read as Python reads them", () => {
  const value = parsePyJson(
    "[NaN, Infinity, -Infinity, 1e400, -1e400, 1.0, -0, 12345678901234567890123, 9007199254740993]",
  );
  assertEquals(
    dumps(value),
    "[NaN, Infinity, -Infinity, Infinity, -Infinity, 1.0, 0, 12345678901234567890123, 9007199254740993]",
  );
  assertEquals(
    pyStr(value),
    "[nan, inf, -inf, inf, -inf, 1.0, 0, 12345678901234567890123, 9007199254740993]",
  );
  assert((value as unknown[])[3] instanceof PyFloat);
  assertEquals((value as unknown[])[8], 9007199254740993n);
});

Deno.test("duplicate keys: the last value wins, at the first key's place", () => {
  const value = parsePyJson('{"a":1,"b":2,"a":3}');
  assertEquals(pyStr(value), "{'a': 3, 'b': 2}");
  assertEquals(dumps(value), '{"a": 3, "b": 2}');
});

Deno.test("integer-like keys: the document's order is kept for printing, sorted output unchanged", () => {
  const value = parsePyJson('{"b": 1, "1": 2}') as Record<string | symbol, unknown>;
  assertEquals(value[PY_KEY_ORDER], ["b", "1"]);
  assertEquals(Object.keys(value).length, 2);
  assertEquals(dumps(value as never), '{"1": 2, "b": 1}');
  // No marker where JavaScript keeps the order anyway.
  assertEquals((parsePyJson('{"b": 1}') as Record<symbol, unknown>)[PY_KEY_ORDER], undefined);
});

Deno.test("an integer of 4,300 digits is read, one of 4,301 refused as Python 3.11 refuses it", () => {
  assertEquals(pyStr(parsePyJson(`[${"9".repeat(4300)}]`)).length, 4302);
  assertThrows(() => parsePyJson(`[${"9".repeat(4301)}]`), SyntaxError, "Exceeds the limit (4300 digits)");
});

Deno.test("a lone surrogate is refused with a clear message (Python reads it, then cannot write it)", () => {
  assertThrows(() => parsePyJson('["\\ud800"]'), SyntaxError, "lone surrogate \\ud800");
  assertThrows(() => parsePyJson('{"\\udc00": 1}'), SyntaxError, "lone surrogate");
  assertEquals(parsePyJson('"\\ud83d\\ude00"'), "😀");
});

Deno.test("what json.loads refuses is refused, with its message and position", () => {
  const cases: [string, string][] = [
    ["[1,]", "Expecting value: line 1 column 4 (char 3)"],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ["01", "Extra data: line 1 column 2 (char 1)"],
    ['"x\ty"', "Invalid control character at: line 1 column 3 (char 2)"],
    ["", "Expecting value: line 1 column 1 (char 0)"],
    ["\ufeff[]", "Unexpected UTF-8 BOM (decode using utf-8-sig)"],
  ];
  for (const [text, message] of cases) assertThrows(() => parsePyJson(text), SyntaxError, message);
});

Deno.test("floats and ints keep their Python type through a round trip", () => {
  const text = '{"a": 1.0, "b": 2, "c": -0.0, "d": 1E5, "e": [true, false, null, "\\u00e9\\n"]}';
  assertEquals(
    dumps(parsePyJson(text)),
    '{"a": 1.0, "b": 2, "c": -0.0, "d": 100000.0, "e": [true, false, null, "é\\n"]}',
  );
});

Deno.test("an escaped integer-like key keeps its place too", () => {
  assertEquals(pyStr(parsePyJson('{"b": 1, "\\u0031": 2}')), "{'b': 1, '1': 2}");
});

Deno.test("a leading UTF-8 BOM is refused as json.loads of text refuses it, in one line; elsewhere U+FEFF is text", () => {
  const error = assertThrows(() => parsePyJson("\ufeff{}"), SyntaxError);
  assertEquals(error.message, "Unexpected UTF-8 BOM (decode using utf-8-sig)");
  assertEquals(parsePyJson('"\ufeff"'), "\ufeff");
  assertThrows(() => parsePyJson("[\ufeff]"), SyntaxError, "Expecting value: line 1 column 2 (char 1)");
});

Deno.test("900 levels of nesting are read on both parsers; 901 are refused before parsing, naming the limit", () => {
  const nested = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);
  assertEquals(dumps(parsePyJson(nested(900))), nested(900));
  // An integer-like key sends the text to the full parser, which recurses: it must hold 900 levels too.
  assertEquals(dumps(parsePyJson(nested(899, '{"1": 2}'))), nested(899, '{"1": 2}'));
  const error = assertThrows(() => parsePyJson(nested(901)), SyntaxError);
  assertEquals(error.message, "nested more than 900 levels deep: line 1 column 901 (char 900)");
  assertThrows(() => parsePyJson(nested(100_000, '{"1": 2}')), SyntaxError, "more than 900 levels");
  assertThrows(() => parsePyJsonBytes(new TextEncoder().encode(nested(901))), SyntaxError, "900 levels");
});

Deno.test("a document of more than 2^20 values is refused before any is allocated; strings do not count", () => {
  const values = (count: number, item: string) => `[${Array(count).fill(item).join(",")}]`;
  assertEquals((parsePyJson(values(JSON_LIMITS.values, "7")) as unknown[]).length, JSON_LIMITS.values);
  const error = assertThrows(() => parsePyJson(values(JSON_LIMITS.values + 1, "7")), SyntaxError);
  const at = 2 * (1 << 20);
  assertEquals(
    error.message,
    `more than 1048576 values, the limit of one document: line 1 column ${at + 1} (char ${at})`,
  );
  // A 16 MiB file of `[{},{},…]` (a resumed run's hostile row) is refused at once.
  assertThrows(() => parsePyJson(values(5_000_000, "{}")), SyntaxError, "more than 1048576 values");
  // Brackets and commas inside strings, escaped quotes included, are text, not values.
  const text = JSON.stringify(["[,{".repeat(400_000), 'a\\"[,[,', "\\\\"]);
  assertEquals((parsePyJson(text) as string[]).length, 3);
  checkJsonLimits(text, { depth: 1, values: 3 });
  assertThrows(
    () => checkJsonLimits(new TextEncoder().encode("[1,2,3,4]"), { depth: 1, values: 3 }),
    SyntaxError,
    "at byte offset 6",
  );
});
