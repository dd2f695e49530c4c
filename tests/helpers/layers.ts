/** Reads lib/'s import graph from the source text and names every edge that breaks the folder layering. */

/** lib/'s folders, bottom to top: a module may import from its own folder or from a folder below it. */
export const LAYERS = [
  "base",
  "py",
  "protocol",
  "policy",
  "qa",
  "sweep",
  "verify",
  "report",
  "conformance",
  "commands",
] as const;

/**
 * The sub-folders of a layer folder, bottom to top: a file may import from its own sub-folder or one below it.
 * (qa's answering sits above its grading because the stand-in answerer answers by the grading rule.)
 */
export const SUBLAYERS: Readonly<Record<string, readonly string[]>> = {
  qa: ["run", "grade", "answer"],
  report: ["document", "run", "sweep", "render", "compare", "explain"],
};

/** One import in lib/: the importing file and the imported one, both relative to lib/. */
export interface ImportEdge {
  from: string;
  to: string;
}

// Module specifiers of code (not of JSDoc examples, whose lines start with `*`).
const IMPORT =
  /^(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"|^import\s+"(\.{1,2}\/[^"]+)"|\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/gm;

/** Every relative import of every `.ts` file under `libDir`, resolved to paths relative to it. */
export async function readImportGraph(libDir: string): Promise<ImportEdge[]> {
  const edges: ImportEdge[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(`${libDir}/${dir}`)) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(`${libDir}/${path}`);
        const code = text.split("\n").filter((line) => !/^\s*\*/.test(line)).join("\n");
        for (const match of code.matchAll(IMPORT)) {
          const specifier = match[1] ?? match[2] ?? match[3];
          const resolved = new URL(specifier, `file:///lib/${path}`).pathname;
          if (resolved.startsWith("/lib/")) edges.push({ from: path, to: resolved.slice("/lib/".length) });
        }
      }
    }
  };
  await walk("");
  return edges;
}

function folderOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.indexOf("/")) : "";
}

/** The edges that leave the layer folders, point up (between folders or sub-folders), or reach a private file. */
export function layerViolations(edges: readonly ImportEdge[]): string[] {
  const problems: string[] = [];
  for (const { from, to } of edges) {
    const problem = folderViolation(from, to) ?? subfolderViolation(from, to) ?? privacyViolation(from, to);
    if (problem !== undefined) problems.push(`${from} -> ${to}: ${problem}`);
  }
  return problems;
}

function folderViolation(from: string, to: string): string | undefined {
  const rank = (folder: string) => (LAYERS as readonly string[]).indexOf(folder);
  const source = folderOf(from);
  const target = folderOf(to);
  if (source === target) return undefined;
  if (rank(source) < 0 || rank(target) < 0) return "outside the layer folders";
  if (rank(target) > rank(source)) return `${source} may not import from ${target} (above it)`;
  return undefined;
}

/** `qa/run/tasks.ts` is in sub-folder `run` of `qa`; a file at a layer folder's top (its mod.ts) is in none. */
function subfolderOf(path: string): string | undefined {
  const parts = path.split("/");
  return parts.length > 2 ? parts[1] : undefined;
}

function subfolderViolation(from: string, to: string): string | undefined {
  const folder = folderOf(from);
  const order = SUBLAYERS[folder];
  if (order === undefined || folder !== folderOf(to)) return undefined;
  const source = subfolderOf(from);
  const target = subfolderOf(to);
  if (source === undefined || source === target) return undefined;
  if (target === undefined) {
    return `${folder}/${source} may not import ${folder}'s surface (it is above every sub-folder)`;
  }
  if (!order.includes(source) || !order.includes(target)) {
    return `not a sub-folder of ${folder}/ (${order.join(", ")})`;
  }
  if (order.indexOf(target) > order.indexOf(source)) {
    return `${folder}/${source} may not import from ${folder}/${target} (above it)`;
  }
  return undefined;
}

/** A `_name.ts` file is private to the directory that holds it and the folders inside that directory. */
function privacyViolation(from: string, to: string): string | undefined {
  const directory = (path: string) => path.slice(0, path.lastIndexOf("/"));
  if (!to.split("/").pop()!.startsWith("_") || from.startsWith(`${directory(to)}/`)) return undefined;
  return `private to ${directory(to)}/`;
}

/** Every import circle between files, each as its files in order (a file that imports itself included). */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's strongly connected components: each component of two or more files holds a circle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (next.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The edges into another folder that do not go through that folder's `mod.ts`. */
export function surfaceBypasses(edges: readonly ImportEdge[]): string[] {
  // zod is imported as a namespace from base/zod.ts itself: through a re-export the bundler keeps all of zod.
  const through = (to: string) => to === `${folderOf(to)}/mod.ts` || to === "base/zod.ts";
  return edges.filter(({ from, to }) => folderOf(from) !== folderOf(to) && !through(to))
    .map(({ from, to }) => `${from} -> ${to}: import it through ${folderOf(to)}/mod.ts`);
}

/** Copies the directory tree `from` to `to` in this process, so a structure test needs no subprocess. */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = `${from}/${entry.name}`;
    const target = `${to}/${entry.name}`;
    if (entry.isDirectory) await copyTree(source, target);
    else await Deno.copyFile(source, target);
  }
}
