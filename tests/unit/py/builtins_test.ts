/**
 * Python semantics that depend on the Unicode database follow Unicode 14.0.0 (CPython 3.11), whatever the
 * engine's own version. Expected values were produced by CPython 3.11.7 (`unicodedata.unidata_version` 14.0.0);
 * the tests do not run Python.
 */
import {
  isPyPrintable,
  isPyWhitespace,
  parsePyFloat,
  pyLower,
  pyRepr,
  pyStr,
  pyStrip,
  pyTruthy,
  pyUpper,
} from "../../../lib/py/builtins.ts";
import { parsePyJson, PyFloat } from "../../../lib/py/json.ts";
import { UNICODE_VERSION } from "../../../lib/py/unicode/data.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("the tables are Unicode 14.0.0", () => assertEquals(UNICODE_VERSION, "14.0.0"));

Deno.test("repr escapes every character str.isprintable() rejects, as \\xhh, \\uhhhh or \\Uhhhhhhhh", () => {
  const items = [
    "\x85",
    "\xa0",
    "\xad",
    "\u200b",
    "\u2028",
    "\u3000",
    "\ufeff",
    "\ue000",
    "\u{f0000}",
    "\u0378",
    "\u1c8a",
    "a b",
    "é😀",
    "'",
    '"',
    "'\"",
    "\\",
    "\n\t\r\x7f",
  ];
  // str(items) in CPython 3.11.7.
  assertEquals(
    pyStr(items),
    String.raw`['\x85', '\xa0', '\xad', '\u200b', '\u2028', '\u3000', '\ufeff', '\ue000', '\U000f0000', ` +
      String.raw`'\u0378', '\u1c8a', 'a b', 'é😀', "'", '"', '\'"', '\\', '\n\t\r\x7f']`,
  );
});

Deno.test("str() of a parsed dict keeps the document's key order, integer-like keys included", () => {
  const value = parsePyJson('{"b": 1, "1": 2, "a": {"10": [1.0, 1e400, NaN], "2": null, "x": true}}');
  assertEquals(pyStr(value), "{'b': 1, '1': 2, 'a': {'10': [1.0, inf, nan], '2': None, 'x': True}}");
  assertEquals(pyRepr(parsePyJson('{"b": 1, "1": 2}')), "{'b': 1, '1': 2}");
});

Deno.test("upper() uses Unicode 14 mappings, full (SpecialCasing) where Python's are", () => {
  const inputs = ["ɤ", "\u1c8a", "ß", "ﬁ", "ǅ", "ŉ", "ΐ", "ᾳ", "ı", "ſ", "\u{1e922}", "\u10d0"];
  assertEquals(inputs.map(pyUpper), [
    "\u0264", // Ɤ (U+A7CB) only arrived in Unicode 16, which V8 follows
    "\u1c8a", // unassigned in 14
    "SS",
    "FI",
    "\u01c4",
    "\u02bcN",
    "\u0399\u0308\u0301",
    "\u0391\u0399",
    "I",
    "S",
    "\u{1e900}",
    "\u1c90",
  ]);
  assertEquals(pyUpper("user: abc"), "USER: ABC");
});

Deno.test("lower() uses Unicode 14 mappings and Python's Final_Sigma rule", () => {
  const inputs = [
    "ΟΔΟΣ",
    "ΟΔΟΣ Σ",
    "Σ",
    "AΣ'",
    "AΣ'B",
    "AΣ.",
    "İ",
    "\u1c89",
    "\ua7cb",
    "\u{1e900}",
    "\u1c90",
  ];
  assertEquals(inputs.map(pyLower), [
    "\u03bf\u03b4\u03bf\u03c2",
    "\u03bf\u03b4\u03bf\u03c2 \u03c3",
    "\u03c3",
    "a\u03c2'",
    "a\u03c3'b",
    "a\u03c2.",
    "i\u0307",
    "\u1c89", // U+1C8A, its lowercase, is Unicode 16
    "\ua7cb", // unassigned in 14
    "\u{1e922}",
    "\u10d0",
  ]);
});

Deno.test("isprintable() and float() digits follow Unicode 14", () => {
  assertEquals([isPyPrintable("ǅ"), isPyPrintable("\u1c8a"), isPyPrintable("\u{f0000}")], [
    true,
    false,
    false,
  ]);
  assertEquals(parsePyFloat("١٢"), 12);
  // U+1E4F0 NAG MUNDARI DIGIT ZERO is a digit only from Unicode 15: Python 3.11's float() refuses it.
  assertEquals(parsePyFloat("\u{1e4f1}"), undefined);
});

Deno.test("Python truthiness: every falsy JSON value", () => {
  const falsy = [null, undefined, false, 0, -0, 0n, new PyFloat(0), "", [], {}];
  assertEquals(falsy.map(pyTruthy), falsy.map(() => false));
  const truthy = [true, 1, NaN, new PyFloat(NaN), "0", " ", [0], { a: 0 }, parsePyJson('{"1": 0}')];
  assertEquals(truthy.map(pyTruthy), truthy.map(() => true));
});

Deno.test("isspace()/strip() whitespace is Unicode 14's: bidi WS, B, S or category Zs", () => {
  const spaces: number[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (isPyWhitespace(String.fromCodePoint(code))) spaces.push(code);
  }
  // [c for c in range(0x110000) if chr(c).isspace()] in CPython 3.11.7.
  const expected = [0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680];
  for (let code = 0x2000; code <= 0x200a; code++) expected.push(code);
  expected.push(0x2028, 0x2029, 0x202f, 0x205f, 0x3000);
  assertEquals(spaces, expected);
  assertEquals(pyStrip("\u3000\x1c x \x85\u2029"), "x");
});
