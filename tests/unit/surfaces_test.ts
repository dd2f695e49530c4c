/**
 * One home per rule, explicit surfaces: no import circle between files, every cross-folder import through the
 * folder's `mod.ts`, which names what it exports; reading and decoding only in lib/base and lib/py.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";
import { importCycles, readImportGraph, surfaceBypasses } from "../helpers/layers.ts";

async function libFiles(): Promise<{ path: string; text: string }[]> {
  const files: { path: string; text: string }[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(`${ROOT}lib/${dir}`)) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        files.push({ path, text: await Deno.readTextFile(`${ROOT}lib/${path}`) });
      }
    }
  };
  await walk("");
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

Deno.test("no import circle between any two files of lib/", async () => {
  assertEquals(importCycles(await readImportGraph(`${ROOT}lib`)), []);
});

Deno.test("the circle check finds a circle of three files and a file importing itself", () => {
  const edges = [
    { from: "qa/a.ts", to: "qa/b.ts" },
    { from: "qa/b.ts", to: "qa/c.ts" },
    { from: "qa/c.ts", to: "qa/a.ts" },
    { from: "qa/c.ts", to: "base/d.ts" },
    { from: "base/e.ts", to: "base/e.ts" },
  ];
  assertEquals(importCycles(edges), [["base/e.ts"], ["qa/a.ts", "qa/b.ts", "qa/c.ts"]]);
});

Deno.test("every import into another folder goes through that folder's mod.ts", async () => {
  assertEquals(surfaceBypasses(await readImportGraph(`${ROOT}lib`)), []);
});

Deno.test("the surface check names an import that skips mod.ts and lets zod's namespace through", () => {
  const edges = [
    { from: "qa/run/tasks.ts", to: "protocol/cases.ts" },
    { from: "qa/run/tasks.ts", to: "protocol/mod.ts" },
    { from: "qa/run/tasks.ts", to: "base/zod.ts" },
    { from: "qa/run/tasks.ts", to: "qa/run/prompt.ts" },
  ];
  assertEquals(surfaceBypasses(edges), [
    "qa/run/tasks.ts -> protocol/cases.ts: import it through protocol/mod.ts",
  ]);
});

/** The `mod.ts` files that re-export a module whole (`export * from`) instead of naming what they export. */
function starExports(files: readonly { path: string; text: string }[]): string[] {
  return files.filter(({ path, text }) => path.endsWith("/mod.ts") && /^export \* from/m.test(text))
    .map(({ path }) => path);
}

Deno.test("each folder's mod.ts names what it exports (no export *)", async () => {
  assertEquals(starExports(await libFiles()), []);
});

Deno.test("the surface rule names a planted export * in a mod.ts, and lets a named list and a module's own through", () => {
  assertEquals(
    starExports([
      {
        path: "qa/mod.ts",
        text: 'export { tasks } from "./run/tasks.ts";\nexport * from "./grade/stats.ts";\n',
      },
      { path: "report/mod.ts", text: 'export { reportText } from "./render/text.ts";\n' },
      { path: "qa/run/tasks.ts", text: 'export * from "./prompt.ts";\n' },
    ]),
    ["qa/mod.ts"],
  );
});

// Reading files and decoding bytes have one home each: the readers of lib/base, the reference's formats in lib/py
// (the BOM rule of JSON too: lib/py's jsonBomRefusal, so no other module looks for a BOM itself).
const READING = [
  [/new TextDecoder\(/, "decodes bytes itself"],
  [/\bDeno\.(?:readFile|readTextFile)(?:Sync)?\(/, "reads a file itself"],
  [/\\u(?:feff|FEFF)|\uFEFF|\b0x[fF][eE][fF][fF]\b/, "spells a BOM"],
  [
    /\bstartsWithBom\(|\bimport\s+(?:type\s+)?\{[^}]*\b(?:BOM|startsWithBom)\b[^}]*\}/,
    "handles a BOM itself",
  ],
] as const;

/** The modules outside lib/base and lib/py that break the reading rule, each with what it does. */
function readingProblems(files: readonly { path: string; text: string }[]): string[] {
  const problems: string[] = [];
  for (const { path, text } of files) {
    if (path.startsWith("base/") || path.startsWith("py/")) continue;
    const code = text.split("\n").filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line)).join("\n");
    for (const [pattern, what] of READING) if (pattern.test(code)) problems.push(`${path} ${what}`);
  }
  return problems;
}

Deno.test("outside lib/base and lib/py no module reads a file, decodes bytes, or spells or handles a BOM", async () => {
  assertEquals(readingProblems(await libFiles()), []);
});

