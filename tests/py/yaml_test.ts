/**
 * YAML as PyYAML's `safe_load` reads it. Expected values: PyYAML 6.0.3 (same scanner and resolvers as 6.0) under
 * CPython 3.11.7, encoded as {int}, {float} (repr), {bool}, {datetime} (isoformat), {date}, a string or null.
 */
import { floatRepr } from "../../lib/py/json.ts";
import { embeddedSources } from "../../lib/protocol/contracts.ts";
import { parseFullYaml, parsePyYaml, parseSubsetYaml, YamlTimestamp } from "../../lib/py/yaml.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import { random } from "../helpers/generate.ts";

function encode(value: unknown): unknown {
  if (typeof value === "boolean") return { bool: value };
  if (typeof value === "bigint") return { int: value.toString() };
  if (typeof value === "number") return { float: floatRepr(value) };
  if (value instanceof YamlTimestamp) {
    const pad = (number: number, width = 2) => String(number).padStart(width, "0");
    const date = `${pad(value.year, 4)}-${pad(value.month)}-${pad(value.day)}`;
    if (value.time === undefined) return { date };
    const [hour, minute, second, micro] = value.time;
    let text = `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}${micro ? `.${pad(micro, 6)}` : ""}`;
    if (value.offsetMinutes !== undefined) {
      const offset = Math.abs(value.offsetMinutes);
      text += `${value.offsetMinutes < 0 ? "-" : "+"}${pad(Math.floor(offset / 60))}:${pad(offset % 60)}`;
    }
    return { datetime: text };
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, encode(item)]));
  }
  return value;
}

const PYYAML: [string, unknown][] = [
  ["a: 2026-08-13 09:30:00.25 -5", { datetime: "2026-08-13T09:30:00.250000-05:00" }],
  ["a: 2026-08-13t09:30:00Z", { datetime: "2026-08-13T09:30:00+00:00" }],
  ["a: 2026-8-3 9:30:00Z", { datetime: "2026-08-03T09:30:00+00:00" }],
  ["a: 2026-08-13", { date: "2026-08-13" }],
  ["a: 1e12", "1e12"],
  ["a: 1.5e+3", { float: "1500.0" }],
  ["a: 1.5e3", "1.5e3"],
  ["a: 0o17", "0o17"],
  ["a: 017", { int: "15" }],
  ["a: 0x1F", { int: "31" }],
  ["a: 1_000", { int: "1000" }],
  ["a: 1:30", { int: "90" }],
  ["a: .5", { float: "0.5" }],
  ["a: -.5", "-.5"],
  ["a: 1.", { float: "1.0" }],
  ["a: +.inf", { float: "inf" }],
  ["a: yes", { bool: true }],
  ["a: On", { bool: true }],
  ["a: n", "n"],
  ["a: Y", "Y"],
  ["a: off", { bool: false }],
  ["a: ~", null],
  ["a: Null", null],
  ["a: ''", ""],
  ["a:", null],
  ["a: 0b101", { int: "5" }],
  ["a: -0", { int: "0" }],
  ["a: 0_7", { int: "7" }],
  ["a: 190:20:30", { int: "685230" }],
  ["a: 1:30.5", { float: "90.5" }],
  ["a: 123456789012345678901234567890", { int: "123456789012345678901234567890" }],
  ["a: 2026-08-13 09:30:00.1234567 +05:30", { datetime: "2026-08-13T09:30:00.123456+05:30" }],
  ["a: 2026-08-13T09:30:00 Z", { datetime: "2026-08-13T09:30:00+00:00" }],
  ["a: 1\na: 2", { int: "2" }],
  ["a: 'x\ty'", "x\ty"],
  ["a: x # c\td", "x"],
  ["a: |\n  x\ty\n", "x\ty\n"],
  ["b: &x {c: 1}\na: {<<: *x, d: 2}", { c: { int: "1" }, d: { int: "2" } }],
];

for (const [text, expected] of PYYAML) {
  Deno.test(`PyYAML reads ${JSON.stringify(text)} as ${JSON.stringify(expected)}`, () => {
    assertEquals(encode((parsePyYaml(text) as Record<string, unknown>).a), expected);
  });
}

