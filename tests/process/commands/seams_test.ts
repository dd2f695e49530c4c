/**
 * The published surface (every entry of deno.json's "exports") holds no test seam: no name of `TestSeams`, of
 * its members or of the types they are made of appears among the exported symbols, their members, their
 * parameters or the types they refer to, as `deno doc --json` documents them.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/paths.ts";
import { withTempDir } from "../../helpers/cli.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface DocSymbol {
  name: string;
  declarations: Json[];
}

async function documented(entries: readonly string[]): Promise<DocSymbol[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...entries],
    cwd: ROOT,
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(output.success, new TextDecoder().decode(output.stderr));
  const doc = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    nodes: Record<string, { symbols: DocSymbol[] }>;
  };
  return Object.values(doc.nodes).flatMap((node) => node.symbols);
}

/** Every name a documented value holds: its members', its parameters' and the types' it refers to. */
function namesIn(value: Json, names = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) namesIn(item, names);
  } else if (value !== null && typeof value === "object") {
    for (const key of ["name", "typeName"]) {
      if (typeof value[key] === "string") names.add(value[key] as string);
    }
    for (const [key, item] of Object.entries(value)) {
      if (key !== "jsDoc" && key !== "location") namesIn(item, names);
    }
  }
  return names;
}

/** The program's own types a documented value refers to (a global one, Promise or Record, has no resolution). */
function ownTypesIn(value: Json, names = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) ownTypesIn(item, names);
  } else if (value !== null && typeof value === "object") {
    if (typeof value.typeName === "string" && value.resolution !== undefined) names.add(value.typeName);
    for (const item of Object.values(value)) ownTypesIn(item, names);
  }
  return names;
}

/** The seam's names: `TestSeams`, its members, and the program's types they are made of, followed through. */
async function seamNames(): Promise<Set<string>> {
  const internal = await documented(["lib/commands/mod.ts", "lib/base/mod.ts"]);
  const declarations = (name: string) =>
    internal.filter((symbol) => symbol.name === name).flatMap((symbol) => symbol.declarations);
  const testSeams = declarations("TestSeams");
  assert(testSeams.length > 0, "lib/commands/mod.ts documents no TestSeams: the check would check nothing");
  const members = testSeams.flatMap((item) =>
    (item as { def: { properties: { name: string }[] } }).def.properties
  );
  const seams = new Set(["TestSeams", ...members.map((member) => member.name)]);
  const follow = (value: Json) => {
    for (const type of ownTypesIn(value)) {
      if (seams.has(type)) continue;
      seams.add(type);
      follow(declarations(type));
    }
  };
  follow(testSeams);
  return seams;
}

/** The seam names the symbols exported by `entries` show, each with the exported symbol it is found under. */
async function seamsShown(entries: readonly string[], seams: Set<string>): Promise<string[]> {
  const found: string[] = [];
  for (const symbol of await documented(entries)) {
    for (const name of namesIn({ name: symbol.name, declarations: symbol.declarations })) {
      if (seams.has(name)) found.push(`${symbol.name}: ${name}`);
    }
  }
  return [...new Set(found)].sort();
}

const EXPORTS: string[] = Object.values(
  JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).exports as Record<string, string>,
);

Deno.test("the seam's names are TestSeams, its hook and the hook's types", async () => {
  assertEquals([...await seamNames()].sort(), [
    "FileOperation",
    "FileOperationHook",
    "TestSeams",
    "beforeFileOperation",
  ]);
});

Deno.test("no entry deno.json exports (mod.ts, the policy kit, cli.ts) shows a test seam", async () => {
  assertEquals(EXPORTS.sort(), ["./cli.ts", "./lib/policy/kit.ts", "./mod.ts"]);
  assertEquals(await seamsShown(EXPORTS, await seamNames()), []);
});

Deno.test("cli.ts's values are main, VERSION and SOURCE_STATE; main takes the arguments and an Io", async () => {
  const cli = await import("../../../cli.ts");
  assertEquals(Object.keys(cli).sort(), ["SOURCE_STATE", "VERSION", "main"]);
  assertEquals(cli.main.length, 1); // (args, io = the terminal's): no third parameter
});

Deno.test("the seam check finds a re-exported seam, a seam member of Io and the hook's types", async () => {
  const seams = await seamNames();
  await withTempDir(async (directory) => {
    const planted = {
      "reexport.ts": `export * from "file://${ROOT}cli.ts";\n` +
        `export type { TestSeams } from "file://${ROOT}lib/commands/mod.ts";\n`,
      "member.ts": "/** The io. */\nexport interface Io {\n  /** A line. */\n  out(line: string): void;\n" +
        "  /** The hook. */\n  beforeFileOperation?: (kind: string) => void;\n}\n",
      "types.ts": `export type { FileOperation, FileOperationHook } from "file://${ROOT}lib/base/fs.ts";\n`,
      "parameter.ts": `import type { TestSeams } from "file://${ROOT}lib/commands/mod.ts";\n` +
        "/** Runs. */\nexport function main(args: string[], seams?: TestSeams): number {\n" +
        "  return args.length + (seams === undefined ? 0 : 1);\n}\n",
    };
    for (const [name, text] of Object.entries(planted)) {
      await Deno.writeTextFile(`${directory}/${name}`, text);
    }
    const shown = async (name: string) => await seamsShown([`${directory}/${name}`], seams);
    assertEquals(await shown("reexport.ts"), [
      "TestSeams: FileOperationHook",
      "TestSeams: TestSeams",
      "TestSeams: beforeFileOperation",
    ]);
    assertEquals(await shown("member.ts"), ["Io: beforeFileOperation"]);
    assertEquals(await shown("types.ts"), [
      "FileOperation: FileOperation",
      "FileOperationHook: FileOperation",
      "FileOperationHook: FileOperationHook",
    ]);
    assertEquals(await shown("parameter.ts"), ["main: TestSeams"]);
  });
});