Deno.test("the reading rule's patterns catch each form", () => {
  const samples = [
    'new TextDecoder("utf-8")',
    "await Deno.readTextFile(path)",
    'text.startsWith("\\ufeff")',
    "bytes[0] === 0xFEFF",
    "if (startsWithBom(text)) throw new ContractError(message, { path });",
    "if (base.startsWithBom(text)) return;",
    'import { BOM, ContractError } from "../base/mod.ts";',
    'import {\n  compareCodePoints,\n  startsWithBom,\n} from "../base/mod.ts";',
  ];
  assertEquals(samples.map((sample) => READING.filter(([pattern]) => pattern.test(sample)).length), [
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
  ]);
  for (
    const innocent of [
      "readBytesCapped(path)",
      'throw new ContractError("not valid JSON: a BOM, refused", { path });',
      'import { jsonBomRefusal } from "../py/mod.ts";',
      "const bom = jsonBomRefusal(text);",
    ]
  ) assert(!READING.some(([pattern]) => pattern.test(innocent)), innocent);
});

Deno.test("the reading rule names a planted module that looks for a BOM, and lets lib/base and lib/py do so", () => {
  const planted = [
    "import { ContractError, startsWithBom } from '../base/mod.ts';",
    "/** Refuses a leading BOM. */",
    "export function check(text: string, path: string): void {",
    '  if (startsWithBom(text)) throw new ContractError("begins with a BOM", { path });',
    "}",
  ].join("\n");
  assertEquals(readingProblems([{ path: "verify/planted.ts", text: planted }]), [
    "verify/planted.ts handles a BOM itself",
  ]);
  assertEquals(
    readingProblems([{ path: "py/planted.ts", text: planted }, { path: "base/planted.ts", text: planted }]),
    [],
  );
});

/** The names of `const NAME_CAP` declarations in a module's code (a cap on what is read, by the naming rule). */
function capsDeclared(text: string): string[] {
  return [...text.matchAll(/^(?:export )?const ([A-Z][A-Z0-9_]*_CAP)\b/gm)].map((match) => match[1]);
}

Deno.test("every read cap is declared in base/read.ts's one table, and each is used by live code", async () => {
  const files = await libFiles();
  const elsewhere = files.filter(({ path }) => path !== "base/read.ts").flatMap(({ path, text }) =>
    capsDeclared(text).map((name) => `${path} declares ${name}`)
  );
  assertEquals(elsewhere, []);
  const table = capsDeclared(files.find(({ path }) => path === "base/read.ts")!.text);
  assert(table.length >= 8, `only ${table.length} caps found in base/read.ts`);
  const uses = (name: string) =>
    files.filter(({ path, text }) =>
      path !== "base/mod.ts" &&
      text.split("\n").some((line) =>
        !/^\s*(?:\*|\/\/)/.test(line) && !line.includes(`const ${name}`) &&
        new RegExp(`\\b${name}\\b`).test(line)
      )
    ).length;
  assertEquals(table.filter((name) => uses(name) === 0), []);
});

Deno.test("the cap rule's reader finds a cap declared outside the table", () => {
  assertEquals(
    capsDeclared("const LINE_CAP = 16 << 20;\nexport const BODY_CAP: number = 4;\nconst CAPS = 1;\n"),
    [
      "LINE_CAP",
      "BODY_CAP",
    ],
  );
});

/**
 * Where a module outside lib/base and lib/py may parse JSON itself: the sandbox's answer lines belong to its
 * codec (a reviver for the values JSON cannot hold), not to a file format.
 */
const JSON_PARSE_ALLOWED = new Set(["policy/sandbox.ts"]);

/** The modules outside lib/base and lib/py that call `JSON.parse` instead of py's readers of JSON text. */
function jsonParsers(files: readonly { path: string; text: string }[]): string[] {
  return files.filter(({ path, text }) =>
    !path.startsWith("base/") && !path.startsWith("py/") && !JSON_PARSE_ALLOWED.has(path) &&
    text.split("\n").some((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line) && /\bJSON\.parse\(/.test(line))
  ).map(({ path }) => path);
}

Deno.test("JSON text is read through py's parseJsonText, parseJsonTextWith or jsonObjectOf: no other JSON.parse", async () => {
  assertEquals(jsonParsers(await libFiles()), []);
});

Deno.test("the JSON rule names a planted JSON.parse, not one in an example, in lib/py or in the sandbox", () => {
  const planted = "export const read = (text: string) => JSON.parse(text);\n";
  const example = " * const marker = JSON.parse(qaRunMarker(contracts));\n";
  assertEquals(
    jsonParsers([
      { path: "verify/planted.ts", text: planted },
      { path: "verify/example.ts", text: example },
      { path: "py/json_text.ts", text: planted },
      { path: "policy/sandbox.ts", text: planted },
    ]),
    ["verify/planted.ts"],
  );
});

Deno.test("the root mod.ts imports folder surfaces only: each lib/FOLDER/mod.ts, never a file inside", async () => {
  const text = await Deno.readTextFile(`${ROOT}mod.ts`);
  const code = text.split("\n").filter((line) => !/^\s*\*/.test(line)).join("\n");
  const sources = [...code.matchAll(/\bfrom\s+"(\.[^"]+)"/g)].map((match) => match[1]);
  assert(sources.length >= 5, `only ${sources.length} imports read from mod.ts`);
  assertEquals(sources.filter((source) => !/^\.\/lib\/\w+\/mod\.ts$/.test(source)), []);
});
