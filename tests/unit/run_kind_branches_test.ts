/**
 * What kind of run a directory holds is the run-kind registry's to say (`lib/commands/_run_kinds.ts`): few files
 * in lib/ may branch on a run's kind, and none may sniff a run's marking files but the registry.
 */

import { assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";

const KINDS = "qa|policy|sweep|partial|demo|published|candidate-qa|module-policy";
const KIND = String.raw`\b(?:kind|shape)\s*[!=]==`;
/** A run's kind (or the registry's shape) held against a kind's name, or against another run's kind. */
const BRANCH = new RegExp(
  String
    .raw`${KIND}\s*"(?:${KINDS})"|"(?:${KINDS})"\s*[!=]==\s*\w+\.(?:kind|shape)\b|\.kind\s*[!=]==\s*\w+\.kind\b`,
);
/** A run's marking file looked for on disk. */
const SNIFF = /\bexists\([^)]*(?:qa\.rows\.jsonl|policy\.raw\.jsonl|sweep\.jsonl|qa_run\.json)/;

/**
 * The files that branch on a run's kind today, the registry first (at most 5): every other reader of a report
 * model declares a table keyed by the model's kind (`PerModel` in `lib/report/run/run_report.ts`).
 */
const ALLOWED = [
  "lib/commands/_run_kinds.ts",
  "lib/commands/report.ts",
  "lib/report/compare/compare.ts",
]; /** Besides the registry (which looks through its own `has`), only the report model's reader looks. */
const SNIFFERS = ["lib/report/run/run_kind.ts"];

/** The lib/ files (relative to the root) whose code, not their comments, matches `pattern`. */
export async function filesMatching(pattern: RegExp, dir = `${ROOT}lib`): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesMatching(pattern, path));
    else if (entry.name.endsWith(".ts")) {
      const code = (await Deno.readTextFile(path)).split("\n").filter((line) =>
        !/^\s*(\*|\/\/|\/\*)/.test(line)
      );
      if (code.some((line) => pattern.test(line))) found.push(path.slice(ROOT.length));
    }
  }
  return found.sort();
}

Deno.test("at most the listed files in lib/ branch on a run's kind", async () => {
  assertEquals(await filesMatching(BRANCH), ALLOWED);
});

Deno.test("besides the registry, only the report model's reader looks for a run's marking files", async () => {
  assertEquals(await filesMatching(SNIFF), SNIFFERS);
});

Deno.test("the branch rule names each form, and not a comment or an event's kind", () => {
  for (
    const line of ['if (report.kind === "qa") {', 'kind === "sweep"', "if (mine.kind !== theirs.kind) {"]
  ) {
    assertEquals(BRANCH.test(line), true, line);
  }
  for (const line of ['if (event.kind === "planned") {', ' * strictEqual(report.kind === "policy", true);']) {
    assertEquals(BRANCH.test(line) && !line.trimStart().startsWith("*"), false, line);
  }
  assertEquals(SNIFF.test("await exists(`${path}/policy.raw.jsonl`)"), true);
});
