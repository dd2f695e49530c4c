/**
 * Flag values are parsed once, where flags are declared: no command (nor the conformance run it calls) turns
 * text into a number or splits a list itself; lib/commands/_parse.ts does, from each flag's declared kind.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/paths.ts";

/** What converting a flag's text by hand looks like. */
const HAND_PARSING: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /\bNumber\s*\(/, what: "Number(…)" },
  { pattern: /\b(?:Number\.)?parse(?:Int|Float)\s*\(/, what: "parseInt/parseFloat" },
  { pattern: /\.split\(\s*(["'`/])[^"'`/\n]*,/, what: "a split at commas" },
  { pattern: /(?:^|[=(,:?!&|]|\breturn)\s*\+\s*flags\b/, what: "a unary + on a flag" },
  { pattern: /\/\^[^/\n]*\\d/, what: "a regular expression of digits" },
];

/** Where flag values are read: every command, and the conformance run's own files (not its vector checkers). */
const SCANNED = [
  { folder: "lib/commands", recursive: true },
  { folder: "lib/conformance", recursive: false },
];

/** The one parser; conversions anywhere else in the scanned files are named here, each with why it is not a flag's. */
const PARSER = "lib/commands/_parse.ts";
const ALLOWED: readonly { file: string; line: string; why: string }[] = [
  { file: "lib/conformance/float_bits.ts", line: "return Number(distance);", why: "a bigint ulp distance" },
];

/** `file:line: what: text` for each line of `text` (the contents of `file`) that parses by hand. */
function handParsing(file: string, text: string): string[] {
  if (file === PARSER) return [];
  return text.split("\n").flatMap((line, index) => {
    const allowed = ALLOWED.some((allowance) => allowance.file === file && line.trim() === allowance.line);
    const found = HAND_PARSING.find(({ pattern }) => pattern.test(line));
    return found === undefined || allowed ? [] : [`${file}:${index + 1}: ${found.what}: ${line.trim()}`];
  });
}

async function scannedFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (folder: string, recursive: boolean) => {
    for await (const entry of Deno.readDir(`${ROOT}${folder}`)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory && recursive) await walk(path, recursive);
      else if (entry.isFile && entry.name.endsWith(".ts")) {
        files.set(path, await Deno.readTextFile(`${ROOT}${path}`));
      }
    }
  };
  for (const { folder, recursive } of SCANNED) await walk(folder, recursive);
  return files;
}

Deno.test("no command, nor the conformance run, converts a flag's text itself: _parse.ts does, once", async () => {
  const files = await scannedFiles();
  assert(files.size > 30, `only ${files.size} files scanned: the scan is not reading lib/commands`);
  assert(files.has(PARSER) && files.has("lib/conformance/run.ts"));
  assertEquals([...files].flatMap(([file, text]) => handParsing(file, text)), []);
  // Every allowance still names a line that is there: none outlives the code it excuses.
  for (const { file, line } of ALLOWED) {
    assert(files.get(file)?.split("\n").some((text) => text.trim() === line), `${file}: no line ${line}`);
  }
});

Deno.test("the scan catches each way of parsing a flag by hand, planted in a command", async () => {
  const runQa = "lib/commands/run_qa.ts";
  const real = (await scannedFiles()).get(runQa)!;
  const planted = [
    "    const limit = Number(flags.limit);",
    '    const cost = Number.parseFloat(flags["max-cost"]);',
    "    const n = parseInt(text, 10);",
    '    const reuse = flags.reuse?.split(",") ?? [];',
    "    const only = flags.only?.split(/\\s*,\\s*/);",
    "    const ulps = +flags.ulps;",
    "    if (!/^[1-9]\\d{0,5}$/.test(text)) throw new InputError(text);",
  ];
  const lines = real.split("\n").length;
  assertEquals(handParsing(runQa, `${real}\n${planted.join("\n")}`), [
    `${runQa}:${lines + 1}: Number(…): ${planted[0].trim()}`,
    `${runQa}:${lines + 2}: parseInt/parseFloat: ${planted[1].trim()}`,
    `${runQa}:${lines + 3}: parseInt/parseFloat: ${planted[2].trim()}`,
    `${runQa}:${lines + 4}: a split at commas: ${planted[3].trim()}`,
    `${runQa}:${lines + 5}: a split at commas: ${planted[4].trim()}`,
    `${runQa}:${lines + 6}: a unary + on a flag: ${planted[5].trim()}`,
    `${runQa}:${lines + 7}: a regular expression of digits: ${planted[6].trim()}`,
  ]);
  // An allowance excuses its one line in its one file, nothing else.
  assertEquals(handParsing("lib/conformance/float_bits.ts", "  return Number(text);"), [
    "lib/conformance/float_bits.ts:1: Number(…): return Number(text);",
  ]);
  assertEquals(handParsing("lib/commands/sweep.ts", "  return Number(distance);"), [
    "lib/commands/sweep.ts:1: Number(…): return Number(distance);",
  ]);
  // What is not a conversion is left alone.
  const fine = ['text.split("\\n")', "Number.isInteger(value)", "a + flags.length", "/^--/.test(word)"];
  assertEquals(fine.flatMap((line) => handParsing(runQa, line)), []);
});
