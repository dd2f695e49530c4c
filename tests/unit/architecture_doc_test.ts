/** docs/architecture.md stays true: it lists every module of lib/ under its folder, and nothing that is gone. */

import { assert, assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";

/** The modules the document lists, per folder: `- `name`` bullets under a `## lib/FOLDER` heading. */
export function documentedModules(markdown: string): Map<string, string[]> {
  const folders = new Map<string, string[]>();
  let folder: string | undefined;
  let names: string | undefined;
  for (const line of markdown.split("\n")) {
    const heading = /^#{2,3} `?lib\/([\w/]+?)\/?`?$/.exec(line);
    if (heading) {
      folder = heading[1];
      folders.set(folder, []);
      continue;
    }
    if (/^#{1,3} /.test(line)) folder = undefined;
    if (folder === undefined) continue;
    if (line.startsWith("- `")) names = line;
    else if (names !== undefined && line.startsWith("  ")) names += line;
    else names = undefined;
    // A bullet names its modules before the dash, on one line or wrapped onto the next.
    if (names?.includes(" — ")) {
      const listed = names.slice(0, names.indexOf(" — ")).matchAll(/`(\w+)`/g);
      folders.get(folder)!.push(...[...listed].map((match) => match[1]));
      names = undefined;
    }
  }
  return folders;
}

/** The modules on disk, per folder: every `.ts` file but `mod.ts` (each folder's surface, always there). */
async function modulesOnDisk(root: string): Promise<Map<string, string[]>> {
  const folders = new Map<string, string[]>();
  const visit = async (folder: string): Promise<void> => {
    const names: string[] = [];
    for await (const entry of Deno.readDir(`${root}/${folder}`)) {
      if (entry.isDirectory) await visit(`${folder}/${entry.name}`);
      else if (entry.name.endsWith(".ts") && entry.name !== "mod.ts") names.push(entry.name.slice(0, -3));
    }
    folders.set(folder, names.sort());
  };
  for await (const entry of Deno.readDir(root)) if (entry.isDirectory) await visit(entry.name);
  return folders;
}

function sorted(folders: Map<string, string[]>): [string, string[]][] {
  return [...folders].map(([folder, names]): [string, string[]] => [folder, [...names].sort()]).sort((a, b) =>
    a[0] < b[0] ? -1 : 1
  );
}

Deno.test("docs/architecture.md lists exactly the modules lib/ holds, folder by folder", async () => {
  const documented = documentedModules(await Deno.readTextFile(`${ROOT}docs/architecture.md`));
  assert(documented.size >= 10, `only ${documented.size} folders documented: the reader is not reading it`);
  assertEquals(sorted(documented), sorted(await modulesOnDisk(`${ROOT}lib`)));
});

Deno.test("the document reader takes the bullets under lib/ headings only", () => {
  const doc = "## lib/base\n\n- `read` — caps\n- `a`, `b`,\n  `c` — three\n\n## Other\n- `x` — not lib\n";
  assertEquals(sorted(documentedModules(doc)), [["base", ["a", "b", "c", "read"]]]);
});

Deno.test('"Adding a run kind" names every field and kind of the registry, and only files that exist', async () => {
  const doc = await Deno.readTextFile(`${ROOT}docs/architecture.md`);
  const at = doc.indexOf("\n## Adding a run kind\n");
  assert(at >= 0, "docs/architecture.md has no section Adding a run kind");
  const section = doc.slice(at).split(/\n## (?!Adding)/)[0];
  const registry = await Deno.readTextFile(`${ROOT}lib/commands/_run_kinds.ts`);
  const entry = registry.slice(registry.indexOf("export interface RunKind {"));
  const fields = [...entry.slice(0, entry.indexOf("\n}")).matchAll(/^ {2}readonly (\w+):/gm)].map((m) =>
    m[1]
  );
  assert(fields.length >= 8, `only ${fields.length} fields read from the registry`);
  const { RUN_KINDS } = await import("../../lib/commands/_run_kinds.ts");
  const listed = (name: string) => section.includes(`\`${name}\``);
  assertEquals(fields.filter((field) => !section.includes(`- \`${field}\` — `)), []);
  assertEquals(RUN_KINDS.map((kind) => kind.name).filter((name) => !listed(name)), []);
  const paths = [...section.matchAll(/`((?:lib|tests|docs)\/[\w/.]+\.(?:ts|md))`/g)].map((m) => m[1]);
  assert(paths.length >= 6, `only ${paths.length} files named`);
  const missing: string[] = [];
  for (const path of paths) await Deno.stat(`${ROOT}${path}`).catch(() => missing.push(path));
  assertEquals(missing, []);
});
