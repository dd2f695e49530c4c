/**
 * YAML as PyYAML's `safe_load` reads it. Expected values: PyYAML 6.0.3 (same scanner and resolvers as 6.0) under
 * CPython 3.11.7, encoded as {int}, {float} (repr), {bool}, {datetime} (isoformat), {date}, a string or null.
 */
import { floatRepr } from "../../../lib/py/json.ts";
import { parsePyYaml, YamlFieldError, YamlTimestamp } from "../../../lib/py/yaml.ts";
import process from "node:process";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

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

Deno.test("a comment ends a plain scalar and a repeated key keeps its last value", () => {
  assertEquals(encode(parsePyYaml("a: 1 # c\na: 2")), { a: { int: "2" } });
});

Deno.test("a leading UTF-8 BOM is skipped, as PyYAML's reader skips it", () => {
  for (const text of ["a: 1\nb: [x, 2.5]\n", "a: &x 1 # outside the subset\nb: *x\n"]) {
    assertEquals(parsePyYaml(`\ufeff${text}`), parsePyYaml(text));
  }
  assertEquals(parsePyYaml("a: 1"), { a: 1n });
});

/** Runs `body` and returns what it printed through Node's warnings or the console. */
function printedBy(body: () => void): string[] {
  const printed: string[] = [];
  const saved = {
    emitWarning: process.emitWarning,
    warn: console.warn,
    error: console.error,
    log: console.log,
  };
  process.emitWarning =
    ((warning: unknown) => void printed.push(String(warning))) as typeof process.emitWarning;
  console.warn = console.error = console.log = (...args: unknown[]) => void printed.push(args.join(" "));
  try {
    body();
  } finally {
    process.emitWarning = saved.emitWarning;
    Object.assign(console, { warn: saved.warn, error: saved.error, log: saved.log });
  }
  return printed;
}

Deno.test("a tag safe_load cannot construct is refused in one line, as PyYAML's, and nothing is printed", () => {
  const refused: [string, string][] = [
    [
      "a: !!python/object:os.system x",
      "could not determine a constructor for the tag 'tag:yaml.org,2002:python/object:os.system' (line 1, column 4)",
    ],
    [
      "a: !!python/name:os.system ''",
      "could not determine a constructor for the tag 'tag:yaml.org,2002:python/name:os.system' (line 1, column 4)",
    ],
    [
      "a:\n  b: !!python/tuple [1]",
      "could not determine a constructor for the tag 'tag:yaml.org,2002:python/tuple' (line 2, column 6)",
    ],
    ["a: !custom {x: 1}", "could not determine a constructor for the tag '!custom' (line 1, column 4)"],
    ["a: !!int x", "the tag 'tag:yaml.org,2002:int' does not fit its value (line 1, column 4)"],
    ["a: !!str [1]", "the tag 'tag:yaml.org,2002:str' does not fit its value (line 1, column 4)"],
    ["? [1, 2]\n: x", "found unhashable key (line 1, column 3)"],
    ["a: &x: 1", "Anchor ending in : is ambiguous (line 1, column 6)"],
  ];
  for (const [text, message] of refused) {
    const printed = printedBy(() => {
      const error = assertThrows(() => parsePyYaml(text), SyntaxError);
      assertEquals(error.message, message, text);
    });
    assertEquals(printed, [], text);
  }
});

/** Runs `code` (importing the library) in a child deno with only the given permission flags. */
async function runLibrary(code: string, flags: string[], env: Record<string, string> = {}) {
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(script, code);
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", `--config=${new URL("../../../deno.json", import.meta.url).pathname}`, ...flags, script],
    cwd: new URL("../../..", import.meta.url).pathname,
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(script));
  const decode = (bytes: Uint8Array) => new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

const LOAD_CONTRACTS = `import { embeddedSources, loadContracts } from "${new URL(
  "../../../mod.ts",
  import.meta.url,
)}";
const contracts = await loadContracts(embeddedSources());
console.log(contracts.config.protocol_id);`;

Deno.test("the library reads YAML with no env permission, and the YAML library's LOG_TOKENS never prints", async () => {
  const bare = await runLibrary(LOAD_CONTRACTS, ["--no-prompt"]);
  assertEquals([bare.code, bare.stdout, bare.stderr], [0, "deermem-hybrid-v1-pr4789-reproduction-v1\n", ""]);
  const logging = await runLibrary(LOAD_CONTRACTS, ["--no-prompt", "--allow-env"], {
    LOG_TOKENS: "1",
    LOG_STREAM: "1",
  });
  assertEquals([logging.code, logging.stdout], [0, "deermem-hybrid-v1-pr4789-reproduction-v1\n"]);
  assertEquals(process.env.LOG_TOKENS, undefined); // this process's environment is untouched
});

Deno.test("a decimal integer over 4,300 digits is refused as Python's int() refuses it, naming its field; bases 2, 8, 16 are not", () => {
  const long = `1${"0".repeat(4300)}`;
  const refused: [string, string][] = [
    [`a: ${long}`, "a"],
    [`a: {b: [1, -${long}]}`, "a.b.1"],
    [`a: ${long.replace("10", "1_0")}`, "a"],
    [`a: ${long}:30`, "a"],
  ];
  for (const [text, field] of refused) {
    const error = assertThrows(() => parsePyYaml(text), YamlFieldError);
    assertEquals(
      [error.field, error.message],
      [field, "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits"],
    );
  }
  assertEquals(encode(parsePyYaml(`a: ${long.slice(0, -1)}`)), { a: { int: long.slice(0, -1) } }); // 4,300 digits
  assertEquals(encode(parsePyYaml(`a: 0${"7".repeat(4400)}`)), { a: { int: (8n ** 4400n - 1n).toString() } });
  assertEquals(typeof (parsePyYaml(`a: 0x${"f".repeat(4400)}`) as { a: unknown }).a, "bigint");
  assertEquals(typeof (parsePyYaml(`a: ${"1".repeat(4300)}`) as { a: unknown }).a, "bigint");
});