Deno.test("what PyYAML refuses is refused: tabs between tokens or in plain scalars, impossible timestamps, '='", () => {
  const refused: [string, string][] = [
    ["a:\t1", "tab character"],
    ["a: 1 \t", "tab character"],
    ["a:\n\t- 1", "(line 2, column 1)"],
    ["a: [1,\t2]", "tab character"],
    ["a: x\ty", "tab character"],
    ["a: 1\t# c", "tab character"],
    ["a: 2026-02-30", "day is out of range"],
    ["a: 2026-08-13 09:30:00+25", "offset must be under 24 hours"],
    ["a: =", "could not determine a constructor"],
  ];
  for (const [text, message] of refused) assertThrows(() => parsePyYaml(text), Error, message);
});

Deno.test("the subset parser reads what the full parser reads, on every generated document it accepts", () => {
  // Keys and scalars that PyYAML resolves differently from how they look: the subset must agree or decline.
  const keys = ["a", "b", "key_1", "single-session-user", "x-y", "_", "yes", "null", "on", "1", "__proto__"];
  const plains = [
    "yes",
    "No",
    "ON",
    "off",
    "true",
    "False",
    "null",
    "Null",
    "~",
    "0",
    "00",
    "09",
    "017",
    "0o17",
    "0x1F",
    "0b101",
    "1_000",
    "-1",
    "+1",
    "1e3",
    "1.5e+3",
    "1.5e3",
    ".5",
    "1.",
    "-.inf",
    ".NaN",
    "+.inf",
    "1_2.5",
    "2026-08-13",
    "2026-8-3",
    "2026-02-30",
    "abc",
    "a-b",
    "deepseek-v4-flash",
    "prompts/x.txt",
    "_",
    ".",
    "..",
    "+",
    "+x",
    "/a",
    "0.10",
    "-0",
    "-x",
    "-",
    "=",
    "1:30",
    "a b",
    "3.0e-05",
  ];
  const quoted = ['"x"', '"yes"', '""', '"a b"', '"2026-08-13T00:00:00Z"', '"a\\\\b"', "'single'"];
  const next = random(4789);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const scalar = () => next() < 0.75 ? pick(plains) : pick(quoted);
  const value = () => {
    if (next() < 0.8) return scalar();
    const items = Array.from({ length: Math.floor(next() * 4) }, scalar);
    return next() < 0.9 ? `[${items.join(", ")}]` : `[${items.join(",")}]`;
  };
  const mapping = (indent: number, depth: number): string[] =>
    Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
      const head = `${" ".repeat(indent)}${pick(keys)}:`;
      if (depth < 2 && next() < 0.3) {
        return [head, ...mapping(indent + 1 + Math.floor(next() * 3), depth + 1)];
      }
      return [`${head} ${value()}`, ...(next() < 0.1 ? [""] : [])];
    }).flat();
  let accepted = 0;
  for (let document = 0; document < 3000; document++) {
    const text = mapping(0, 0).join("\n") + (next() < 0.5 ? "\n" : "");
    const subset = parseSubsetYaml(text);
    if (subset === undefined) continue;
    accepted++;
    assertEquals(encode(subset), encode(parseFullYaml(text)), text);
  }
  assert(
    accepted > 300,
    `only ${accepted} of 3000 documents in the subset: the comparison would prove little`,
  );
});

Deno.test("the pinned config is in the subset, so a start reads it without the YAML library", () => {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(embeddedSources().config.bytes);
  const subset = parseSubsetYaml(text);
  assert(subset !== undefined);
  assertEquals(encode(subset), encode(parseFullYaml(text)));
});

Deno.test("the subset declines what it does not cover, and parsePyYaml then reads it in full", () => {
  for (
    const text of [
      "a: 1 # c",
      "a: &x 1",
      "a:\n- 1",
      "a: |\n  x",
      "a: 'x'",
      'a: "\\t"',
      "a:\tb",
      "a: 1\r\n",
      "a:",
      "a:\nb: 1",
      "a: 1\n  b: 2",
      "a: 1\na: 2",
      "yes: 1",
      "---\na: 1",
      "",
      "a: é",
      "a: [1,2]",
      "a: {b: 1}",
      "a: 2026-02-30",
    ]
  ) {
    assertEquals(parseSubsetYaml(text), undefined, text);
  }
  assertEquals(encode(parsePyYaml("a: 1 # c\na: 2")), { a: { int: "2" } });
});

Deno.test("a leading UTF-8 BOM is skipped, as PyYAML's reader skips it", () => {
  for (const text of ["a: 1\nb: [x, 2.5]\n", "a: &x 1 # outside the subset\nb: *x\n"]) {
    assertEquals(parsePyYaml(`\ufeff${text}`), parsePyYaml(text));
  }
  assertEquals(parsePyYaml("a: 1"), { a: 1n });
});
