import { visible } from "../../../lib/base/visible.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";

/** The characters the rule escapes: C0, DEL, C1, the bidi embeddings and overrides, the bidi isolates. */
function escaped(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069);
}

Deno.test("visible escapes every C0 and C1 control, DEL and bidi override as \\uXXXX, and no other character", () => {
  const others: string[] = [];
  for (let code = 0; code < 0xd800; code++) {
    const char = String.fromCharCode(code);
    const expected = escaped(code) ? `\\u${code.toString(16).padStart(4, "0")}` : char;
    if (visible(`a${char}b`) !== `a${expected}b`) others.push(code.toString(16));
  }
  assertEquals(others, []);
  // Astral characters, a joined emoji (ZWJ) and marks that only shape text are left alone.
  for (const text of ["😀", "👩‍👩‍👧", "e\u0301", "\u200e", "\u00a0"]) assertEquals(visible(text), text);
});

Deno.test("keepLines keeps newline and tab, and still escapes CR, ESC and the rest", () => {
  assertEquals(visible("a\tb\nc\r\n\x1b[2J\x85", { keepLines: true }), "a\tb\nc\\u000d\n\\u001b[2J\\u0085");
  assertEquals(visible("a\tb\nc"), "a\\u0009b\\u000ac");
});

Deno.test("visible is idempotent and leaves text without a control the same string", () => {
  const text = "sk \\u001b ✓ plain";
  assert(visible(text) === text);
  const once = visible("x\x1b]52;c;aGk=\x07\u009b\u2067");
  assertEquals(visible(once), once);
});

Deno.test("a JSON document made visible stays valid JSON with every value the same", () => {
  const all = Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)).join("") +
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
  const document = JSON.stringify({ [all]: [all, { m: `m${all}` }] }, null, 2);
  const shown = visible(document, { keepLines: true });
  // deno-lint-ignore no-control-regex -- what must not remain
  assert(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(shown), shown);
  assertEquals(JSON.parse(shown), JSON.parse(document));
});
