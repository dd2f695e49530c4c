/**
 * Narrow surfaces: a folder's `mod.ts` exports what other folders (or the root `mod.ts`) use, not every helper
 * its own modules or its tests call (tests import a module file directly). Held for the folders narrowed so far.
 */

import { assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";

/** The folders whose `mod.ts` exports only what is used outside them. */
const NARROWED = ["policy", "protocol", "qa", "report"] as const;

/** The names a `mod.ts` exports (its `export { … } from` lists and its own declarations). */
function exportedNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s*from/gm)) {
    for (const item of match[1].split(",").map((name) => name.trim()).filter((name) => name !== "")) {
      names.push(item.replace(/^type\s+/, "").split(/\s+as\s+/).at(-1)!.trim());
    }
  }
  return names;
}

/** Each name a file imports from `lib/FOLDER/mod.ts`, as `FOLDER name`, JSDoc examples included. */
function importedNames(path: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s+"(\.[^"]+)"/g)) {
    const target = new URL(match[2], `file:///${path}`).pathname.match(/^\/lib\/(\w+)\/mod\.ts$/);
    if (target === null) continue;
    for (const item of match[1].split(",").map((name) => name.trim()).filter((name) => name !== "")) {
      found.push(`${target[1]} ${item.replace(/^type\s+/, "").split(/\s+as\s+/)[0].trim()}`);
    }
  }
  return found;
}

/** The exports of each folder in `folders` that no file outside it imports, as `FOLDER/mod.ts exports NAME`. */
function unusedExports(
  files: readonly { path: string; text: string }[],
  folders: readonly string[],
): string[] {
  const usedOutside = new Set(
    files.flatMap(({ path, text }) =>
      importedNames(path, text).filter((use) => !path.startsWith(`lib/${use.split(" ")[0]}/`))
    ),
  );
  return folders.flatMap((folder) => {
    const mod = files.find(({ path }) => path === `lib/${folder}/mod.ts`)!;
    return exportedNames(mod.text).filter((name) => !usedOutside.has(`${folder} ${name}`))
      .map((name) => `${folder}/mod.ts exports ${name}`);
  });
}

async function sourceFiles(): Promise<{ path: string; text: string }[]> {
  const files = [{ path: "mod.ts", text: await Deno.readTextFile(`${ROOT}mod.ts`) }];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        files.push({ path, text: await Deno.readTextFile(`${ROOT}${path}`) });
      }
    }
  };
  await walk("lib");
  return files;
}

Deno.test("qa, report, protocol and policy export from mod.ts only what another folder or the root mod.ts imports", async () => {
  assertEquals(unusedExports(await sourceFiles(), NARROWED), []);
});

Deno.test("the narrow-surface rule names a planted helper only the folder itself uses, and counts a JSDoc example", () => {
  const files = [
    {
      path: "lib/qa/mod.ts",
      text: 'export { answerRun, helper } from "./a.ts";\nexport { type Shown } from "./b.ts";\n',
    },
    { path: "lib/qa/a.ts", text: 'import { helper } from "./mod.ts";\n' },
    { path: "lib/commands/run_qa.ts", text: 'import {\n  answerRun,\n} from "../qa/mod.ts";\n' },
    { path: "lib/report/x.ts", text: ' * import { type Shown } from "../qa/mod.ts";\n' },
  ];
  assertEquals(unusedExports(files, ["qa"]), ["qa/mod.ts exports helper"]);
});
