/**
 * lib/ keeps no copy of what a dependency or the platform provides: no WebAssembly of its own (bytes, or a module
 * compiled at run time) and no YAML scanner beside the `yaml` library.
 */

import { assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";

// `\0asm`, the first four bytes of every WebAssembly module, in the forms a source file could carry them.
const WASM_BYTES: [RegExp, string][] = [
  [/0x0*0\s*,\s*0x61\s*,\s*0x73\s*,\s*0x6d/i, "WebAssembly's magic bytes as numbers"],
  [/\\(?:x00|u0000|0)asm/, "WebAssembly's magic bytes as an escaped string"],
  [/AGFzbQ/, "WebAssembly's magic bytes in base64"],
];
const WASM_CALLS = /\bWebAssembly\s*(?:\.\s*|\[\s*["'])(?:Module|Instance|Memory|instantiate|compile)/;
// The plain-subset reader that once stood in front of the library, and any scanner of our own by its name.
const YAML_SCANNERS =
  /\b(?:parseSubsetYaml|\w*Subset\w*Yaml\w*|\w*Yaml\w*(?:Scanner|Tokeni[sz]er|Lexer)\w*)\b/;

/** One line per file that holds a copy (a path relative to `root`, then what it holds). */
async function findCopies(root: string): Promise<string[]> {
  const problems: string[] = [];
  const visit = async (directory: string): Promise<void> => {
    for await (const entry of Deno.readDir(directory)) {
      const path = `${directory}/${entry.name}`;
      if (entry.isDirectory) {
        await visit(path);
        continue;
      }
      const name = path.slice(root.length + 1);
      const bytes = await Deno.readFile(path);
      const text = new TextDecoder().decode(bytes);
      if (text.includes("\0asm")) problems.push(`${name}: WebAssembly bytes`);
      for (const [pattern, what] of WASM_BYTES) if (pattern.test(text)) problems.push(`${name}: ${what}`);
      if (/\bnew\s+WebAssembly\b/.test(text) || WASM_CALLS.test(text)) {
        problems.push(`${name}: a WebAssembly module made at run time`);
      }
      const scanner = YAML_SCANNERS.exec(text);
      if (scanner !== null) problems.push(`${name}: a YAML reader of its own (${scanner[0]})`);
    }
  };
  await visit(root);
  return problems.sort();
}

Deno.test("lib/ holds no WebAssembly and no YAML scanner of its own", async () => {
  assertEquals(await findCopies(`${ROOT}lib`), []);
});

Deno.test("the check names each kind of copy planted in a directory", async () => {
  const root = await Deno.makeTempDir();
  try {
    const files: [string, string | Uint8Array][] = [
      ["kernel.wasm", Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00)],
      ["header.ts", "const bytes = [0x00, 0x61, 0x73, 0x6D, 1, 0, 0, 0];"],
      ["escaped.ts", 'const bytes = "\\x00asm\\x01";'],
      ["base64.ts", 'const module = "AGFzbQEAAAA=";'],
      ["compiled.ts", "const m = new WebAssembly.Module(bytes);"],
      ["instantiated.ts", "await WebAssembly.instantiate(bytes);"],
      ["subset.ts", "export function parseSubsetYaml(text: string) {}"],
      ["scanner.ts", "class YamlScanner {}"],
      ["clean.ts", 'import { parse } from "yaml";\n// A comment may name WebAssembly.\n'],
    ];
    for (const [name, content] of files) {
      if (typeof content === "string") await Deno.writeTextFile(`${root}/${name}`, content);
      else await Deno.writeFile(`${root}/${name}`, content);
    }
    assertEquals(await findCopies(root), [
      "base64.ts: WebAssembly's magic bytes in base64",
      "compiled.ts: a WebAssembly module made at run time",
      "escaped.ts: WebAssembly's magic bytes as an escaped string",
      "header.ts: WebAssembly's magic bytes as numbers",
      "instantiated.ts: a WebAssembly module made at run time",
      "kernel.wasm: WebAssembly bytes",
      "scanner.ts: a YAML reader of its own (YamlScanner)",
      "subset.ts: a YAML reader of its own (parseSubsetYaml)",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
