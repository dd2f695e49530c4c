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

/** The edges that leave the layer folders, point up, or reach into another folder's `_private` file. */
export function layerViolations(edges: readonly ImportEdge[]): string[] {
  const rank = (folder: string) => (LAYERS as readonly string[]).indexOf(folder);
  const problems: string[] = [];
  for (const { from, to } of edges) {
    const source = folderOf(from);
    const target = folderOf(to);
    if (source === target) continue;
    if (rank(source) < 0 || rank(target) < 0) {
      problems.push(`${from} -> ${to}: outside the layer folders`);
    } else if (rank(target) > rank(source)) {
      problems.push(`${from} -> ${to}: ${source} may not import from ${target} (above it)`);
    } else if (to.split("/").pop()!.startsWith("_")) {
      problems.push(`${from} -> ${to}: private to ${target}/`);
    }
  }
  return problems;
}
